import assert from 'node:assert/strict';
import { area } from '@turf/area';
import type { Feature, Polygon } from 'geojson';
import { fakeRunContext } from '@werkbank/testing/node';
import { failsWith, feat, features, pt, run, square, values } from './geometry-test-helpers';

const areaOf = (f: Feature) => area(f);
const unit = areaOf(square(0, 0, 1).feature as Feature);
const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) / expected < 0.01, `${actual} vs ${expected}`);

describe('geodata geometry: intersection, difference, union', () => {
  it('intersects each area of a with b, keeping a’s properties and dropping areas without overlap', async () => {
    const out = await features('geometry.intersection', {
      a: [square(0, 0, 2, { name: 'A' }), square(10, 10, 1, { name: 'far' })],
      b: [square(1, 1, 2), square(1, -1, 2)],
    });
    assert.equal(out.length, 1);
    assert.deepEqual(out[0].properties, { name: 'A' });
    near(areaOf(out[0]), 2 * unit);
  });

  it('cuts b out of each area of a; without b, a stays', async () => {
    const out = await features('geometry.difference', {
      a: [square(0, 0, 2, { n: 1 }), square(1, 1, 1)],
      b: [square(1, 0, 1), square(1, 1, 1)],
    });
    assert.equal(out.length, 1, 'the square covered by b vanishes');
    assert.deepEqual(out[0].properties, { n: 1 });
    near(areaOf(out[0]), 2 * unit);
    assert.equal((await features('geometry.difference', { a: [square(0, 0, 1)] })).length, 1);
  });

  it('merges a and b into one feature', async () => {
    const out = await features('geometry.union', { a: [square(0, 0, 1, { x: 1 })], b: [square(1, 0, 1), square(0, 1, 1)] });
    assert.equal(out.length, 1);
    assert.deepEqual(out[0].properties, {});
    near(areaOf(out[0]), 3 * unit);
    assert.deepEqual(await features('geometry.union', { a: [] }), []);
  });

  it('merges many areas chunk by chunk and stops when the run is aborted', async () => {
    const many = Array.from({ length: 250 }, (_, i) => square(i % 25, Math.floor(i / 25), 1));
    const [all] = await features('geometry.union', { a: many });
    const rect = feat({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [25, 0],
          [25, 10],
          [0, 10],
          [0, 0],
        ],
      ],
    });
    near(areaOf(all), areaOf(rect.feature as Feature));
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run('geometry.union', { a: many }, ctx), /stopped/);
  });

  it('reports rising progress around its computation, ending at 1', async () => {
    const ctx = fakeRunContext();
    const a = Array.from({ length: 1200 }, (_, i) => square(i * 0.001, 0, 0.0005));
    await run('geometry.intersection', { a, b: [square(0, 0, 0.5)] }, ctx);
    assert.ok(ctx.progresses.length >= 2, String(ctx.progresses));
    assert.deepEqual(
      [...ctx.progresses].sort((x, y) => x - y),
      ctx.progresses,
    );
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('refuses a non-polygon or a feature without geometry, naming the port and index', async () => {
    await assert.rejects(
      run('geometry.intersection', { a: [square(0, 0, 1)], b: [square(0, 0, 1), pt(0, 0)] }),
      failsWith('not_a_polygon', { item: 'b[1]', type: 'Point' }),
    );
    await assert.rejects(run('geometry.union', { a: [square(0, 0, 1), feat(null)] }), failsWith('no_geometry', { item: 'a[1]' }));
  });
});

