import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

const here = dirname(fileURLToPath(import.meta.url));

describe('geodata depot import: error reasons', () => {
  it('has every reason in German and English, with the same placeholders', () => {
    assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(en.errors)) {
      assert.deepEqual(holes(de.errors[key as keyof typeof de.errors]), holes(text), key);
    }
  });

  it('has a message for every reason depot.import_file fails with', () => {
    const codes = new Set<string>();
    for (const file of readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      for (const m of readFileSync(join(here, file), 'utf8').matchAll(/\bfailure\('(\w+)'/g)) codes.add(m[1]);
    }
    assert.ok(codes.size >= 5, String(codes.size));
    assert.deepEqual(
      [...codes].filter((c) => !(c in en.errors)),
      [],
    );
  });
});
