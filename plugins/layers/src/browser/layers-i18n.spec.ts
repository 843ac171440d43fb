import assert from 'node:assert/strict';
import { missingTexts, textKeys, usedTextKeys } from '@werkbank/testing/browser';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };
import { FILTER_TYPES, SELECTION_FIELD_TYPES } from '../common/selection-fields';

/** Keys built at run time: the selection field and filter types. */
const DYNAMIC = [...SELECTION_FIELD_TYPES.map((x) => `selection.types.${x}`), ...FILTER_TYPES.map((x) => `filter.types.${x}`)];

describe('layers texts', () => {
  it('has every key the screens use, in German and English', () => {
    const used = new Set([...DYNAMIC, ...usedTextKeys(import.meta.dirname)]);
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 100, `found the keys in use (${used.size})`);
  });

  it('has the same keys in both languages', () => {
    assert.deepEqual(textKeys(de).sort(), textKeys(en).sort());
  });
});
