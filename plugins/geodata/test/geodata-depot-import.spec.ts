import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus, userUri } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  get,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type Obj,
  type User,
} from '@werkbank/plugin-switchboards/testing';
import { frameUpload } from '@werkbank/plugin-switchboards/testing';
import { newDepot, type Datum, type Depot, type Moment } from '@werkbank/plugin-magazine/testing';

/** Rows of the CSV: more than two statements of the Magazine's bulk write (5,000), so the write spans several. */
const ROWS = 10_003;

/** `rows` points `x;y;name;n`, in EPSG:4326; row `broken` (from 0) gets a fifth column. */
function csvOf(rows: number, broken?: number): Buffer {
  const lines = ['x;y;name;n'];
  for (let i = 0; i < rows; i++) {
    const x = (6 + (i % 900) / 100).toFixed(2);
    const y = (48 + Math.floor(i / 900) / 100).toFixed(2);
    lines.push(i === broken ? `${x};${y};p${i};${i};zu viel` : `${x};${y};p${i};${i}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Two features in ETRS89 / UTM 32N with a crs member, as ogr2ogr writes GeoJSON. */
const GEOJSON = JSON.stringify({
  type: 'FeatureCollection',
  name: 'orte',
  crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } },
  features: [
    { type: 'Feature', properties: { name: 'Hamburg' }, geometry: { type: 'Point', coordinates: [566000.25, 5934000.5] } },
    { type: 'Feature', properties: { name: 'München' }, geometry: { type: 'Point', coordinates: [691000.5, 5335000.25] } },
  ],
});

/** The same points in WGS 84, from `cs2cs -f %.10f EPSG:25832 EPSG:4326` (as in geodata-pipeline.spec.ts). */
const WGS84 = [
  [9.9961955527, 53.5507425922],
  [11.5675080556, 48.1395604468],
];

/** depot.import_file on uploaded files: a switchboard streams them into a depot of features (decision 0020). */
describe('geodata: depot.import_file streams uploaded CSV and GeoJSON into a depot', function () {
  this.timeout(120_000);
  let t: TestServer;
  let alice: User;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    alice = await t.user();
  });
  after(() => t?.close());

  /** A switchboard: the uploaded file → depot.import_file (with `ports`) → a frame with the moment. */
  async function importing(
    user: User,
    depot: Depot,
    name: string,
    bytes: Buffer,
    ports: Array<{ name: string; default_value: unknown }> = [],
  ) {
    const c = user.client;
    const sb = await newSwitchboard(c);
    const file = await addFrame(c, sb, 'file');
    expectStatus(await frameUpload(c, file.id, name, bytes), 201);
    const moment = await addFrame(c, sb, 'int');
    const node = await addNode(c, sb, 'depot.import_file', [
      { name: 'depot', default_value: { value: depot.resource_uri } },
      ...ports,
    ]);
    await link(c, node, 'file', file, true);
    await link(c, node, 'moment', moment, false);
    const exec = await runAndWait(t, c, sb);
    return { node, moment, exec };
  }

  const depotNow = async (depot: Depot) => expectStatus<Depot>(await alice.client.get(depot.resource_uri), 200);
  const momentOf = async (id: number) =>
    expectStatus<Moment & { node_run: number | null }>(await alice.client.get(`/api/v1/moment/${id}/`), 200);
  const written = async (frame: Obj) =>
    expectStatus<{ objects: Array<{ value: number }> }>(await alice.client.get(`/api/v1/frame/${frame.id}/content/`), 200)
      .objects[0].value;
  const page = async (depot: Depot, query: string) =>
    expectStatus<{ objects: Datum[] }>(await alice.client.get(`/api/v1/datum/by-depot/${depot.id}/?${query}`), 200).objects;

  it('imports a CSV of more than two batches into one moment, in order, and reads it back', async () => {
    const depot = await newDepot(alice.client, 'feature');
    const { moment, exec } = await importing(alice, depot, 'punkte.csv', csvOf(ROWS));
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const id = await written(moment);
    const m = await momentOf(id);
    assert.equal(m.origin, 'switchboard');
    assert.equal(m.status, 'final');
    assert.equal(m.size, ROWS);
    assert.ok(m.node_run, 'the moment names the node run');
    const now = await depotNow(depot);
    assert.equal(now.current_moment?.id, id);
    assert.equal(now.moments.length, 1, 'one moment for the whole file');

    const first = await page(depot, 'limit=2');
    assert.deepEqual(first[0].feature, {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [6, 48] },
      properties: { name: 'p0', n: 0 },
    });
    const last = await page(depot, `offset=${ROWS - 1}&limit=5`);
    assert.equal(last.length, 1);
    assert.deepEqual((last[0].feature as { properties: unknown }).properties, { name: `p${ROWS - 1}`, n: ROWS - 1 });
  });

  it('imports 100,000 CSV rows into one moment (issue 15: bulk writes) and reads the last ones back', async () => {
    const rows = 100_000;
    const depot = await newDepot(alice.client, 'feature');
    const { moment, exec } = await importing(alice, depot, 'gross.csv', csvOf(rows));
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const m = await momentOf(await written(moment));
    assert.equal(m.size, rows);
    assert.equal(m.status, 'final');
    const now = await depotNow(depot);
    assert.equal(now.size, rows);
    assert.equal(now.moments.length, 1);
    const last = await page(depot, `offset=${rows - 2}&limit=5`);
    assert.deepEqual(
      last.map((d) => (d.feature as { properties: unknown }).properties),
      [
        { name: `p${rows - 2}`, n: rows - 2 },
        { name: `p${rows - 1}`, n: rows - 1 },
      ],
    );
    const [{ n }] = (await t.server.db.dataSource.query(
      `SELECT count(*)::int AS n FROM magazine_datum_version WHERE depot_id = $1 AND valid_from = $2`,
      [depot.id, m.id],
    )) as Array<{ n: number }>;
    assert.equal(n, rows, 'one version per row, all of the moment');
  });

  it('imports an uploaded GeoJSON, reprojected from its crs member to WGS 84', async () => {
    const depot = await newDepot(alice.client, 'feature');
    const { exec } = await importing(alice, depot, 'orte.geojson', Buffer.from(GEOJSON));
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const datums = await page(depot, 'limit=10');
    assert.deepEqual(
      datums.map((d) => (d.feature as { properties: { name: string } }).properties.name),
      ['Hamburg', 'München'],
    );
    datums.forEach((d, i) => {
      const [lon, lat] = (d.feature as { geometry: { coordinates: number[] } }).geometry.coordinates;
      assert.ok(Math.abs(lon - WGS84[i][0]) < 1e-8 && Math.abs(lat - WGS84[i][1]) < 1e-8, `${lon}, ${lat}`);
    });
  });

  it('leaves the depot unchanged when a row in a later batch is broken', async () => {
    const depot = await newDepot(alice.client, 'feature');
    const good = await importing(alice, depot, 'orte.geojson', Buffer.from(GEOJSON));
    assert.equal(good.exec.status, 'success', JSON.stringify(good.exec));
    const before = await depotNow(depot);

    const broken = 7_500;
    const { node, exec } = await importing(alice, depot, 'kaputt.csv', csvOf(ROWS, broken));
    assert.equal(exec.status, 'failure');
    const failed: Obj = await get(alice.client, node.resource_uri);
    assert.match(failed.runinfo.exception, new RegExp(`kaputt\\.csv, line ${broken + 2}: 5 columns instead of 4`));
    const after = await depotNow(depot);
    assert.equal(after.current_moment?.id, before.current_moment?.id);
    assert.equal(after.moments.length, before.moments.length, 'no moment was left behind');
    assert.equal(after.size, 2);
    assert.deepEqual(
      (await page(depot, 'limit=10')).map((d) => (d.feature as { properties: { name: string } }).properties.name),
      ['Hamburg', 'München'],
    );
    const rows = (await t.server.db.dataSource.query(
      `SELECT coalesce(sum(last_id - first_id + 1), 0)::int AS n FROM magazine_datum_block WHERE depot_id = $1`,
      [depot.id],
    )) as Array<{ n: number }>;
    assert.equal(rows[0].n, 2, 'no datum rows were left behind');
  });

  it('refuses a user who may read the depot but not write it, and writes nothing', async () => {
    const depot = await newDepot(alice.client, 'feature');
    const reader = await t.user();
    expectStatus(
      await alice.client.patch(depot.resource_uri, { permissions: [{ user: userUri(reader.id), perms: ['read'] }] }),
      200,
    );
    const { node, exec } = await importing(reader, depot, 'punkte.csv', csvOf(3));
    assert.equal(exec.status, 'failure');
    const failed: Obj = await get(reader.client, node.resource_uri);
    assert.match(failed.runinfo.exception, /permission/i);
    const after = await depotNow(depot);
    assert.equal(after.current_moment, null);
    assert.equal(after.size, 0);
  });

  it('replaces the content with a second import, or appends with mode append', async () => {
    const depot = await newDepot(alice.client, 'feature');
    await importing(alice, depot, 'punkte.csv', csvOf(3));
    const replaced = await importing(alice, depot, 'orte.geojson', Buffer.from(GEOJSON));
    assert.equal(replaced.exec.status, 'success', JSON.stringify(replaced.exec));
    assert.equal((await depotNow(depot)).size, 2);
    const appended = await importing(alice, depot, 'punkte.csv', csvOf(3), [
      { name: 'mode', default_value: { value: 'append' } },
    ]);
    assert.equal(appended.exec.status, 'success', JSON.stringify(appended.exec));
    const names = (await page(depot, 'limit=10')).map((d) => (d.feature as { properties: { name: string } }).properties.name);
    assert.deepEqual(names, ['Hamburg', 'München', 'p0', 'p1', 'p2']);
  });
});
