import assert from 'node:assert/strict';
import { missingTexts, textKeys, usedTextKeys } from '@werkbank/testing/browser';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

describe('switchboards function library: texts', () => {
  it('has every key the library uses, in German and English', () => {
    // 'library.count' is used with plural forms (count_one, count_other).
    const used = new Set(
      [...usedTextKeys(import.meta.dirname)].flatMap((k) =>
        k === 'library.count' ? ['library.count_one', 'library.count_other'] : [k],
      ),
    );
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 20, `found the keys in use (${used.size})`);
  });

  it('has the same keys in German and English', () => {
    assert.deepEqual(textKeys(de).sort(), textKeys(en).sort());
  });
});
