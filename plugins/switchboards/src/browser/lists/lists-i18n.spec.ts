import assert from 'node:assert/strict';
import { missingTexts, textKeys, usedTextKeys } from '@werkbank/testing/browser';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { RECURRENCE_FREQUENCIES, RECURRENCE_WEEKDAYS } from '../../common/recurrence';

/** Keys built at run time from a status, a frequency, a weekday, a month or a recurrence error. */
const DYNAMIC = [
  ...['initialized', 'started', 'success', 'failure', 'cancelled'].map((s) => `status.${s}`),
  ...RECURRENCE_FREQUENCIES.flatMap((f) => [`recurrence.freq_${f}`, `recurrence.unit_${f}`]),
  ...RECURRENCE_WEEKDAYS.map((d) => `recurrence.weekday_${d}`),
  ...Array.from({ length: 12 }, (_, i) => `recurrence.month_${i + 1}`),
  ...['invalid', 'unsupported', 'freq', 'interval', 'weekday', 'month', 'monthday', 'hour', 'minute'].map(
    (k) => `errors.recurrence.${k}`,
  ),
  'datum.use_in_switchboard',
];

describe('switchboard list texts (sb-lists)', () => {
  it('has every key the screens use, in German and English', () => {
    const used = new Set([...DYNAMIC, ...usedTextKeys(import.meta.dirname)]);
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 100, `found the keys in use (${used.size})`);
  });

  it('has the same keys in both languages', () => {
    assert.deepEqual(textKeys(de).sort(), textKeys(en).sort());
  });
});
