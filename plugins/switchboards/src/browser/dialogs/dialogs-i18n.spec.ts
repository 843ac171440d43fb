import assert from 'node:assert/strict';
import { missingTexts, textKeys, usedTextKeys } from '@werkbank/testing/browser';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

/** Keys built at run time from a mode, a status or a refusal; every value they can take. */
const DYNAMIC = [
  ...['data', 'function', 'note'].map((m) => `insert.title_${m}`),
  ...['initialized', 'started', 'success', 'failure', 'cancelled'].map((s) => `status.${s}`),
  ...['initialized', 'waiting', 'started', 'success', 'failure', 'cancelled'].map((s) => `run_status.${s}`),
  ...['invalid', 'local_not_allowed', 'unsupported_scheme'].map((p) => `url.problem_${p}`),
];

describe('switchboards dialogs: texts', () => {
  it('has every key the dialogs use, in German and English', () => {
    const used = new Set([...DYNAMIC, ...usedTextKeys(import.meta.dirname)]);
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 100, `found the keys in use (${used.size})`);
  });

  it('has the same keys in German and English', () => {
    assert.deepEqual(textKeys(de).sort(), textKeys(en).sort());
  });
});
