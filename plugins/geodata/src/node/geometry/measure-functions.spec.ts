import assert from 'node:assert/strict';
import type { Point, Polygon } from 'geojson';
import { fakeRunContext } from '@werkbank/testing/node';
import { failsWith, feat, features, pt, run, square, values } from './geometry-test-helpers';

describe('geodata geometry: buffer, centroid, simplify', () => {
  it('buffers a point by metres by default and keeps its properties', async () => {
    const [f] = await features('geometry.buffer', { features: [pt(7, 50, { name: 'A' })], distance: values(100) });
    assert.equal(f.geometry.type, 'Polygon');
    assert.deepEqual(f.properties, { name: 'A' });
    const ring = (f.geometry as Polygon).coordinates[0];
    // 100 m north of 50° N is about 0.0009°
    const north = Math.max(...ring.map((c) => c[1]));
    assert.ok(Math.abs(north - 50 - 0.0009) < 0.00005, String(north));
  });

  it('keeps the feature id and drops a bbox the new geometry would make stale', async () => {
    const withId = { feature: { ...pt(7, 50).feature, id: 'haus-1', bbox: [7, 50, 7, 50] } };
    const [f] = await features('geometry.buffer', { features: [withId], distance: values(10) });
    assert.equal(f.id, 'haus-1');
    assert.equal(f.bbox, undefined);
  });

  it('buffers in kilometres and refuses an unknown unit or a missing distance', async () => {
    const [f] = await features('geometry.buffer', { features: [pt(0, 0)], distance: values(1), unit: values('kilometers') });
    const north = Math.max(...(f.geometry as Polygon).coordinates[0].map((c) => c[1]));
    assert.ok(Math.abs(north - 0.009) < 0.0002, String(north));
    await assert.rejects(
      run('geometry.buffer', { features: [pt(0, 0)], distance: values(1), unit: values('parsecs') }),
      failsWith('invalid_unit'),
    );
    await assert.rejects(run('geometry.buffer', { features: [pt(0, 0)] }), failsWith('parameter_missing', { port: 'distance' }));
  });

  it('names the feature without geometry', async () => {
    await assert.rejects(
      run('geometry.buffer', { features: [pt(0, 0), feat(null)], distance: values(5) }),
      failsWith('no_geometry', { item: 'features[1]' }),
    );
    await assert.rejects(
      run('geometry.centroid', { features: [{ value: 3 }] }),
      failsWith('not_a_feature', { item: 'features[0]' }),
    );
  });

  it('names the feature with malformed coordinates instead of computing nonsense', async () => {
    const broken = [
      feat({ type: 'Point', coordinates: ['7', 50] } as never),
      feat({
        type: 'Polygon',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      } as never),
      feat({ type: 'Curve', coordinates: [0, 0] } as never),
    ];
    for (const f of broken) {
      await assert.rejects(
        run('geometry.bbox', { features: [pt(0, 0), f] }),
        failsWith('malformed_geometry', { item: 'features[1]' }),
      );
    }
  });

  it('turns every feature into its centroid point, keeping properties', async () => {
    const out = await features('geometry.centroid', { features: [square(0, 0, 2, { id: 1 }), pt(5, 5)] });
    assert.deepEqual((out[0].geometry as Point).coordinates, [1, 1]);
    assert.deepEqual(out[0].properties, { id: 1 });
    assert.deepEqual((out[1].geometry as Point).coordinates, [5, 5]);
  });

  it('simplifies a line, dropping the vertex within the tolerance', async () => {
    const line = feat(
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 0.00001],
          [2, 0],
        ],
      },
      { k: 'v' },
    );
    const [f] = await features('geometry.simplify', { features: [line], tolerance: values(0.001), high_quality: values(true) });
    assert.deepEqual(f.geometry, {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [2, 0],
      ],
    });
    assert.deepEqual(f.properties, { k: 'v' });
    await assert.rejects(run('geometry.simplify', { features: [line], tolerance: values(-1) }), failsWith('negative_tolerance'));
  });

  it('reports progress and stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    await run('geometry.centroid', { features: Array.from({ length: 1200 }, (_, i) => pt(i, 0)) }, ctx);
    assert.ok(ctx.progresses.length >= 2 && ctx.progresses.at(-1) === 1);
    const aborted = fakeRunContext();
    aborted.controller.abort(new Error('stopped'));
    await assert.rejects(run('geometry.centroid', { features: [pt(0, 0)] }, aborted), /stopped/);
  });
});

describe('geodata geometry: bbox, area, length', () => {
  it('gives one bbox around all features, none for no features', async () => {
    const out = await run('geometry.bbox', { features: [square(0, 0, 1), pt(5, -2)] });
    assert.deepEqual(out.bbox, [{ value: [0, -2, 5, 1] }]);
    assert.deepEqual((await run('geometry.bbox', { features: [] })).bbox, []);
    await assert.rejects(run('geometry.bbox', { features: [feat(null)] }), failsWith('no_geometry', { item: 'features[0]' }));
  });

  it('measures geodesic area in m², 0 for points', async () => {
    // 0.01° × 0.01° at the equator is about 1113 m × 1106 m
    const out = (await run('geometry.area', { features: [square(0, 0, 0.01), pt(1, 1)] })).area.map((i) => i.value as number);
    assert.ok(Math.abs(out[0] - 1_231_000) < 10_000, String(out[0]));
    assert.equal(out[1], 0);
  });

  it('measures geodesic length in m on the ellipsoid', async () => {
    const line = feat({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [0, 1],
      ],
    });
    const [len] = (await run('geometry.length', { features: [line] })).length.map((i) => i.value as number);
    // one degree of latitude at the equator on WGS 84 (geod: 110574.389 m); a sphere gives 111195 m
    assert.ok(Math.abs(len - 110_574.389) < 0.01, String(len));
    await assert.rejects(
      run('geometry.length', { features: [line, feat(null)] }),
      failsWith('no_geometry', { item: 'features[1]' }),
    );
  });
});
