import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, expectStatus, userUri, type Client, type TestServer } from '@werkbank/testing/node';
import type { AuthUser } from '@werkbank/sdk/node';
import { DepotAccess, type DepotWindow } from '@werkbank/plugin-magazine/api';
import { windowBoxes } from '../src/common/datum-extent';
import { MagazineServices } from '../src/node/magazine-services';
import { snapshotBatches } from '../src/node/snapshot-stream';
import { addDatum, newDepot, type Datum, type Depot, type Moment, adminWithDepotAccess } from './magazine-support';

interface Page {
  objects: Datum[];
}

const run = promisify(execFile);

const point = (x: number, y: number, properties: Record<string, unknown> = {}) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties },
});

/** Whole-depot reads as streams (issue 15 item 3, decision 0070) on a real database, checked by GDAL. */
describe('magazine: streaming reads', () => {
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;
  let dir: string;

  const approve = async (momentId: number) =>
    expectStatus<Moment>(await admin.post(`/api/v1/moment/${momentId}/approve/`, {}), 200);

  before(async () => {
    t = await startTestServer({ plugins: ['magazine'] });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
    dir = mkdtempSync(join(tmpdir(), 'werkbank-streams-'));
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let depot: Depot;
  let firstMoment: number;
  const count = 2500;

  before(async () => {
    depot = await newDepot(admin, 'feature');
    const items = Array.from({ length: count }, (_, i) =>
      point(-10 + (i % 50) * 0.4, 40 + Math.floor(i / 50) * 0.4, { name: `f${i}`, z: i, a: 'x' }),
    );
    firstMoment = (await access.write(adminUser, depot.id, items, {})).moment_id;
    await access.write(adminUser, depot.id, [...items.slice(0, 10), point(100, 10, { name: 'far', z: -1, a: 'y' })], {});
  });

  const download = async (path: string, client = admin) => client.get(path);
  /** The reply's bytes as sent (the test client would parse them), written to a file GDAL reads. */
  const ogrCount = async (path: string, name: string) => {
    const res = await fetch(`${t.url}${path}`, {
      headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(res.status, 200);
    const file = join(dir, name);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const { stdout } = await run('ogrinfo', ['-ro', '-so', '-al', file]);
    return { count: Number(/Feature Count: (\d+)/.exec(stdout)?.[1]), stdout };
  };

  it('streams a feature depot as GeoJSON that GDAL reads, at a moment and in a window, keys in order', async () => {
    const res = await download(`/api/v1/datum/by-depot/${depot.id}/stream/?moment=${firstMoment}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/geo\+json/);
    const collection = res.body as { type: string; features: Array<{ id: number; properties: Record<string, unknown> }> };
    assert.equal(collection.type, 'FeatureCollection');
    assert.equal(collection.features.length, count);
    assert.deepEqual(Object.keys(collection.features[0].properties), ['name', 'z', 'a'], 'decision 0036: keys as written');
    const ids = collection.features.map((f) => f.id);
    assert.deepEqual(
      ids,
      [...ids].sort((x, y) => x - y),
      'in datum order',
    );
    const whole = await ogrCount(`/api/v1/datum/by-depot/${depot.id}/stream/?moment=${firstMoment}`, 'whole.geojson');
    assert.equal(whole.count, count, whole.stdout);
    assert.match(whole.stdout, /Geometry: Point/);
    assert.equal((await ogrCount(`/api/v1/datum/by-depot/${depot.id}/stream/`, 'head.geojson')).count, 11);
    // x in -10 … -8.4 (5 columns), y 40 and 40.4 (2 rows)
    const window = `/api/v1/datum/by-depot/${depot.id}/stream/?moment=${firstMoment}&bbox=-10.1,39.9,-8.1,40.5`;
    assert.equal((await ogrCount(window, 'window.geojson')).count, 10);
    assert.equal((await ogrCount(`/api/v1/datum/by-moment/${firstMoment}/stream/?bbox=99,9,101,11`, 'none.geojson')).count, 0);
    const far = await download(`/api/v1/datum/by-depot/${depot.id}/stream/?bbox=99,9,101,11`);
    assert.deepEqual(
      (far.body as { features: Array<{ properties: unknown }> }).features.map((f) => f.properties),
      [{ name: 'far', z: -1, a: 'y' }],
    );
  });

  it('streams any depot as NDJSON, one datum per line as list pages give it', async () => {
    const res = await download(
      `/api/v1/datum/by-depot/${depot.id}/stream/?format=ndjson&moment=${firstMoment}&bbox=-10.1,39.9,-8.1,40.5`,
    );
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
    const lines = String(res.body)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Datum);
    assert.equal(lines.length, 10);
    const listed = expectStatus<Page>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/?moment=${firstMoment}&bbox=-10.1,39.9,-8.1,40.5&limit=100`),
      200,
    ).objects;
    assert.deepEqual(lines, listed);
    const strings = await newDepot(admin, 'string');
    await addDatum(admin, strings, { value: 'x' });
    await addDatum(admin, strings, { value: 'y' });
    const text = await download(`/api/v1/datum/by-depot/${strings.id}/stream/`);
    assert.match(text.headers.get('content-type') ?? '', /ndjson/, 'NDJSON is the default for other types');
    assert.deepEqual(
      String(text.body)
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as Datum).value),
      ['x', 'y'],
    );
    const refused = await download(`/api/v1/datum/by-depot/${strings.id}/stream/?format=geojson`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.field, 'format');
    assert.equal((await download(`/api/v1/datum/by-depot/${strings.id}/stream/?format=csv`)).status, 400);
    const empty = await newDepot(admin, 'feature');
    const none = await download(`/api/v1/datum/by-depot/${empty.id}/stream/`);
    assert.deepEqual(none.body, { type: 'FeatureCollection', features: [] });
  });

  it('streams only for readers, and the approved moment on request', async () => {
    const stranger = await t.user();
    const reader = await t.user();
    expectStatus(await admin.patch(depot.resource_uri, { permissions: [{ user: userUri(reader.id), perms: ['read'] }] }), 200);
    assert.equal((await download(`/api/v1/datum/by-depot/${depot.id}/stream/`, stranger.client)).status, 404);
    assert.equal((await download(`/api/v1/datum/by-moment/${firstMoment}/stream/`, stranger.client)).status, 404);
    assert.equal((await t.client().get(`/api/v1/datum/by-depot/${depot.id}/stream/`)).status, 401);
    const none = await download(`/api/v1/datum/by-depot/${depot.id}/stream/?moment=approved`, reader.client);
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'no_approved_moment');
    await approve(firstMoment);
    const approved = await download(`/api/v1/datum/by-depot/${depot.id}/stream/?moment=approved`, reader.client);
    assert.equal(approved.status, 200);
    assert.equal(approved.headers.get('x-werkbank-moment'), String(firstMoment));
    assert.equal((approved.body as { features: unknown[] }).features.length, count);
  });

  it('answers other requests while a reader of a whole depot is between its batches', async () => {
    const services = t.server.kernel.container.get(MagazineServices);
    const other = await newDepot(admin, 'string');
    const batches = snapshotBatches(services, depot.id, firstMoment, { batch: 1000 });
    const first = await batches.next();
    assert.equal(first.done, false);
    let seen = first.value!.length;
    // The reader holds its batch and waits: writes and reads of others go on meanwhile.
    await addDatum(admin, other, { value: 'meanwhile' });
    expectStatus(await admin.get(`/api/v1/depot/${depot.id}/`), 200);
    for await (const batch of batches) seen += batch.length;
    assert.equal(seen, count);
  });

  it('gives the typed API the same stream, and depot.read’s read takes it', async () => {
    const stranger = (await t.server.accounts.loadAuthUser((await t.user()).id))!;
    await assert.rejects(access.readStream(stranger, depot.id), { status: 404 });
    const stream = await access.readStream(adminUser, depot.id, { window: [-10.1, 39.9, -8.1, 40.5] });
    assert.equal(stream.moment_id, firstMoment, 'the latest approved moment');
    let seen = 0;
    for await (const batch of stream.batches) seen += batch.length;
    assert.equal(seen, 10);
    // Stopping early ends the read (and its transaction on PostgreSQL); the server goes on.
    const early = await access.readStream(adminUser, depot.id);
    for await (const batch of early.batches) {
      assert.ok(batch.length > 0);
      break;
    }
    const snapshot = await access.read(adminUser, depot.id);
    assert.equal(snapshot.items.length, count);
    assert.deepEqual(snapshot.items[0], point(-10, 40, { name: 'f0', z: 0, a: 'x' }));
    assert.deepEqual(Object.keys((snapshot.items[0].feature as { properties: object }).properties), ['name', 'z', 'a']);
  });

  it('reads many windows of one moment through a window reader, checked once, as objects or as JSON text; a closed moment pages after a plain first batch', async () => {
    const stranger = (await t.server.accounts.loadAuthUser((await t.user()).id))!;
    await assert.rejects(access.windowReader(stranger, depot.id), { status: 404 });
    const reader = await access.windowReader(adminUser, depot.id);
    assert.equal(reader.moment_id, firstMoment, 'the latest approved moment');
    const indexes = async (batches: AsyncIterable<{ index: number }[]>) => {
      const out: number[] = [];
      for await (const batch of batches) for (const d of batch) out.push(d.index);
      return out;
    };
    const windows: DepotWindow[] = [
      [-10.1, 39.9, -8.1, 40.5],
      [-10.5, 39.5, 10, 60],
      [99, 9, 101, 11],
    ];
    const sizes = [10, count, 0];
    for (const [k, window] of windows.entries()) {
      const read = await indexes(reader.read(window));
      assert.equal(read.length, sizes[k]);
      assert.deepEqual(read, await indexes((await access.readStream(adminUser, depot.id, { window })).batches));
      assert.deepEqual(await indexes(reader.readText(window)), read);
    }
    // As text the fields are the same, their keys perhaps in jsonb's order.
    for await (const [first] of reader.readText([-10.1, 39.9, -9.9, 40.1]))
      assert.deepEqual(JSON.parse(first.text), point(-10, 40, { name: 'f0', z: 0, a: 'x' }));
    assert.throws(() => reader.read([1, 2, 3] as unknown as DepotWindow), { status: 400 });
    assert.throws(() => reader.readText([1, 2, 3] as unknown as DepotWindow), { status: 400 });
    // A closed moment in batches of 1,000: the first by a plain query, the others through the cursor, in index order.
    const services = t.server.kernel.container.get(MagazineServices);
    const batches: number[] = [];
    let last = 0;
    for await (const rows of snapshotBatches(services, depot.id, firstMoment, {
      window: windowBoxes([-10.5, 39.5, 10, 60])!,
      lean: true,
      closed: true,
      batch: 1000,
    })) {
      batches.push(rows.length);
      assert.ok(rows.every((r) => r.datum_id > last && (last = r.datum_id)));
    }
    assert.deepEqual(batches, [1000, 1000, 500]);
  });
});
