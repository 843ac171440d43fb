// Writes the server's OpenAPI document (every installed plugin and the examples) to
// testing/openapi.snapshot.json. The jsdom harness checks the fake API's replies against it, and an
// API suite fails when the snapshot no longer matches the server: run `npm run openapi:snapshot`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestServer } from '@werkbank/testing/node';

const t = await startTestServer({ examples: true });
try {
  const doc = await (await fetch(`${t.url}/api/openapi.json`)).json();
  const target = resolve(import.meta.dirname, '../testing/openapi.snapshot.json');
  writeFileSync(target, JSON.stringify(doc, null, 1) + '\n');
  console.log(`Wrote ${target}`);
} finally {
  await t.close();
}
