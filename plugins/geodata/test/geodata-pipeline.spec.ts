import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus } from '@werkbank/testing/node';
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

type Position = [number, number];
interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates: Position[][] };
  properties: Record<string, unknown>;
}

/** Three points in ETRS89 / UTM zone 32N (EPSG:25832), `;` separated with decimal commas. */
const CSV = [
  'name;rechts;hoch;plz;einwohner',
  'Hamburg;566000,25;5934000,5;20095;1841179',
  'Berlin;798000,75;5828000,125;10117;3644826',
  'München;691000,5;5335000,25;80331;1471508',
  '',
].join('\n');

/** The same points in WGS 84 [lon, lat], computed once with `cs2cs -f %.10f EPSG:25832 EPSG:4326`. */
const EXPECTED: Array<{ name: string; plz: number; einwohner: number; at: Position }> = [
  { name: 'Hamburg', plz: 20095, einwohner: 1841179, at: [9.9961955527, 53.5507425922] },
  { name: 'Berlin', plz: 10117, einwohner: 3644826, at: [13.3930674794, 52.5204463872] },
  { name: 'München', plz: 80331, einwohner: 1471508, at: [11.5675080556, 48.1395604468] },
];

const BUFFER_METERS = 100;

/** The mean of a closed ring's distinct vertices (the closing vertex repeats the first). */
function ringCenter(ring: Position[]): Position {
  const open = ring.slice(0, -1);
  const sum = open.reduce<Position>((s, [x, y]) => [s[0] + x, s[1] + y], [0, 0]);
  return [sum[0] / open.length, sum[1] / open.length];
}

/** The great-circle distance in meters (haversine, mean earth radius). */
function meters([lon1, lat1]: Position, [lon2, lat2]: Position): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(a));
}

