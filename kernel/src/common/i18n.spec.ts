import assert from 'node:assert/strict';
import { createI18n, languageFromHeader, missingTranslations, normaliseLanguage, type TranslationBundle } from './i18n';

const bundle = (namespace: string, de: TranslationBundle['de'], en: TranslationBundle['en']): TranslationBundle => ({
  id: `${namespace}.translations`,
  namespace,
  de,
  en,
});

describe('missingTranslations', () => {
  it('finds nothing when both languages have the same keys', () => {
    assert.deepEqual(missingTranslations([bundle('core', { save: 'Speichern' }, { save: 'Save' })]), []);
  });

  it('names each key missing in one language, with its namespace and nested path', () => {
    const missing = missingTranslations([
      bundle(
        'core',
        { save: 'Speichern', menu: { file: 'Datei', edit: 'Bearbeiten' } },
        { save: 'Save', menu: { file: 'File' } },
      ),
      bundle('maps', { zoom: 'Zoomen' }, { zoom: 'Zoom', layer: { title: 'Layer' } }),
    ]);
    assert.deepEqual(missing, ['core:menu.edit (missing in en)', 'maps:layer.title (missing in de)']);
  });
});

describe('languageFromHeader', () => {
  it('picks the supported language with the highest q', () => {
    assert.equal(languageFromHeader('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7'), 'en');
    assert.equal(languageFromHeader('en;q=0.5, de-DE;q=0.9'), 'de');
  });

  it('keeps header order between supported languages of equal q', () => {
    assert.equal(languageFromHeader('de, en'), 'de');
    assert.equal(languageFromHeader('EN-us, de'), 'en');
  });

  it('reads q when the header puts spaces around the semicolon', () => {
    assert.equal(languageFromHeader('de ; q=0.5, en; q=0.9'), 'en');
  });

  it('never picks a language the header marks as not acceptable (q=0)', () => {
    assert.equal(languageFromHeader('fr, en;q=0'), undefined);
    assert.equal(languageFromHeader('en;q=0, de;q=0.1'), 'de');
  });

  it('gives undefined for no header or no supported language', () => {
    assert.equal(languageFromHeader(undefined), undefined);
    assert.equal(languageFromHeader(''), undefined);
    assert.equal(languageFromHeader('fr, it;q=0.8'), undefined);
  });
});

describe('normaliseLanguage', () => {
  it('maps a supported language tag to its language and anything else to English', () => {
    assert.equal(normaliseLanguage('de-AT'), 'de');
    assert.equal(normaliseLanguage('EN'), 'en');
    assert.equal(normaliseLanguage('fr'), 'en');
    assert.equal(normaliseLanguage(undefined), 'en');
    assert.equal(normaliseLanguage(null), 'en');
  });
});

describe('createI18n', () => {
  it('translates from every bundle, merging bundles that share a namespace', () => {
    const i18n = createI18n(
      [bundle('core', { save: 'Speichern' }, { save: 'Save' }), bundle('core', { quit: 'Beenden' }, { quit: 'Quit' })],
      'de',
    );
    assert.equal(i18n.t('core:save'), 'Speichern');
    assert.equal(i18n.t('core:quit'), 'Beenden');
    assert.equal(i18n.getFixedT('en')('core:quit'), 'Quit');
  });
});
