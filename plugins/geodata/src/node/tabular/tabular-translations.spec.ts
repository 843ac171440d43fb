import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

const here = dirname(fileURLToPath(import.meta.url));

describe('tabular translations', () => {
  it('has a German and an English message for every failure the tabular functions raise', () => {
    const codes = new Set<string>();
    for (const file of readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      for (const m of readFileSync(join(here, file), 'utf8').matchAll(/failure\('([a-z_]+)'/g)) codes.add(m[1]);
    }
    assert.ok(codes.size > 10);
    for (const code of codes) {
      assert.ok(code in en.errors, `en: ${code}`);
      assert.ok(code in de.errors, `de: ${code}`);
    }
    assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
  });

  it('uses the same placeholders in both languages', () => {
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [code, text] of Object.entries(en.errors)) {
      assert.deepEqual(holes((de.errors as Record<string, string>)[code]), holes(text), code);
    }
  });
});
