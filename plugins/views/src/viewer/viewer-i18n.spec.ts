import assert from 'node:assert/strict';
import { startLanguage, VIEWER_TEXTS, viewerT } from './viewer-i18n';

describe('viewer texts', () => {
  it('has every text in English, German and French, with the same placeholders', () => {
    const keys = Object.keys(VIEWER_TEXTS.en).sort();
    for (const lang of ['de', 'fr'] as const) {
      assert.deepEqual(Object.keys(VIEWER_TEXTS[lang]).sort(), keys, lang);
      for (const key of keys) {
        const holes = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
        assert.deepEqual(holes(VIEWER_TEXTS[lang][key]), holes(VIEWER_TEXTS.en[key]), `${lang}.${key}`);
        assert.notEqual(VIEWER_TEXTS[lang][key].trim(), '', `${lang}.${key}`);
      }
    }
  });

  it('fills placeholders', () => {
    assert.equal(viewerT('de')('fly_to', { name: 'Dom' }), 'Zu Dom fliegen');
    assert.equal(viewerT('fr')('tour_running', { name: 'A', place: 'B', index: 1, count: 2 }), 'Visite A : B (1 sur 2)');
  });

  it('opens in the language of the address, else the browser’s first known one, else German', () => {
    assert.equal(startLanguage('?lang=fr', ['en-GB']), 'fr');
    assert.equal(startLanguage('?lang=xx', ['es', 'en-GB', 'de']), 'en');
    assert.equal(startLanguage('', ['es']), 'de');
  });
});
