import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

type Messages = { [k: string]: string | Messages };

/** True when `key` is a text, or a plural pair `key_one` / `key_other` (i18next). */
function present(messages: Messages, key: string): boolean {
  const parts = key.split('.');
  const leaf = parts.pop()!;
  const parent = parts.reduce<string | Messages | undefined>((n, p) => (typeof n === 'object' ? n[p] : undefined), messages);
  if (typeof parent !== 'object') return false;
  return typeof parent[leaf] === 'string' || (`${leaf}_one` in parent && `${leaf}_other` in parent);
}

/** Keys built at run time from a stage or a status; every value they can take. */
const DYNAMIC = [
  ...['input', 'progress', 'result'].map((s) => `run.stage_${s}`),
  ...['initialized', 'waiting', 'started', 'success', 'failure', 'cancelled'].map((s) => `run.status_${s}`),
];

describe('workflow texts', () => {
  it('has every key the workflow screens use, in German and English', () => {
    const dir = import.meta.dirname;
    const used = new Set(DYNAMIC);
    for (const name of readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !f.includes('.spec.'))) {
      const source = readFileSync(join(dir, name), 'utf8');
      // t('a.b'), t(cond ? 'a.b' : 'c.d'); keys of other namespaces ('core:…') are not ours.
      for (const m of source.matchAll(/\bt\(([^()]*?)[,)]/g)) {
        for (const k of m[1].matchAll(/'([\w-]+(?:\.[\w-]+)+)'/g)) used.add(k[1]);
      }
    }
    const missing = [...used].filter((k) => !present(en as Messages, k) || !present(de as Messages, k));
    assert.deepEqual(missing, []);
    assert.ok(used.size > 60, `found the keys in use (${used.size})`);
  });
});
