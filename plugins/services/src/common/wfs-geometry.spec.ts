import assert from 'node:assert/strict';
import { boxPolygon, envelopeOf, intersects, type Geometry } from './wfs-geometry';

const square: Geometry = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ],
    [
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
      [4, 4],
    ],
  ],
};

describe('services: WFS geometry tests (Intersects, BBOX)', () => {
  it('finds points inside a polygon, on its edge, and not in its hole', () => {
    assert.equal(intersects({ type: 'Point', coordinates: [2, 2] }, square), true);
    assert.equal(intersects({ type: 'Point', coordinates: [10, 5] }, square), true, 'on the edge');
    assert.equal(intersects({ type: 'Point', coordinates: [5, 5] }, square), false, 'in the hole');
    assert.equal(intersects({ type: 'Point', coordinates: [11, 5] }, square), false);
  });

  it('finds lines crossing, touching or inside, and polygons inside each other', () => {
    assert.equal(
      intersects(
        {
          type: 'LineString',
          coordinates: [
            [-5, 5],
            [15, 5],
          ],
        },
        square,
      ),
      true,
      'crossing',
    );
    assert.equal(
      intersects(
        {
          type: 'LineString',
          coordinates: [
            [4.5, 4.5],
            [5.5, 5.5],
          ],
        },
        square,
      ),
      false,
      'inside the hole',
    );
    assert.equal(
      intersects(
        {
          type: 'LineString',
          coordinates: [
            [1, 1],
            [2, 2],
          ],
        },
        square,
      ),
      true,
      'inside',
    );
    assert.equal(intersects(boxPolygon([-20, -20, 20, 20]), square), true, 'around it');
    assert.equal(intersects(square, boxPolygon([1, 1, 2, 2])), true, 'within it');
    assert.equal(intersects(square, boxPolygon([11, 11, 12, 12])), false);
    assert.equal(
      intersects(
        {
          type: 'MultiPoint',
          coordinates: [
            [20, 20],
            [1, 9],
          ],
        },
        { type: 'GeometryCollection', geometries: [square] },
      ),
      true,
    );
    assert.equal(intersects(null, square), false);
  });

  it('gives envelopes, and densified boxes that keep their corners', () => {
    assert.deepEqual(envelopeOf(square), [0, 0, 10, 10]);
    assert.equal(envelopeOf({ type: 'Point', coordinates: [] }), undefined);
    const ring = (boxPolygon([0, 0, 4, 2], 4).coordinates as number[][][])[0];
    assert.equal(ring.length, 17);
    assert.deepEqual(envelopeOf(boxPolygon([0, 0, 4, 2], 4)), [0, 0, 4, 2]);
  });
});
