import assert from 'node:assert/strict';
import { ApiError, type FrameItems } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { geojsonExport } from './geojson-export';
import { geojsonImport } from './geojson-import';

const noFiles = { open: async () => Promise.reject(ApiError.notFound()) };

describe('geojson.export', () => {
  it('writes features as one RFC 7946 FeatureCollection that geojson.import reads back unchanged', async () => {
    const features: FrameItems = [
      {
        feature: {
          type: 'Feature',
          id: 'a',
          geometry: { type: 'Point', coordinates: [13.4, 52.5] },
          properties: { name: 'Tür' },
        },
      },
      { feature: { type: 'Feature', geometry: null, properties: {} } },
    ];
    const out = await geojsonExport.run({ features }, fakeRunContext());
    const text = out.geojson[0].value as string;
    assert.deepEqual(JSON.parse(text), { type: 'FeatureCollection', features: features.map((f) => f.feature) });
    const back = await geojsonImport(noFiles).run({ text: [{ value: text }] }, fakeRunContext());
    assert.deepEqual(back.features, features);
  });

  it('writes an empty collection for no features and names the index of a broken feature', async () => {
    const out = await geojsonExport.run({ features: [] }, fakeRunContext());
    assert.deepEqual(JSON.parse(out.geojson[0].value as string), { type: 'FeatureCollection', features: [] });
    const broken: FrameItems = [
      { feature: { type: 'Feature', geometry: null, properties: {} } },
      { feature: { type: 'Feature', geometry: { type: 'Point', coordinates: ['x', 1] }, properties: {} } },
    ];
    await assert.rejects(geojsonExport.run({ features: broken }, fakeRunContext()), (e: ApiError) => {
      assert.equal(e.code, 'coordinates_invalid');
      assert.equal(e.params.index, 1);
      assert.equal(e.params.source, 'features');
      return true;
    });
  });

  it('outputs the same text as a downloadable file, named by the name setting', async () => {
    const features: FrameItems = [
      { feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [9.99, 53.55] }, properties: { ort: 'Hafen' } } },
    ];
    const ctx = fakeRunContext();
    const out = await geojsonExport.run({ features }, ctx);
    const [file] = out.file;
    assert.deepEqual([file.value, file.mime_type], ['features.geojson', 'application/geo+json']);
    const stored = ctx.files.get(String(file.stored_blob))!;
    assert.equal(stored.bytes.toString('utf8'), out.geojson[0].value);
    const named = await geojsonExport.run({ features, name: [{ value: 'hafen.geojson' }] }, ctx);
    assert.equal(named.file[0].value, 'hafen.geojson');
  });
});
