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

/** Every key path of a message tree. */
const keys = (m: Messages, prefix = ''): string[] =>
  Object.entries(m).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));

/** Keys built at run time from a mode, a status or a refusal; every value they can take. */
const DYNAMIC = [
  ...['data', 'function', 'note'].map((m) => `insert.title_${m}`),
  ...['initialized', 'started', 'success', 'failure', 'cancelled'].map((s) => `status.${s}`),
  ...['initialized', 'waiting', 'started', 'success', 'failure', 'cancelled'].map((s) => `run_status.${s}`),
  ...['invalid', 'local_not_allowed', 'unsupported_scheme'].map((p) => `url.problem_${p}`),
];

describe('switchboards dialogs: texts', () => {
  it('has every key the dialogs use, in German and English', () => {
    const dir = import.meta.dirname;
    const used = new Set(DYNAMIC);
    for (const name of readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !f.includes('.spec.') && !f.includes('test-kit'))) {
      const source = readFileSync(join(dir, name), 'utf8');
      // t('a.b'), t(cond ? 'a.b' : 'c.d'); keys of other namespaces ('core:…') are not ours.
      for (const m of source.matchAll(/\bt\(([^()]*?)[,)]/g)) {
        for (const k of m[1].matchAll(/'([\w-]+(?:\.[\w-]+)+)'/g)) used.add(k[1]);
      }
    }
    const missing = [...used].filter((k) => !present(en as Messages, k) || !present(de as Messages, k));
    assert.deepEqual(missing, []);
    assert.ok(used.size > 100, `found the keys in use (${used.size})`);
  });

  it('has the same keys in German and English', () => {
    assert.deepEqual(keys(de as Messages).sort(), keys(en as Messages).sort());
  });
});
