import assert from 'node:assert/strict';
import { FeaturePacker, styleAttributes, unpack } from './packed-features';

describe('WMS packed features', () => {
  it('packs every geometry type and gives back its positions, parts and the style’s properties', () => {
    const packer = new FeaturePacker(['a']);
    packer.add({ type: 'Point', coordinates: [1, 2] }, { a: 1, b: 2 });
    packer.add(
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [2, 2],
            [3, 3],
            [4, 4],
          ],
        ],
      },
      { a: 'x' },
    );
    packer.add(
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 0],
          ],
          [
            [1, 1],
            [2, 1],
            [1, 2],
            [1, 1],
          ],
        ],
      },
      null,
    );
    packer.add({ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [5, 5] }] }, { a: null });
    packer.add(null, { a: 2 });
    packer.add({ type: 'Point', coordinates: ['x', 1] }, {});
    const packed = structuredClone(packer.finish());
    const out = [...unpack(packed, (x, y) => [x * 10, y * 10])];
    assert.equal(out.length, 6);
    assert.deepEqual(out[0], {
      geometry: { type: 'Point' },
      properties: { a: 1 },
      parts: { points: [[10, 20]], lines: [], polygons: [] },
    });
    assert.deepEqual(out[1].parts.lines, [
      [
        [0, 0],
        [10, 10],
      ],
      [
        [20, 20],
        [30, 30],
        [40, 40],
      ],
    ]);
    assert.deepEqual(
      out[2].parts.polygons[0].map((ring) => ring.length),
      [4, 4],
    );
    assert.deepEqual(out[2].properties, {});
    assert.equal(out[3].geometry?.type, 'GeometryCollection');
    assert.deepEqual(out[3].parts.points, [[50, 50]]);
    assert.deepEqual(out[3].properties, { a: null });
    assert.equal(out[4].geometry, null);
    assert.deepEqual(out[5].parts.points, [], 'a position that is not two numbers is dropped');
  });

  it('names the properties a style reads: filter attributes and label fields', () => {
    assert.deepEqual(
      styleAttributes({
        rules: [
          {
            filter: {
              op: 'and',
              filters: [
                { op: '==', attribute: 'k', value: 1 },
                { op: 'not', filter: { op: '<', attribute: 'h', value: 2 } },
              ],
            },
            symbol: { symbol_type: 'style' },
          },
          { symbol: { symbol_type: 'style', text_label: 'name' } },
        ],
      }).sort(),
      ['h', 'k', 'name'],
    );
  });
});
