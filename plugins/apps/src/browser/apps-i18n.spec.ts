import assert from 'node:assert/strict';
import { missingTexts, textKeys, usedTextKeys } from '@werkbank/testing/browser';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

/** The about page's texts (keys 'about.*'); the plurals are used through their base key. */
describe('apps: about page texts', () => {
  it('has every key the about page uses, in German and English', () => {
    const used = usedTextKeys(import.meta.dirname)
      .filter((k) => k.startsWith('about.'))
      .flatMap((k) => (k === 'about.third_party_intro' ? [`${k}_one`, `${k}_other`] : [k]));
    used.push('about.menu');
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.length > 20, `found the keys in use (${used.length})`);
  });

  it('has the same about keys in German and English', () => {
    assert.deepEqual(textKeys(de.about).sort(), textKeys(en.about).sort());
  });
});
