import assert from 'node:assert/strict';
import { missingTexts, usedTextKeys } from '@werkbank/testing/browser';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

/** Keys built at run time from a status or a refusal; every value they can take. */
const DYNAMIC = [
  ...['queued', 'uploading', 'success', 'failed'].map((s) => `upload.status_${s}`),
  ...['started', 'success', 'failure'].map((s) => `upload.batch_${s}`),
  ...['open', 'final', 'approved'].map((s) => `moment.status_${s}`),
  'upload.too_large',
  'upload.network',
];

describe('magazine texts', () => {
  it('has every key the screens use, in German and English', () => {
    const used = new Set([...DYNAMIC, ...usedTextKeys(import.meta.dirname)]);
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 80, `found the keys in use (${used.size})`);
  });
});
