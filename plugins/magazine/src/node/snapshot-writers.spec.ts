import assert from 'node:assert/strict';
import type { VersionRow } from './datum-store';
import { geojsonChunks, ndjsonChunks } from './snapshot-writers';

/** The whole-depot stream writers (issue 15 item 3): valid JSON whatever the batches, the datum's index as feature id. */
describe('magazine: whole-depot stream writers', () => {
  const row = (datumId: number, data: Record<string, unknown>) => ({ datum_id: datumId, data }) as unknown as VersionRow;
  const point = { type: 'Point', coordinates: [7, 51] };
  async function* batches(...list: VersionRow[][]) {
    yield* list;
  }
  const text = async (chunks: AsyncIterable<string>) => {
    let out = '';
    for await (const chunk of chunks) out += chunk;
    return out;
  };

  it('gives each feature its own id, or the datum index when it has none (also for an id of null or a datum without feature)', async () => {
    const rows = [
      row(11, { feature: { type: 'Feature', id: 'a-7', geometry: point, properties: { name: 'own' } } }),
      row(12, { feature: { type: 'Feature', id: 0, geometry: point, properties: {} } }),
      row(13, { feature: { type: 'Feature', geometry: point, properties: { name: 'none' } } }),
      row(14, { feature: { type: 'Feature', id: null, geometry: null, properties: null } }),
      row(15, {}),
    ];
    const collection = JSON.parse(await text(geojsonChunks(batches(rows)))) as { type: string; features: unknown[] };
    assert.equal(collection.type, 'FeatureCollection');
    assert.deepEqual(collection.features, [
      { type: 'Feature', id: 'a-7', geometry: point, properties: { name: 'own' } },
      { type: 'Feature', id: 0, geometry: point, properties: {} },
      { type: 'Feature', id: 13, geometry: point, properties: { name: 'none' } },
      { type: 'Feature', id: 14, geometry: null, properties: null },
      { type: 'Feature', id: 15, geometry: null, properties: null },
    ]);
  });

  it('writes one valid FeatureCollection whatever batches come, empty ones first, between and last, or none', async () => {
    const feature = (id: number) => row(id, { feature: { type: 'Feature', geometry: point, properties: { n: id } } });
    const out = await text(geojsonChunks(batches([], [feature(1), feature(2)], [], [feature(3)], [])));
    const ids = (JSON.parse(out) as { features: Array<{ id: number }> }).features.map((f) => f.id);
    assert.deepEqual(ids, [1, 2, 3]);
    assert.deepEqual(JSON.parse(await text(geojsonChunks(batches()))), { type: 'FeatureCollection', features: [] });
    assert.deepEqual(JSON.parse(await text(geojsonChunks(batches([])))), { type: 'FeatureCollection', features: [] });
  });

  it('writes NDJSON as one line per datum, with no empty line for an empty batch', async () => {
    const json = (v: VersionRow) => ({ index: v.datum_id, value: v.data.value });
    const out = await text(
      ndjsonChunks(batches([], [row(1, { value: 'a' }), row(2, { value: 'b' })], [], [row(3, { value: 'c' })]), json),
    );
    assert.equal(out, '{"index":1,"value":"a"}\n{"index":2,"value":"b"}\n{"index":3,"value":"c"}\n');
    assert.equal(await text(ndjsonChunks(batches([]), json)), '');
  });
});
