import assert from 'node:assert/strict';
import { missingTexts, usedTextKeys } from '@werkbank/testing/browser';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

/** Keys built at run time from a stage or a status; every value they can take. */
const DYNAMIC = [
  ...['input', 'progress', 'result'].map((s) => `run.stage_${s}`),
  ...['initialized', 'waiting', 'started', 'success', 'failure', 'cancelled'].map((s) => `run.status_${s}`),
];

describe('workflow texts', () => {
  it('has every key the workflow screens use, in German and English', () => {
    const used = new Set([...DYNAMIC, ...usedTextKeys(import.meta.dirname)]);
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 60, `found the keys in use (${used.size})`);
  });
});
