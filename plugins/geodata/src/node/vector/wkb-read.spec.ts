import assert from 'node:assert/strict';
import { readWkb } from './wkb-read';
import { writeWkb } from './wkb-write';

/** WKB from hex (as PostGIS and GDAL print it). */
const hex = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex');

describe('WKB reader and writer', () => {
  it('reads big- and little-endian points, ISO Z, M and ZM codes and EWKB flags (M dropped, Z kept)', () => {
    assert.deepEqual(readWkb(hex('0101000000000000000000F03F0000000000000040')), { type: 'Point', coordinates: [1, 2] });
    assert.deepEqual(readWkb(hex('00000000013FF00000000000004000000000000000')), { type: 'Point', coordinates: [1, 2] });
    const xyzm = (code: number, n: number) => {
      const b = Buffer.alloc(5 + 8 * n);
      b.writeUInt8(1, 0);
      b.writeUInt32LE(code, 1);
      for (let i = 0; i < n; i++) b.writeDoubleLE(i + 1, 5 + 8 * i);
      return b;
    };
    assert.deepEqual(readWkb(xyzm(1001, 3)), { type: 'Point', coordinates: [1, 2, 3] });
    assert.deepEqual(readWkb(xyzm(2001, 3)), { type: 'Point', coordinates: [1, 2] });
    assert.deepEqual(readWkb(xyzm(3001, 4)), { type: 'Point', coordinates: [1, 2, 3] });
    assert.deepEqual(readWkb(xyzm(0x80000001, 3)), { type: 'Point', coordinates: [1, 2, 3] });
    assert.deepEqual(readWkb(xyzm(0xc0000001, 4)), { type: 'Point', coordinates: [1, 2, 3] });
    // POINT EMPTY is NaN, NaN.
    assert.equal(readWkb(hex('0101000000000000000000F87F000000000000F87F')), null);
  });

  it('writes and reads back every geometry type, with and without heights', () => {
    const geometries = [
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
          [2, 0],
        ],
      },
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
            [2, 2],
            [1, 1],
          ],
        ],
      },
      {
        type: 'MultiPoint',
        coordinates: [
          [1, 2, 3],
          [4, 5, 6],
        ],
      },
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
          ],
        ],
      },
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
          [
            [
              [5, 5],
              [6, 5],
              [6, 6],
              [5, 5],
            ],
          ],
        ],
      },
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          {
            type: 'GeometryCollection',
            geometries: [
              {
                type: 'LineString',
                coordinates: [
                  [0, 0],
                  [1, 1],
                ],
              },
            ],
          },
        ],
      },
    ];
    for (const g of geometries) assert.deepEqual(readWkb(writeWkb(g)), g, g.type);
  });

  it('refuses truncated WKB, unknown types, counts beyond the bytes, wrong parts and trailing bytes', () => {
    const line = writeWkb({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
    assert.throws(() => readWkb(line.subarray(0, line.length - 4)), /do not fit|ends after/);
    assert.throws(() => readWkb(hex('0109000000')), /unknown geometry type 9/);
    assert.throws(() => readWkb(hex('0102000000FFFFFF7F')), /do not fit/);
    assert.throws(
      () => readWkb(hex('0105000000010000000101000000000000000000F03F0000000000000040')),
      /MultiLineString holds a Point/,
    );
    assert.throws(() => readWkb(Buffer.concat([line, Buffer.from([0])])), /1 bytes after/);
    assert.throws(() => readWkb(hex('02')), /ends after|byte order/);
  });
});
