import assert from 'node:assert/strict';
import { MessageBus } from '@werkbank/sdk/node';
import {
  apiKeyClient,
  assertError,
  EVENTS,
  expectStatus,
  startTestServer,
  userUri,
  type Client,
  type TestServer,
} from '@werkbank/testing/node';
import { addDatum, adminId, newDepot, valuesAt, type Datum, type Moment } from './magazine-support';
import { uploadFile, uploadReset } from './magazine-upload-support';

/**
 * What a moment action answers and leaves behind (spec 000 §4, §7 "Moments"): the moment's reply,
 * its message, the depot's feed and the approval message to automatic switchboards, refusals, and
 * the sizes the moments count.
 */
describe('magazine: moment actions and their accounts', () => {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => t?.close());

  const patch = async (d: Datum, fields: Record<string, unknown>, momentId?: number) =>
    expectStatus<Datum>(await admin.patch(`/api/v1/datum/${d.index}/${momentId ? `?moment_id=${momentId}` : ''}`, fields), 200);
  const finalize = async (m: number) => expectStatus<Moment>(await admin.get(`/api/v1/moment/${m}/finalize/`), 200);
  /** The moment's persistent size as it should be: the bytes of the versions it added. */
  const bytesFrom = async (momentId: number) =>
    (
      (await t.server.db.dataSource.query(
        `SELECT coalesce(sum(bytes), 0)::int AS bytes FROM magazine_datum_version WHERE valid_from = $1`,
        [momentId],
      )) as { bytes: number }[]
    )[0].bytes;
  const momentOf = async (id: number) => expectStatus<Moment>(await admin.get(`/api/v1/moment/${id}/`), 200);

  it('replies a moment with its addresses, author and origin: made by an edit, finalize, the API or a restore', async () => {
    const eva = await t.user();
    expectStatus(await admin.patch(userUri(eva.id), { first_name: 'Eva', last_name: 'Lang' }), 200);
    const depot = await newDepot(eva.client, 'string');
    const a = await addDatum(eva.client, depot, { value: 'a' });
    const first = expectStatus<Moment & { node_run: unknown }>(await eva.client.get(`/api/v1/moment/${a.moment_id}/`), 200);
    assert.equal(first.resource_uri, `/api/v1/moment/${a.moment_id}/`);
    assert.equal(first.depot, depot.resource_uri);
    assert.equal(first.user, userUri(eva.id));
    assert.equal(first.user_name, 'Eva Lang');
    assert.equal(first.node_run, null, 'not written by a switchboard run');
    const finalized = expectStatus<Moment>(await eva.client.get(`/api/v1/moment/${a.moment_id}/finalize/`), 200);
    assert.equal(finalized.origin, 'finalize');
    const made = expectStatus<Moment>(await eva.client.post(`${depot.resource_uri}moment/`, { message: 'by hand' }), 200);
    assert.equal(made.origin, 'api');
    assert.equal(made.message, 'by hand');
  });

  it('takes a moment message of up to 2,000 characters, trimmed; null or none means no message', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const m1 = a.moment_id;
    const refused = await admin.post(`/api/v1/moment/${m1}/approve/`, { message: 'x'.repeat(2001) });
    assertError(refused, 400, 'invalid_field', 'The message must be text of at most 2000 characters.');
    assert.equal(refused.body.field, 'message');
    assertError(await admin.post(`/api/v1/moment/${m1}/approve/`, { message: 7 }), 400, 'invalid_field');
    assert.equal(expectStatus<Moment>(await admin.get(`/api/v1/moment/${m1}/`), 200).status, 'open', 'a refusal changes nothing');
    const longest = 'y'.repeat(2000);
    assert.equal(
      expectStatus<Moment>(await admin.post(`/api/v1/moment/${m1}/approve/`, { message: longest }), 200).message,
      longest,
    );
    // Approving again without a message keeps the one it has.
    assert.equal(
      expectStatus<Moment>(await admin.post(`/api/v1/moment/${m1}/approve/`, { message: null }), 200).message,
      longest,
    );
    assert.equal(expectStatus<Moment>(await admin.post(`/api/v1/moment/${m1}/approve/`, {}), 200).message, longest);
    const trimmed = expectStatus<Moment>(await admin.post(`/api/v1/moment/${m1}/restore/`, { message: '  zurück  ' }), 200);
    assert.equal(trimmed.message, 'zurück');
    assert.equal(expectStatus<Moment>(await admin.post(`/api/v1/moment/${m1}/restore/`, {}), 200).message, '');
  });

  it('records every moment action in the depot’s feed, naming the action and the moment', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const m1 = a.moment_id;
    const m2 = expectStatus<Moment>(await admin.get(`/api/v1/moment/${m1}/finalize/`), 200).id;
    expectStatus(await admin.post(`/api/v1/moment/${m1}/approve/`, {}), 200);
    const restored = expectStatus<Moment>(await admin.post(`/api/v1/moment/${m1}/restore/`, {}), 200);
    expectStatus(await admin.delete(`/api/v1/moment/${restored.id}/`), 200);
    const feed = expectStatus<{ objects: Array<{ key: string; content_object: string; metadata: Record<string, unknown> }> }>(
      await admin.get(`${EVENTS}?content_kind=depot&key=update&order_by=created&limit=1000`),
      200,
    );
    const actions = feed.objects
      .filter((e) => e.content_object === depot.resource_uri && String(e.metadata.action).startsWith('moment_'))
      .map((e) => [e.metadata.action, e.metadata.moment_id]);
    assert.deepEqual(actions, [
      ['moment_finalize', m1],
      ['moment_approve', m1],
      ['moment_restore', m1],
      ['moment_delete', restored.id],
    ]);
    assert.ok(m2 < restored.id);
  });

  it('tells the automatic switchboards of an approval once it is committed, naming the depot and the moment', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const bus = t.server.kernel.container.get<MessageBus>(MessageBus);
    const heard: unknown[] = [];
    const sub = bus.subscribe('werkbank_moment_approved', (msg) => heard.push(msg));
    try {
      const arrived = new Promise<void>((resolve) => {
        const once = bus.subscribe('werkbank_moment_approved', () => {
          once.dispose();
          resolve();
        });
      });
      expectStatus(await admin.post(`/api/v1/moment/${a.moment_id}/approve/`, {}), 200);
      await arrived;
      assert.deepEqual(heard, [{ depot_id: depot.id, moment_id: a.moment_id }]);
    } finally {
      sub.dispose();
    }
  });

  it('answers a delete with the depot’s new head; finalize refuses a head that is approved', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const m1 = a.moment_id;
    const m2 = expectStatus<Moment>(await admin.get(`/api/v1/moment/${m1}/finalize/`), 200).id;
    assert.deepEqual(expectStatus(await admin.delete(`/api/v1/moment/${m2}/`), 200), { status: 'ok', moment_id: m1 });
    expectStatus(await admin.post(`/api/v1/moment/${m1}/approve/`, {}), 200);
    assertError(
      await admin.get(`/api/v1/moment/${m1}/finalize/`),
      409,
      'moment_not_open',
      `Moment ${m1} is not the open moment of its depot and cannot be finalized.`,
    );
  });

  it('names the moment and the head when a write comes from a moment that has moved on', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const m2 = (await finalize(a.moment_id)).id;
    assertError(
      await admin.patch(`/api/v1/datum/${a.index}/?moment_id=${a.moment_id}`, { value: 'stale' }),
      409,
      'moment_moved',
      `The depot has changed since moment ${a.moment_id} (now ${m2}). Reload the depot and apply your change again.`,
    );
  });

  it('refuses every other write while a file is being imported into the depot', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const db = t.server.db.dataSource;
    // What a staged import on the embedded database leaves while it runs.
    await db.query(
      `INSERT INTO magazine_import (moment_id, depot_id, user_id) SELECT $1, $2, user_id FROM magazine_moment WHERE id = $1`,
      [a.moment_id, depot.id],
    );
    try {
      const busy = 'A file is being imported into this depot. Try again when the import has finished.';
      assertError(await admin.patch(`/api/v1/datum/${a.index}/`, { value: 'b' }), 409, 'depot_importing', busy);
      assertError(await admin.get(`/api/v1/moment/${a.moment_id}/finalize/`), 409, 'depot_importing', busy);
    } finally {
      await db.query(`DELETE FROM magazine_import WHERE depot_id = $1`, [depot.id]);
    }
    assert.deepEqual(await valuesAt(admin, depot), ['a']);
    expectStatus(await admin.patch(`/api/v1/datum/${a.index}/`, { value: 'b' }), 200);
  });

  it('counts what a restore brings back into the new moment’s persistent size', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'erste Fassung' });
    await addDatum(admin, depot, { value: 'bleibt' });
    const m2 = (await finalize(a.moment_id)).id;
    await patch(a, { value: 'zweite' }, m2);
    await finalize(m2);
    const restored = expectStatus<Moment>(await admin.post(`/api/v1/moment/${a.moment_id}/restore/`, {}), 200);
    const [{ bytes }] = (await t.server.db.dataSource.query(
      `SELECT sum(octet_length(data::text))::int AS bytes FROM magazine_datum_version WHERE valid_from = $1`,
      [restored.id],
    )) as { bytes: number }[];
    assert.ok(bytes > 0, 'the first version came back');
    assert.equal(restored.persistent_size, bytes);
  });

  it('marks the depot modified when a datum is written', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const db = t.server.db.dataSource;
    await db.query(`UPDATE magazine_depot SET modified = now() - interval '1 day' WHERE id = $1`, [depot.id]);
    const before = Date.now() - 60_000;
    await patch(a, { value: 'b' });
    const modified = expectStatus<{ modified: string }>(await admin.get(depot.resource_uri), 200).modified;
    assert.ok(Date.parse(modified) > before, `modified ${modified}`);
  });

  it('counts the bytes of what an open moment adds, replaces in place and removes again', async () => {
    const depot = await newDepot(admin, 'string');
    const batch = expectStatus<{ objects: Datum[] }>(
      await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, {
        objects: [{ value: 'eins' }, { value: 'zwei und mehr' }],
      }),
      201,
    ).objects;
    const m = batch[0].moment_id;
    assert.equal((await momentOf(m)).persistent_size, await bytesFrom(m), 'a batch');
    assert.ok((await momentOf(m)).persistent_size > 0);
    // Replaced twice in the same moment: the moment counts the last value only.
    await patch(batch[0], { value: 'eins, länger geschrieben' });
    await patch(batch[0], { value: 'e' });
    assert.equal((await momentOf(m)).persistent_size, await bytesFrom(m), 'after replacing in place');
    // Removed in the moment that added it: its row is gone, and so are its bytes.
    expectStatus(await admin.delete(`/api/v1/datum/${batch[1].index}/`), 200);
    assert.equal((await momentOf(m)).persistent_size, await bytesFrom(m), 'after removing');
    const left = (await t.server.db.dataSource.query(
      `SELECT count(*)::int AS n FROM magazine_datum_version WHERE datum_id = $1`,
      [batch[1].index],
    )) as { n: number }[];
    assert.equal(left[0].n, 0, 'no version of a datum that only its own moment ever saw');
  });

  it('takes a write whose version is null as one without a version, and names the datum of a stale version', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const b = await patch(a, { value: 'b', version: null });
    assert.equal(b.value, 'b');
    assertError(
      await admin.patch(`/api/v1/datum/${a.index}/`, { value: 'c', version: a.version }),
      409,
      'datum_changed',
      `Datum ${a.index} was changed by someone else in the meantime. Reload it and apply your change again.`,
    );
  });

  it('gives back the fields of a datum in the order they were written, not sorted', async () => {
    const depot = await newDepot(admin, 'feature');
    const feature = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [9.99, 53.55] },
      properties: { strasse: 'Am Markt', ort: 'Kiel', nr: 1 },
    };
    const made = await addDatum(admin, depot, { feature });
    const read = expectStatus<Datum>(await admin.get(`/api/v1/datum/${made.index}/`), 200);
    assert.deepEqual(Object.keys((read.feature as typeof feature).properties), ['strasse', 'ort', 'nr']);
    const listed = expectStatus<{ objects: Datum[] }>(await admin.get(`/api/v1/datum/by-depot/${depot.id}/`), 200).objects;
    assert.deepEqual(Object.keys((listed[0].feature as typeof feature).properties), ['strasse', 'ort', 'nr']);
  });

  it('counts the datums a search finds, also behind a cursor; without a search the moment’s size', async () => {
    const depot = await newDepot(admin, 'string');
    for (const value of ['Apfel', 'Birne', 'Apfelsine', 'Pflaume']) await addDatum(admin, depot, { value });
    const list = `/api/v1/datum/by-depot/${depot.id}/`;
    type Page = { objects: Datum[]; meta: { total_count: number; next_after: number | null } };
    const found = expectStatus<Page>(await admin.get(`${list}?q=apfel&limit=1`), 200);
    assert.equal(found.meta.total_count, 2);
    assert.deepEqual(
      found.objects.map((d) => d.value),
      ['Apfel'],
    );
    const rest = expectStatus<Page>(await admin.get(`${list}?q=apfel&limit=1&after=${found.meta.next_after}`), 200);
    assert.equal(rest.meta.total_count, 2, 'the count of the whole search, not of the rest');
    assert.deepEqual(
      rest.objects.map((d) => d.value),
      ['Apfelsine'],
    );
    assert.equal(expectStatus<Page>(await admin.get(`${list}?limit=1`), 200).meta.total_count, 4);
  });
  it('searches for % and _ as the characters they are, not as wildcards', async () => {
    const depot = await newDepot(admin, 'string');
    for (const value of ['Rabatt 5%', 'Rabatt 50', 'a_b', 'axb']) await addDatum(admin, depot, { value });
    const search = async (q: string) =>
      expectStatus<{ objects: Datum[] }>(
        await admin.get(`/api/v1/datum/by-depot/${depot.id}/?q=${encodeURIComponent(q)}`),
        200,
      ).objects.map((d) => d.value);
    assert.deepEqual(await search('5%'), ['Rabatt 5%']);
    assert.deepEqual(await search('a_b'), ['a_b']);
    assert.deepEqual(await search('Rabatt'), ['Rabatt 5%', 'Rabatt 50']);
  });

  it('serves moments to an API key of the depot realm only', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const id = await adminId(t);
    const keyOf = async (realms: string[]) =>
      apiKeyClient(t, expectStatus<{ key: string }>(await admin.post('/api/v1/apikey/', { user: userUri(id), realms }), 201).key);
    const depotKey = await keyOf(['depot']);
    assert.equal(expectStatus<Moment>(await depotKey.get(`/api/v1/moment/${a.moment_id}/`), 200).id, a.moment_id);
    const otherKey = await keyOf(['switchboard']);
    assertError(
      await otherKey.get(`/api/v1/moment/${a.moment_id}/`),
      403,
      'realm_denied',
      "This API key may not be used for calls of the realm 'depot'.",
    );
  });

  it('counts a file’s bytes with the version that brings it: kept by a rename in its moment, not again by a later one', async () => {
    const depot = await newDepot(admin, 'file');
    const uploadId = await uploadReset(admin, depot);
    const file = (await uploadFile(admin, uploadId, 'plan.txt', Buffer.from('0123456789'))).body.file.datum as Datum;
    /** The bytes the file's current version stores beyond its fields. */
    const blobPart = async () => {
      const [v] = (await t.server.db.dataSource.query(
        `SELECT data, bytes FROM magazine_datum_version WHERE datum_id = $1 AND valid_to IS NULL`,
        [file.index],
      )) as { data: unknown; bytes: string }[];
      return Number(v.bytes) - Buffer.byteLength(JSON.stringify(v.data));
    };
    assert.equal(await blobPart(), 10, 'the upload');
    const renamed = await patch(file, { value: 'plan-2.txt' });
    assert.equal(renamed.moment_id, file.moment_id);
    assert.equal(await blobPart(), 10, 'renamed in the moment that brought it');
    assert.equal((await momentOf(file.moment_id)).persistent_size, await bytesFrom(file.moment_id));
    const next = (await finalize(file.moment_id)).id;
    await patch(file, { value: 'plan-3.txt' }, next);
    assert.equal(await blobPart(), 0, 'a later version shares the file without counting it again');
    assert.equal((await momentOf(next)).persistent_size, await bytesFrom(next));
  });
});
