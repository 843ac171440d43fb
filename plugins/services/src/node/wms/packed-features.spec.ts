import assert from 'node:assert/strict';
import { FeaturePacker, PackedReader, selectWindow, styleAttributes, unpack } from './packed-features';

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

  it('picks a window’s features by their extent, edges included, in order, with their structure, coordinates and properties', () => {
    const packer = new FeaturePacker(['n']);
    const square = (x: number, y: number) => ({
      type: 'Polygon',
      coordinates: [
        [
          [x, y],
          [x + 1, y],
          [x + 1, y + 1],
          [x, y],
        ],
      ],
    });
    packer.add(square(0, 0), { n: 0 }, [0, 0, 1, 1]);
    packer.add({ type: 'Point', coordinates: [5, 5] }, { n: 1 }, [5, 5, 5, 5]);
    packer.add(null, { n: 2 }, null);
    packer.add({ type: 'GeometryCollection', geometries: [square(6, 6)] }, { n: 3 }, [6, 6, 7, 7]);
    packer.add(square(10, 10), { n: 4 }, [10, 10, 11, 11]);
    const indexed = packer.finishIndexed();
    assert.equal(selectWindow(indexed, [-180, -90, 180, 90]).count, 4, 'a feature without geometry is in no window');
    const all = new FeaturePacker([]);
    all.add(square(0, 0), null, [0, 0, 1, 1]);
    const whole = all.finishIndexed();
    assert.equal(selectWindow(whole, [0, 0, 1, 1]), whole.packed, 'every feature: the arrays themselves');
    const picked = selectWindow(indexed, [1, 1, 6, 6]);
    assert.equal(picked.count, 3);
    const out = [...unpack(picked, (x, y) => [x, y])];
    assert.deepEqual(
      out.map((f) => f.properties.n),
      [0, 1, 3],
    );
    assert.deepEqual(out[0].parts.polygons, [
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    ]);
    assert.deepEqual(out[1].parts.points, [[5, 5]]);
    assert.equal(out[2].geometry?.type, 'GeometryCollection');
    assert.equal(selectWindow(indexed, [20, 20, 30, 30]).count, 0);
  });

  it('reads features one by one: style keys alike exactly when type and values are, polygons traced in pixels', () => {
    const packer = new FeaturePacker(['k']);
    const poly = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [2, 0],
            [2, 2],
            [0, 0],
          ],
          [[9, 9]],
        ],
        [
          [
            [3, 3],
            [4, 3],
            [4, 4],
            [3, 3],
          ],
        ],
      ],
    };
    packer.add(poly, { k: 1 });
    packer.add({ type: 'Point', coordinates: [1, 1] }, { k: 1 });
    packer.add(poly, { k: 1 });
    packer.add(poly, { k: '1' });
    packer.add(poly, {});
    packer.add(poly, { k: null });
    packer.add({ type: 'GeometryCollection', geometries: [] }, { k: 1 });
    const reader = new PackedReader(packer.finish());
    const keys: Array<string | null> = [];
    const traced: string[][] = [];
    for (; reader.index < reader.packed.count; reader.next()) {
      keys.push(reader.styleKey());
      if (reader.type() !== 'MultiPolygon') continue;
      const calls: string[] = [];
      const g = {
        moveTo: (x: number, y: number) => calls.push(`M${x},${y}`),
        lineTo: (x: number, y: number) => calls.push(`L${x},${y}`),
        closePath: () => calls.push('Z'),
      };
      reader.eachPolygon(g, 0, 10, 10, 10, (trace) => {
        calls.push('begin');
        trace();
      });
      traced.push(calls);
    }
    assert.equal(keys[0], keys[2]);
    assert.equal(new Set(keys.slice(0, 6)).size, 5, 'type, value, its type, missing and null all count');
    assert.equal(keys[6], null, 'a collection is evaluated by itself');
    // A ring of one position is skipped, as the renderer's tracePath does.
    const first = ['begin', 'M0,100', 'L20,100', 'L20,80', 'L0,100', 'Z', 'begin', 'M30,70', 'L40,70', 'L40,60', 'L30,70', 'Z'];
    assert.deepEqual(traced, [first, first, first, first, first]);
  });
});