/** CSV in a file frame → csv.import → rows.to_features → reproject → buffer → depot.store, then approved. */
describe('geodata: a switchboard from an uploaded CSV of UTM points into a depot of features', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: User;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    alice = await t.user();
  });
  after(() => t?.close());

  /** The whole pipeline on an uploaded `bytes`; returns the switchboard, its import node and the execution. */
  async function pipeline(depot: Depot, name: string, bytes: Buffer, user: User = alice) {
    const c = user.client;
    const sb = await newSwitchboard(c);
    const file = await addFrame(c, sb, 'file');
    expectStatus(await frameUpload(c, file.id, name, bytes), 201);
    const rows = await addFrame(c, sb, 'row');
    const points = await addFrame(c, sb, 'feature');
    const wgs84 = await addFrame(c, sb, 'feature');
    const buffers = await addFrame(c, sb, 'feature');
    const moment = await addFrame(c, sb, 'int');

    const csv = await addNode(c, sb, 'csv.import', [{ name: 'decimal', default_value: { value: ',' } }]);
    await link(c, csv, 'file', file, true);
    await link(c, csv, 'rows', rows, false);
    const toFeatures = await addNode(c, sb, 'rows.to_features', [
      { name: 'x', default_value: { value: 'rechts' } },
      { name: 'y', default_value: { value: 'hoch' } },
    ]);
    await link(c, toFeatures, 'rows', rows, true);
    await link(c, toFeatures, 'features', points, false);
    const reproject = await addNode(c, sb, 'geometry.reproject', [
      { name: 'from', default_value: { value: 'EPSG:25832' } },
      { name: 'to', default_value: { value: 'EPSG:4326' } },
    ]);
    await link(c, reproject, 'features', points, true);
    await link(c, reproject, 'features', wgs84, false);
    const buffer = await addNode(c, sb, 'geometry.buffer', [{ name: 'distance', default_value: { value: BUFFER_METERS } }]);
    await link(c, buffer, 'features', wgs84, true);
    await link(c, buffer, 'features', buffers, false);
    const store = await addNode(c, sb, 'depot.store', [{ name: 'depot', default_value: { value: depot.resource_uri } }]);
    await link(c, store, 'datums', buffers, true);
    await link(c, store, 'moment', moment, false);

    const exec = await runAndWait(t, c, sb);
    return { sb, csv, moment, exec };
  }

  const depotNow = async (depot: Depot, user: User = alice) =>
    expectStatus<Depot & { approved_moment: number | null }>(await user.client.get(depot.resource_uri), 200);

  it('stores a 100 m buffer around every reprojected point, with its row’s properties, and reads it back once approved', async () => {
    const c = alice.client;
    const depot = await newDepot(c, 'feature');
    const { moment, exec } = await pipeline(depot, 'orte.csv', Buffer.from(CSV));
    assert.equal(exec.status, 'success', JSON.stringify(exec));

    // depot.store wrote one new, final moment and hands its id on.
    const [written] = expectStatus<{ objects: Array<{ value: number }> }>(
      await c.get(`/api/v1/frame/${moment.id}/content/`),
      200,
    ).objects;
    const before = await depotNow(depot);
    assert.equal(before.current_moment?.id, written.value);
    assert.equal(before.current_moment?.status, 'final');
    assert.equal(before.approved_moment, null);

    const approved = expectStatus<Moment>(await c.post(`/api/v1/moment/${written.value}/approve/`, { message: 'geprüft' }), 200);
    assert.equal(approved.status, 'approved');
    assert.equal((await depotNow(depot)).approved_moment, written.value);

    const datums = expectStatus<{ objects: Datum[] }>(
      await c.get(`/api/v1/datum/by-depot/${depot.id}/?moment=${written.value}&limit=1000`),
      200,
    ).objects;
    assert.equal(datums.length, EXPECTED.length);
    datums.forEach((datum, i) => {
      assert.equal(datum.moment_id, written.value);
      const feature = datum.feature as Feature;
      const want = EXPECTED[i];
      assert.equal(feature.type, 'Feature');
      assert.deepEqual(feature.properties, { name: want.name, plz: want.plz, einwohner: want.einwohner });
      assert.equal(feature.geometry.type, 'Polygon', want.name);
      const ring = feature.geometry.coordinates[0];
      assert.deepEqual(ring[0], ring[ring.length - 1], `${want.name}: the ring is closed`);
      const [lon, lat] = ringCenter(ring);
      assert.ok(Math.abs(lon - want.at[0]) < 1e-6, `${want.name}: longitude ${lon}, expected ${want.at[0]}`);
      assert.ok(Math.abs(lat - want.at[1]) < 1e-6, `${want.name}: latitude ${lat}, expected ${want.at[1]}`);
      for (const vertex of ring) {
        const d = meters(want.at, vertex);
        assert.ok(Math.abs(d - BUFFER_METERS) < 0.5, `${want.name}: a vertex ${d} m from the point`);
      }
    });
  });

  it('fails the import of a CSV with a wrong column count, naming its line, and writes nothing to the depot', async () => {
    const depot = await newDepot(alice.client, 'feature');
    const broken = CSV.replace('Berlin;798000,75;', 'Berlin;798000,75;52,52;');
    const { csv, exec } = await pipeline(depot, 'orte-kaputt.csv', Buffer.from(broken));
    assert.equal(exec.status, 'failure');
    const failed: Obj = await get(alice.client, csv.resource_uri);
    assert.match(failed.runinfo.exception, /orte-kaputt\.csv, line 3: 6 columns instead of 5/);
    const after = await depotNow(depot);
    assert.equal(after.current_moment, null);
    assert.deepEqual(after.moments, []);
    assert.equal(after.size, 0);
  });

  it('words the failure in the language of the user who runs the switchboard', async () => {
    const hans = await t.user();
    expectStatus(await hans.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    const depot = await newDepot(hans.client, 'feature');
    const broken = CSV.replace('München;691000,5;', 'München;');
    const { csv, exec } = await pipeline(depot, 'orte.csv', Buffer.from(broken), hans);
    assert.equal(exec.status, 'failure');
    const failed: Obj = await get(hans.client, csv.resource_uri);
    assert.match(failed.runinfo.exception, /^orte\.csv, Zeile 4: 4 Spalten statt 5\./);
    assert.equal((await depotNow(depot, hans)).current_moment, null);
  });
});
