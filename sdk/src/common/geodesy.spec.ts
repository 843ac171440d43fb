import assert from 'node:assert/strict';
import { pathLength, ringArea, utm32Of } from './geodesy';

describe('geodesy: measures on WGS 84 and UTM zone 32', () => {
  it('measures the geodesic length of a path and the area of a ring', () => {
    // One degree of longitude on the equator: 111,319.49 m on WGS 84.
    assert.ok(
      Math.abs(
        pathLength([
          [0, 0],
          [1, 0],
        ]) - 111_319.49,
      ) < 0.01,
    );
    // A 1° × 1° cell at the equator: about 12,308 km².
    assert.ok(
      Math.abs(
        ringArea([
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ]) /
          1e6 -
          12_308.78,
      ) < 1,
    );
  });

  it('gives EPSG:25832 coordinates as cs2cs does (Cologne cathedral: cs2cs EPSG:4326 EPSG:25832)', () => {
    const [e, n] = utm32Of(6.958, 50.941);
    assert.ok(Math.abs(e - 356_538.26) < 0.01, String(e));
    assert.ok(Math.abs(n - 5_645_249.36) < 0.01, String(n));
  });
});
