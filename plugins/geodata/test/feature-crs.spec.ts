import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  bytesOf,
  contentOf,
  exceptionOf,
  expectStatus,
  frameUpload,
  GEODATA_PLUGINS,
  link,
  newSwitchboard,
  runAndWait,
  type Client,
  type Obj,
} from './geodata-test-support';

/** A 10 km × 10 km square in ETRS89 / UTM 32N (near Frankfurt), planar area 1e8 m². */
const SQUARE_25832 = [
  [
    [470000, 5550000],
    [480000, 5550000],
    [480000, 5560000],
    [470000, 5560000],
    [470000, 5550000],
  ],
];

/**
 * Features carry their CRS (issue 14 item 3, decision 0035): each case of the issue on data GDAL
 * wrote in EPSG:25832 — measured right or refused with a reason in the user's language.
 */
describe('geodata: features carry their coordinate reference system (issue 14 item 3)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let c: Client;
  let dir: string;
  let gpkg: Buffer;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'crs-'));
    const source = path.join(dir, 'quadrat.geojson');
    writeFileSync(
      source,
      JSON.stringify({
        type: 'FeatureCollection',
        crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } },
        features: [
          { type: 'Feature', properties: { name: 'Quadrat' }, geometry: { type: 'Polygon', coordinates: SQUARE_25832 } },
        ],
      }),
    );
    const target = path.join(dir, 'quadrat.gpkg');
    execFileSync('ogr2ogr', ['-f', 'GPKG', target, source, '-nln', 'quadrat', '-a_srs', 'EPSG:25832']);
    gpkg = readFileSync(target);
    t = await startTestServer({ plugins: GEODATA_PLUGINS });
    c = (await t.user()).client;
    expectStatus(await c.patch('/api/v2/backend/profile', { language: 'de' }), 200);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  /** A switchboard importing the GeoPackage (auto_transform as given) into a features frame. */
  async function imported(autoTransform: boolean): Promise<{ sb: Obj; features: Obj }> {
    const sb = await newSwitchboard(c);
    const file = await addFrame(c, sb, 'file');
    await frameUpload(c, file, 'quadrat.gpkg', gpkg);
    const imp = await addNode(c, sb, 'geopackage.import', { auto_transform: autoTransform });
    const features = await addFrame(c, sb, 'feature');
    await link(c, imp, 'file', file, true);
    await link(c, imp, 'features', features, false);
    return { sb, features };
  }

  /** Adds `func` reading `features` into a new frame of `type` at its output `out`. */
  async function then(sb: Obj, features: Obj, func: string, params: Record<string, unknown>, out: string, type: string) {
    const node = await addNode(c, sb, func, params);
    const result = await addFrame(c, sb, type);
    await link(c, node, 'features', features, true);
    await link(c, node, out, result, false);
    return { node, result };
  }

  it('labels features an import keeps in their CRS, and measures their geodesic area on WGS 84', async () => {
    const { sb, features } = await imported(false);
    const area = await then(sb, features, 'geometry.area', {}, 'area', 'float');
    const exec = await runAndWait(t, c, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [item] = await contentOf(c, features);
    assert.deepEqual(item.feature.crs, { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } });
    assert.deepEqual(item.feature.geometry.coordinates, SQUARE_25832);
    const [m2] = await contentOf(c, area.result);
    // UTM's scale (0.9996 at the central meridian) makes the true area about 0.06 % larger than the grid's 1e8 m².
    assert.ok(Math.abs(m2.value / 1e8 - 1) < 0.003, String(m2.value));
  });

  it('refuses to measure unlabelled coordinates that are no degrees, in the user’s language', async () => {
    const sb = await newSwitchboard(c);
    const features = await addFrame(c, sb, 'feature', [
      { feature: { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: SQUARE_25832 } } },
    ]);
    const area = await then(sb, features, 'geometry.area', {}, 'area', 'float');
    const exec = await runAndWait(t, c, sb);
    assert.equal(exec.status, 'failure');
    assert.match(await exceptionOf(c, area.node), /nennen kein Koordinatenreferenzsystem/);
  });

  it('buffers projected features in metres and keeps them in their CRS', async () => {
    const { sb, features } = await imported(false);
    const buffered = await then(sb, features, 'geometry.buffer', { distance: 100 }, 'features', 'feature');
    const exec = await runAndWait(t, c, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [item] = await contentOf(c, buffered.result);
    assert.equal(item.feature.crs.properties.name, 'urn:ogc:def:crs:EPSG::25832');
    const ring = item.feature.geometry.coordinates[0] as number[][];
    const xs = ring.map((p) => p[0]);
    const ys = ring.map((p) => p[1]);
    // 100 m on the ground are 99.96 m of the grid; within 1 m either way.
    for (const [got, want] of [
      [Math.min(...xs), 469900],
      [Math.max(...xs), 480100],
      [Math.min(...ys), 5549900],
      [Math.max(...ys), 5560100],
    ])
      assert.ok(Math.abs(got - want) < 1, `${got} ≠ ${want}`);
  });

  it('exports projected features as a GeoPackage GDAL reads in EPSG:25832', async () => {
    const { sb, features } = await imported(false);
    const exp = await then(sb, features, 'geopackage.export', {}, 'file', 'file');
    const exec = await runAndWait(t, c, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [file] = await contentOf(c, exp.result);
    const target = path.join(dir, 'export.gpkg');
    writeFileSync(target, await bytesOf(c, String(file.download_url)));
    const info = execFileSync('ogrinfo', ['-so', target, 'features'], { encoding: 'utf8' });
    assert.match(info, /ID\["EPSG",25832\]/);
    assert.match(info, /Extent: \(470000\.000000, 5550000\.000000\) - \(480000\.000000, 5560000\.000000\)/);
  });

  it('refuses to reproject from a CRS the data is not in, and reprojects from the one it is in', async () => {
    const wrong = await imported(true);
    const refused = await then(wrong.sb, wrong.features, 'geometry.reproject', { from: 'EPSG:25832' }, 'features', 'feature');
    assert.equal((await runAndWait(t, c, wrong.sb)).status, 'failure');
    assert.match(await exceptionOf(c, refused.node), /liegen in EPSG:4326 vor, nicht in EPSG:25832/);

    const right = await imported(true);
    const back = await then(right.sb, right.features, 'geometry.reproject', { to: 'EPSG:25832' }, 'features', 'feature');
    const exec = await runAndWait(t, c, right.sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [item] = await contentOf(c, back.result);
    assert.equal(item.feature.crs.properties.name, 'urn:ogc:def:crs:EPSG::25832');
    const ring = item.feature.geometry.coordinates[0] as number[][];
    ring.forEach(([x, y], i) => {
      assert.ok(Math.abs(x - SQUARE_25832[0][i][0]) < 0.001 && Math.abs(y - SQUARE_25832[0][i][1]) < 0.001, `${x}, ${y}`);
    });
  });

  it('stores only WGS 84 in depots: projected features are refused with the reason', async () => {
    const depot = expectStatus<Obj>(await c.post('/api/v1/depot/', { name: 'Quadrate', content_type: 'feature' }), 201);
    const { sb, features } = await imported(false);
    const store = await addNode(c, sb, 'depot.store');
    await link(c, store, 'datums', features, true);
    await link(c, store, 'depot', await addFrame(c, sb, 'depot', [{ value: depot.resource_uri }]), true);
    await link(c, store, 'moment', await addFrame(c, sb, 'int'), false);
    assert.equal((await runAndWait(t, c, sb)).status, 'failure');
    assert.match(
      await exceptionOf(c, store),
      /Depots speichern Features in WGS 84 \(EPSG:4326, wie GeoJSON\), diese liegen aber in EPSG:25832 vor/,
    );
  });
});
