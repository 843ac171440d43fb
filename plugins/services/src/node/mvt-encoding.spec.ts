import assert from 'node:assert/strict';
import GeoJSONVT from 'geojson-vt';
import vtpbf from 'vt-pbf';
import { encodeVectorTile, type TileFeature } from './mvt-encoding';

/** geojson-vt's tile 0/0/0 of the features, as the vector tile task cuts it. */
function tileOf(features: GeoJSON.Feature[]) {
  const index = new GeoJSONVT(
    { type: 'FeatureCollection', features },
    { maxZoom: 24, indexMaxZoom: 0, extent: 4096, buffer: 64 },
  );
  return index.getTile(0, 0, 0)!;
}

const square = (x: number, y: number, d: number): GeoJSON.Position[] => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];

describe('services: vector tile encoding', () => {
  it('writes the bytes vt-pbf writes: every geometry kind, ids, and values of every type, shared and distinct', () => {
    const features: GeoJSON.Feature[] = [
      { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [7, 51] }, properties: { name: 'Eiche', n: 1, f: 1.5 } },
      {
        type: 'Feature',
        id: 2,
        geometry: {
          type: 'MultiPoint',
          coordinates: [
            [7, 51],
            [8, 52],
          ],
        },
        properties: { name: 'Eiche', n: '1' },
      },
      {
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [10, 10],
            [20, 0],
          ],
        },
        properties: { neg: -5, big: 2 ** 40, negbig: -(2 ** 40), yes: true, no: false, text: 'Straße ☃ 🌳 \ud800 x' },
      },
      {
        type: 'Feature',
        id: 3,
        geometry: {
          type: 'MultiLineString',
          coordinates: [
            [
              [0, 0],
              [1, 1],
            ],
            [
              [2, 2],
              [3, 3],
            ],
          ],
        },
        properties: { o: '{"a":1}' },
      },
      {
        type: 'Feature',
        id: 2 ** 35,
        geometry: { type: 'Polygon', coordinates: [square(0, 0, 20), square(5, 5, 5).reverse()] },
        properties: { o: { a: 1 }, arr: [1, 'x'], zero: 0, nan: Number.NaN },
      },
      {
        type: 'Feature',
        geometry: { type: 'MultiPolygon', coordinates: [[square(-50, -50, 10)], [square(60, 40, 3)]] },
        properties: {},
      },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: null },
    ];
    const tile = tileOf(features);
    const expected = vtpbf.fromGeojsonVt({ trees: tile }, { version: 2, extent: 4096 });
    assert.deepEqual(encodeVectorTile('trees', tile.features as TileFeature[], 4096), new Uint8Array(expected));
  });

  it('writes the same bytes for a tile larger than its first buffer, with long messages and many distinct values', () => {
    const features: GeoJSON.Feature[] = [];
    for (let i = 0; i < 3000; i++)
      features.push({
        type: 'Feature',
        id: i,
        geometry: { type: 'Polygon', coordinates: [square(-170 + (i % 60) * 5.5, -70 + Math.floor(i / 60) * 2.7, 1.3)] },
        properties: { id: i, name: `fläche ${i}`, kind: ['wald', 'wiese'][i % 2], area: (i * 7919) / 100 },
      });
    // One line with enough points that its geometry message needs a length of three bytes.
    features.push({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: Array.from({ length: 20000 }, (_, i) => [-179 + (i % 2000) * 0.17, -80 + i * 0.008]),
      },
      properties: { long: 'x'.repeat(300) },
    });
    const tile = tileOf(features);
    const expected = vtpbf.fromGeojsonVt({ grid: tile }, { version: 2, extent: 4096 });
    assert.ok(expected.length > 64 * 1024);
    assert.deepEqual(encodeVectorTile('grid', tile.features as TileFeature[], 4096), new Uint8Array(expected));
  });
});