describe('geodata geometry: dissolve, spatial join, clip', () => {
  it('dissolves by an attribute, one feature per value in first-seen order', async () => {
    const out = await features('geometry.dissolve', {
      features: [square(0, 0, 1, { k: 'x', o: 1 }), square(5, 5, 1, { k: 'y' }), square(1, 0, 1, { k: 'x' })],
      attribute: values('k'),
    });
    assert.deepEqual(
      out.map((f) => f.properties),
      [{ k: 'x' }, { k: 'y' }],
    );
    assert.equal(out[0].geometry.type, 'Polygon');
    near(areaOf(out[0]), 2 * unit);
    const all = await features('geometry.dissolve', { features: [square(0, 0, 1, { k: 'x' }), square(5, 5, 1, { k: 'y' })] });
    assert.equal(all.length, 1);
    assert.equal(all[0].geometry.type, 'MultiPolygon');
  });

  it('copies the containing polygon’s properties onto points; the point’s own win', async () => {
    const out = await features('geometry.spatial_join', {
      points: [pt(0.5, 0.5, { name: 'p', zone: 'own' }), pt(5, 5, { name: 'q' })],
      polygons: [square(0, 0, 1, { zone: 'Z1', city: 'Bonn' })],
    });
    assert.deepEqual(
      out.map((f) => f.properties),
      [{ zone: 'own', city: 'Bonn', name: 'p' }, { name: 'q' }],
    );
    const matched = await features('geometry.spatial_join', {
      points: [pt(0.5, 0.5), pt(5, 5)],
      polygons: [square(0, 0, 1, { zone: 'Z1' })],
      keep_unmatched: values(false),
    });
    assert.deepEqual(
      matched.map((f) => f.properties),
      [{ zone: 'Z1' }],
    );
  });

  it('refuses a line among the points and a point among the polygons', async () => {
    const line = feat({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
    await assert.rejects(
      run('geometry.spatial_join', { points: [pt(0, 0), line], polygons: [square(0, 0, 1)] }),
      failsWith('not_a_point', { item: 'points[1]' }),
    );
    await assert.rejects(
      run('geometry.spatial_join', { points: [pt(0, 0)], polygons: [pt(0, 0)] }),
      failsWith('not_a_polygon', { item: 'polygons[0]' }),
    );
  });

  it('clips to a bbox, keeping inside points and dropping what lies outside', async () => {
    const out = await features('geometry.clip_bbox', {
      features: [square(0, 0, 2, { a: 1 }), pt(0.5, 0.5), pt(9, 9), square(5, 5, 1)],
      bbox: values([0, 0, 1, 1]),
    });
    assert.equal(out.length, 2);
    assert.deepEqual(out[0].properties, { a: 1 });
    near(areaOf(out[0]), unit);
    assert.deepEqual(
      (out[0].geometry as Polygon).coordinates[0].every(([x, y]) => x <= 1 && y <= 1),
      true,
    );
    assert.equal(out[1].geometry.type, 'Point');
  });

  it('refuses a malformed bbox and names a feature without geometry', async () => {
    for (const bbox of [
      [0, 0, 1],
      [2, 0, 1, 1],
      ['a', 0, 1, 1],
    ]) {
      await assert.rejects(run('geometry.clip_bbox', { features: [pt(0, 0)], bbox: values(bbox) }), failsWith('invalid_bbox'));
    }
    await assert.rejects(
      run('geometry.clip_bbox', { features: [pt(0, 0), feat(null)], bbox: values([0, 0, 1, 1]) }),
      failsWith('no_geometry', { item: 'features[1]' }),
    );
  });
});

describe('geodata geometry: the CRS features carry (issue 14 item 3)', () => {
  const UTM = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } };
  const utm = (x: number, y: number, d: number) => ({ feature: { ...square(x, y, d).feature, crs: UTM } });

  it('keeps the CRS through overlays and merges, and refuses inputs in two CRSs', async () => {
    const [cut] = await features('geometry.intersection', { a: [utm(0, 0, 10)], b: [utm(5, 5, 10)] });
    assert.deepEqual((cut as { crs?: unknown }).crs, UTM);
    const [merged] = await features('geometry.union', { a: [utm(0, 0, 10), utm(5, 5, 10)] });
    assert.deepEqual((merged as { crs?: unknown }).crs, UTM);
    await assert.rejects(
      run('geometry.difference', { a: [utm(0, 0, 10)], b: [square(0, 0, 1)] }),
      failsWith('crs_differs', { a: 'a', crsA: 'EPSG:25832', b: 'b', crsB: 'EPSG:4326' }),
    );
  });

  it('measures labelled features on WGS 84 and refuses unlabelled ones that are no degrees', async () => {
    const [m2] = (await run('geometry.area', { features: [utm(470000, 5550000, 1000)] })).area;
    assert.ok(Math.abs((m2.value as number) / 1e6 - 1) < 0.003, String(m2.value));
    await assert.rejects(
      run('geometry.length', { features: [square(470000, 5550000, 1000)] }),
      failsWith('crs_missing', { port: 'features' }),
    );
  });
});
