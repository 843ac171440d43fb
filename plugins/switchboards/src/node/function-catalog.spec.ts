import assert from 'node:assert/strict';
import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { searchFunctions } from './function-catalog';

const fn = (id: string, inputs: string[], outputs: string[], extra: Partial<FunctionDescriptor> = {}): FunctionDescriptor => ({
  id,
  verbose_name: { en: id, de: id },
  doc: { en: '', de: '' },
  inputs: inputs.map((t, i) => ({ name: `in${i}`, content_type: t })),
  outputs: outputs.map((t, i) => ({ name: `out${i}`, content_type: t })),
  run: async () => ({}),
  ...extra,
});

const bases: Record<string, string> = { int: 'number', float: 'number' };
const types = {
  isAssignable: (from: string, to: string) => to === 'any' || from === to || bases[from] === to,
};

const all = [
  fn('string.upper', ['string'], ['string'], { doc: { en: 'Capitals', de: 'Großbuchstaben' } }),
  fn('number.add', ['number', 'number'], ['number'], { verbose_name: { en: 'Add numbers', de: 'Zahlen addieren' } }),
  fn('number.round', ['number'], ['number']),
  fn('string.length', ['string'], ['int']),
  fn('str.len', ['string'], ['int'], { doc: { en: 'Number of characters', de: 'Anzahl der Zeichen' } }),
  fn('frame.count', ['any'], ['int']),
  fn('test.fail', [], [], { hidden: true }),
];
const ids = (q: Parameters<typeof searchFunctions>[1]) => searchFunctions(all, q, types).map((f) => f.id);

describe('function search (spec 000 §5)', () => {
  it('does not filter below two characters and hides hidden functions', () => {
    assert.deepEqual(ids({ q: 'x' }).length, 6);
    assert.ok(!ids({}).includes('test.fail'));
  });

  it('matches name, verbose name and doc case-insensitively in both languages', () => {
    assert.deepEqual(ids({ q: 'UPPER' }), ['string.upper']);
    assert.deepEqual(ids({ q: 'zahlen' }), ['number.add']);
    assert.deepEqual(ids({ q: 'großbuch' }), ['string.upper']);
  });

  it('includes hidden functions when the query ends with !', () => {
    assert.deepEqual(ids({ q: 'fail!' }), ['test.fail']);
    assert.deepEqual(ids({ q: 'fail' }), []);
    assert.ok(ids({ q: '!' }).includes('test.fail'));
  });

  it('filters by input and output type along the base chain and ranks exact matches first', () => {
    // int fits number ports (derived) and 'any' ports; none of them has an int input, so shorter names first.
    assert.deepEqual(ids({ input_type: 'int' }), ['number.add', 'frame.count', 'number.round']);
    assert.deepEqual(ids({ output_type: 'number' }), ['number.add', 'number.round', 'str.len', 'frame.count', 'string.length']);
    assert.deepEqual(ids({ input_type: 'string' }), ['str.len', 'string.upper', 'string.length', 'frame.count']);
  });

  it('ranks functions with a port of the queried type first, then shorter names', () => {
    // str.len matches by its doc and is the shortest, but has no number port.
    assert.deepEqual(ids({ q: 'number' }), ['number.add', 'number.round', 'str.len']);
    assert.deepEqual(ids({ q: 'NUMBER' }), ['number.add', 'number.round', 'str.len']);
  });

  it('filters by namespace and favourites', () => {
    assert.deepEqual(ids({ namespace: 'number' }), ['number.add', 'number.round']);
    assert.deepEqual(ids({ namespace: 'frame,string' }), ['frame.count', 'string.upper', 'string.length']);
    assert.deepEqual(ids({ onlyFavorites: true, favorites: new Set(['number.round']) }), ['number.round']);
  });

  it('ranks the name and the title first, then words of the title, then the description (issue 14 item 14)', () => {
    const geodata = [
      fn('file.download', [], ['file'], {
        verbose_name: { en: 'Download file', de: 'Datei herunterladen' },
        doc: { en: 'Downloads a file, e.g. a zipped shapefile.', de: 'Lädt eine Datei, z. B. ein gezipptes Shapefile.' },
      }),
      fn('shapefile.import', ['file'], ['feature'], { verbose_name: { en: 'Import Shapefile', de: 'Shapefile importieren' } }),
      fn('gml.import', ['file'], ['feature'], {
        verbose_name: { en: 'Import GML', de: 'GML importieren' },
        doc: { en: 'Reads GML; reproject the result when it is not in EPSG:4326.', de: 'Liest GML.' },
      }),
      fn('geometry.reproject', ['feature'], ['feature'], { verbose_name: { en: 'Reproject', de: 'Umprojizieren' } }),
      fn('raster.reprojection_grid', ['grid'], ['grid'], { verbose_name: { en: 'Grid for reprojecting', de: 'Raster' } }),
      fn('geo.transform', ['feature'], ['feature'], { verbose_name: { en: 'Transform and reproject', de: 'Transformieren' } }),
    ];
    const found = (q: string) => searchFunctions(geodata, { q }, types).map((f) => f.id);
    assert.deepEqual(found('shapefile'), ['shapefile.import', 'file.download']);
    assert.deepEqual(found('reproject'), ['geometry.reproject', 'raster.reprojection_grid', 'geo.transform', 'gml.import']);
    assert.deepEqual(found('umproj'), ['geometry.reproject']);
    // Among equals the rules of spec 000 §5 remain: a port of the queried type first, then shorter names.
    assert.deepEqual(found('import').slice(0, 2), ['gml.import', 'shapefile.import']);
  });
});
