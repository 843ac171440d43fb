import assert from 'node:assert/strict';
import { boxExtentOf, datumExtent, extentBox, locatedBase, unionExtent, windowBoxes } from './datum-extent';

const feature = (geometry: unknown) => ({ feature: { type: 'Feature', geometry, properties: {} } });

describe('magazine: datumExtent', () => {
  it('takes the positions of every feature geometry type', () => {
    assert.deepEqual(datumExtent('feature', feature({ type: 'Point', coordinates: [7.1, 50.7, 60] })), [7.1, 50.7, 7.1, 50.7]);
    assert.deepEqual(
      datumExtent(
        'feature',
        feature({
          type: 'LineString',
          coordinates: [
            [7, 50],
            [8, 51.5],
            [7.5, 49],
          ],
        }),
      ),
      [7, 49, 8, 51.5],
    );
    assert.deepEqual(
      datumExtent(
        'feature',
        feature({
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [1, 1],
                [2, 1],
                [2, 2],
                [1, 1],
              ],
            ],
            [
              [
                [-3, -4],
                [-2, -4],
                [-2, -3],
                [-3, -4],
              ],
            ],
          ],
        }),
      ),
      [-3, -4, 2, 2],
    );
    assert.deepEqual(
      datumExtent(
        'feature',
        feature({
          type: 'GeometryCollection',
          geometries: [
            { type: 'Point', coordinates: [10, 10] },
            {
              type: 'MultiPoint',
              coordinates: [
                [11, 9],
                [12, 12],
              ],
            },
          ],
        }),
      ),
      [10, 9, 12, 12],
    );
  });

  it('has none for empty or missing geometries', () => {
    assert.equal(datumExtent('feature', feature(null)), null);
    assert.equal(datumExtent('feature', feature({ type: 'Polygon', coordinates: [] })), null);
    assert.equal(datumExtent('feature', feature({ type: 'MultiPolygon', coordinates: [[[]]] })), null);
    assert.equal(datumExtent('feature', feature({ type: 'GeometryCollection', geometries: [] })), null);
    assert.equal(datumExtent('feature', feature({ type: 'Point', coordinates: [Number.NaN, 1] })), null);
    assert.equal(datumExtent('feature', {}), null);
    assert.equal(datumExtent('feature', null), null);
  });

  it('applies the rule of the nearest located base of a derived type', () => {
    const parcel = feature({ type: 'Point', coordinates: [1, 2] });
    assert.equal(datumExtent('parcel', parcel), null, 'a type name alone does not say it derives from feature');
    assert.deepEqual(datumExtent(['parcel', 'feature', 'object'], parcel), [1, 2, 1, 2]);
    assert.equal(locatedBase(['row', 'dict', 'object']), undefined);
    assert.equal(locatedBase(['parcel', 'feature', 'object']), 'feature');
  });

  it('reads every located core type', () => {
    assert.deepEqual(datumExtent('bbox', { value: [7, 50, 8, 51] }), [7, 50, 8, 51]);
    assert.deepEqual(datumExtent('bbox3d', { value: [7, 50, 8, 51, 0, 100] }), [7, 50, 8, 51]);
    assert.deepEqual(datumExtent('grid', { bbox: [7, 50, 8, 51], width: 256, height: 256 }), [7, 50, 8, 51]);
    assert.deepEqual(datumExtent('wms', { tms_url: '/w', bbox: [5, 47, 15, 55] }), [5, 47, 15, 55]);
    assert.deepEqual(datumExtent('wmts', { tms_url: '/w', bbox: [5, 47, 15, 55] }), [5, 47, 15, 55]);
    assert.deepEqual(datumExtent('pointcloud', { bbox3d: [7, 50, 8, 51, 0, 9], name: 'scan', pointcount: 1 }), [7, 50, 8, 51]);
    assert.deepEqual(
      datumExtent('billboard', { value: { image: '/pin.png', position: [7.1, 50.7, 12] } }),
      [7.1, 50.7, 7.1, 50.7],
    );
    assert.deepEqual(datumExtent('mesh', { value: 'house.glb', origin: [7.1, 50.7, 60] }), [7.1, 50.7, 7.1, 50.7]);
  });

  it('has none for types without a location and for positions that cannot be degrees', () => {
    for (const [type, data] of [
      ['string', { value: 'x' }],
      ['row', { value: { x: 7, y: 50 } }],
      ['file', { value: 'a.pdf', size: 1, mime_type: 'application/pdf' }],
      ['cityobject', { value: { type: 'Building' } }],
      ['mesh', { value: 'house.glb' }],
      ['mesh', { origin: [412000, 5650000, 60] }],
      ['billboard', { value: { image: '/pin.png', position: [7] } }],
      ['bbox', { value: [7, 50, 8] }],
      ['grid', { bbox: [7, 50, 'x', 51] }],
    ] as const) {
      assert.equal(datumExtent(type, data), null, `${type} ${JSON.stringify(data)}`);
    }
  });

  it('gives datums across the antimeridian the full longitude range, so every window finds them', () => {
    assert.deepEqual(datumExtent('bbox', { value: [170, -20, -170, -10] }), [-180, -20, 180, -10], 'west > east');
    assert.deepEqual(
      datumExtent('wms', { tms_url: '/w', bbox: [8, 51, 7, 50] }),
      [-180, 50, 180, 51],
      'south/north in any order',
    );
    assert.deepEqual(
      datumExtent(
        'feature',
        feature({
          type: 'LineString',
          coordinates: [
            [175, 0],
            [185, 1],
          ],
        }),
      ),
      [-180, 0, 180, 1],
      'positions beyond 180',
    );
    // RFC 7946 §3.1.9: cut in two at the antimeridian, the parts span all longitudes.
    assert.deepEqual(
      datumExtent(
        'feature',
        feature({
          type: 'MultiLineString',
          coordinates: [
            [
              [170, 0],
              [180, 1],
            ],
            [
              [-180, 1],
              [-170, 2],
            ],
          ],
        }),
      ),
      [-180, 0, 180, 2],
    );
  });

  it('converts to and from PostgreSQL boxes and unites extents', () => {
    assert.equal(extentBox([7, 50, 8, 51]), '(8,51),(7,50)');
    assert.equal(extentBox(null), null);
    assert.deepEqual(boxExtentOf('(8,51),(7,50)'), [7, 50, 8, 51]);
    assert.deepEqual(boxExtentOf('(7, 50),(8, 51)'), [7, 50, 8, 51]);
    assert.equal(boxExtentOf(null), null);
    assert.equal(boxExtentOf('nonsense'), null);
    assert.deepEqual(unionExtent([0, 0, 1, 1], [-1, 0.5, 0.5, 3]), [-1, 0, 1, 3]);
    assert.deepEqual(unionExtent(null, [0, 0, 1, 1]), [0, 0, 1, 1]);
    assert.equal(unionExtent(null, null), null);
  });

  it('splits a query window across the antimeridian into two boxes', () => {
    assert.deepEqual(windowBoxes([7, 50, 8, 51]), [[7, 50, 8, 51]]);
    assert.deepEqual(windowBoxes([170, -10, -170, 10]), [
      [170, -10, 180, 10],
      [-180, -10, -170, 10],
    ]);
    assert.equal(windowBoxes([7, 51, 8, 50]), null);
    assert.equal(windowBoxes([7, 50, 8]), null);
  });
});
