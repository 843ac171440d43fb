import assert from 'node:assert/strict';
import { savedTranslations } from './view-translations';

describe('views: which translation rows are saved', () => {
  it('keeps rows with a key and a non-blank value, only the three languages, the last row of a key', () => {
    assert.deepEqual(
      savedTranslations([
        { key: 'Stadtgrün', values: { de: '', en: 'Urban green', fr: ' ' } },
        { key: 'Bäume', values: { de: 'Bäume', en: '', it: 'Alberi' } },
        { key: '', values: { en: 'orphan' } },
        { key: '   ', values: { en: 'blank key' } },
        { key: 'Leer', values: { en: '  ' } },
        { key: 'Parks', values: {} },
        { key: 'Stadtgrün', values: { en: 'City green', fr: 'Verdure' } },
      ]),
      [
        { key: 'Stadtgrün', values: { en: 'City green', fr: 'Verdure' } },
        { key: 'Bäume', values: { de: 'Bäume' } },
      ],
    );
  });

  it('refuses what is not a list of rows with text', () => {
    for (const bad of [{}, 'x', [1], [{ key: 1, values: {} }], [{ key: 'a', values: [] }], [{ key: 'a', values: { en: 5 } }]])
      assert.equal(savedTranslations(bad), undefined, JSON.stringify(bad));
    assert.deepEqual(savedTranslations([]), []);
  });
});
