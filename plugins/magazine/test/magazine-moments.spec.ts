import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, type Client } from '@werkbank/testing/node';
import { sweepTemporaryMoments } from '../src/node/magazine-maintenance';
import { addDatum, headOf, newDepot, valuesAt, type Datum, type Depot, type Moment } from './magazine-support';

/** Moments (spec 000 §4, §7; decision 0011): every moment reads as the snapshot it was. */
describe('magazine: moments and datums', () => {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => {
    await t?.close();
  });

  const patch = async (d: Datum, fields: Record<string, unknown>, momentId?: number) =>
    expectStatus<Datum>(await admin.patch(`/api/v1/datum/${d.index}/${momentId ? `?moment_id=${momentId}` : ''}`, fields), 200);
  const remove = async (d: Datum) => expectStatus(await admin.delete(`/api/v1/datum/${d.index}/`), 200);
  const finalize = async (m: number) => expectStatus<Moment>(await admin.get(`/api/v1/moment/${m}/finalize/`), 200);

  it('reads every moment as a snapshot after adds, patches, deletes, restore and finalize', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const b = await addDatum(admin, depot, { value: 'b' });
    assert.equal(a.moment_id, b.moment_id, 'edits go into the open moment');
    assert.equal(b.moment_size, 2);
    const m1 = a.moment_id;
    const m2 = (await finalize(m1)).id;
    assert.ok(m2 > m1);
    await patch(a, { value: 'a2' });
    const c = await addDatum(admin, depot, { value: 'c' });
    assert.equal(c.moment_id, m2);
    const m3 = (await finalize(m2)).id;
    await remove(b);
    const m4 = (await finalize(m3)).id;
    await patch(c, { value: 'c2' });

    const snapshots = new Map<number, unknown[]>([
      [m1, ['a', 'b']],
      [m2, ['a2', 'b', 'c']],
      [m3, ['a2', 'c']],
      [m4, ['a2', 'c2']],
    ]);
    for (const [m, values] of snapshots) assert.deepEqual(await valuesAt(admin, depot, m), values, `moment ${m}`);
    assert.deepEqual(await valuesAt(admin, depot), ['a2', 'c2'], 'the head');

    // datum/{index}@{moment}
    const old = expectStatus<Datum>(await admin.get(`/api/v1/datum/${a.index}@${m1}/`), 200);
    assert.equal(old.value, 'a');
    assert.equal(old.resource_uri, `/api/v1/datum/${a.index}@${m1}/`);
    assert.equal(expectStatus<Datum>(await admin.get(`/api/v1/datum/${a.index}/`), 200).value, 'a2');
    assertError(await admin.get(`/api/v1/datum/${c.index}@${m1}/`), 404, 'not_found');

    // Restore m1: a new open moment with m1's content; the history stays.
    const restored = expectStatus<Moment>(
      await admin.post(`/api/v1/moment/${m1}/restore/`, { message: 'back to the start' }),
      200,
    );
    assert.equal(restored.origin, 'restore');
    assert.equal(restored.message, 'back to the start');
    assert.equal(restored.status, 'open');
    assert.equal(restored.size, 2);
    assert.deepEqual(await valuesAt(admin, depot), ['a', 'b']);
    for (const [m, values] of snapshots) assert.deepEqual(await valuesAt(admin, depot, m), values, `moment ${m} after restore`);
    const m4Now = expectStatus<Moment>(await admin.get(`/api/v1/moment/${m4}/`), 200);
    assert.equal(m4Now.status, 'final', 'the open head was closed by the restore, not lost');
    assert.deepEqual(await valuesAt(admin, depot, m4), ['a2', 'c2'], 'the edits made before the restore stay readable');

    // Finalize returns the new moment, which is open and becomes the head.
    const next = await finalize(restored.id);
    assert.equal(next.status, 'open');
    assert.equal((await headOf(admin, depot)).id, next.id);
    assert.deepEqual(await valuesAt(admin, depot, next.id), ['a', 'b']);
  });

  it('does not copy unchanged data: an unchanged datum keeps one version over many moments', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'same' });
    let m = a.moment_id;
    for (let i = 0; i < 3; i++) m = (await finalize(m)).id;
    const rows = (await t.server.db.dataSource.query(
      `SELECT count(*)::int AS n FROM magazine_datum_version WHERE datum_id = $1`,
      [a.index],
    )) as { n: number }[];
    assert.equal(rows[0].n, 1);
    const restored = expectStatus<Moment>(await admin.post(`/api/v1/moment/${a.moment_id}/restore/`, {}), 200);
    const after = (await t.server.db.dataSource.query(
      `SELECT count(*)::int AS n FROM magazine_datum_version WHERE datum_id = $1`,
      [a.index],
    )) as { n: number }[];
    assert.equal(after[0].n, 1, 'restoring an unchanged datum copies nothing');
    assert.equal(restored.persistent_size, 0);
  });

  it('approves a moment; the next edit opens a new moment; approval needs write permission', async () => {
    const depot = await newDepot(admin, 'int');
    const d = await addDatum(admin, depot, { value: 1 });
    const approved = expectStatus<Moment>(
      await admin.post(`/api/v1/moment/${d.moment_id}/approve/`, { message: 'checked' }),
      200,
    );
    assert.equal(approved.status, 'approved');
    assert.equal(approved.message, 'checked');
    const d2 = await patch(d, { value: 2 }, approved.id);
    assert.ok(d2.moment_id > approved.id, 'an approved moment takes no edits');
    assert.deepEqual(await valuesAt(admin, depot, approved.id), [1]);
    const depotNow = expectStatus<{ approved_moment: number }>(await admin.get(depot.resource_uri), 200);
    assert.equal(depotNow.approved_moment, approved.id);
    const bob = await t.user();
    assertError(await bob.client.post(`/api/v1/moment/${d2.moment_id}/approve/`, {}), 404, 'not_found');
  });

  it('deletes a moment: the open head discards its edits, a middle moment leaves the others intact', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const m1 = a.moment_id;
    const m2 = (await finalize(m1)).id;
    await patch(a, { value: 'a-m2' });
    const m3 = (await finalize(m2)).id;
    await patch(a, { value: 'a-m3' });
    await addDatum(admin, depot, { value: 'b-m3' });
    // Delete the middle moment m2.
    expectStatus(await admin.delete(`/api/v1/moment/${m2}/`), 200);
    assert.deepEqual(await valuesAt(admin, depot, m1), ['a']);
    assert.deepEqual(await valuesAt(admin, depot, m3), ['a-m3', 'b-m3']);
    assertError(await admin.get(`/api/v1/datum/by-moment/${m2}/`), 404, 'not_found');
    const orphan = (await t.server.db.dataSource.query(
      `SELECT count(*)::int AS n FROM magazine_datum_version WHERE depot_id = $1 AND data->>'value' = 'a-m2'`,
      [depot.id],
    )) as { n: number }[];
    assert.equal(orphan[0].n, 0, 'the version only m2 could see is gone');
    // Delete the open head m3: its edits are discarded, m1 is the head again.
    const res = expectStatus<{ moment_id: number }>(await admin.delete(`/api/v1/moment/${m3}/`), 200);
    assertError(await admin.delete(`/api/v1/moment/${m3}/`), 404, 'not_found');
    assert.equal(res.moment_id, m1);
    assert.deepEqual(await valuesAt(admin, depot), ['a']);
    const again = await patch(a, { value: 'a-again' });
    assert.ok(again.moment_id > m3, 'a new moment opens after the discarded one');
  });

  it('leaves no version that no moment can see after deleting a middle moment and editing on', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'v1' });
    const m1 = a.moment_id;
    const m2 = (await finalize(m1)).id;
    await patch(a, { value: 'v2' });
    const m3 = (await finalize(m2)).id;
    expectStatus(await admin.delete(`/api/v1/moment/${m2}/`), 200);
    await patch(a, { value: 'v3' });
    await patch(a, { value: 'v4' });
    assert.deepEqual(await valuesAt(admin, depot, m1), ['v1']);
    assert.deepEqual(await valuesAt(admin, depot, m3), ['v4']);
    const rows = (await t.server.db.dataSource.query(
      `SELECT data->>'value' AS value FROM magazine_datum_version WHERE datum_id = $1 ORDER BY id`,
      [a.index],
    )) as { value: string }[];
    assert.deepEqual(
      rows.map((r) => r.value),
      ['v1', 'v4'],
    );
  });

  it('a write against a moment that has moved on gets 409 and changes nothing', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const m1 = a.moment_id;
    const m2 = (await finalize(m1)).id;
    const stale = await admin.patch(`/api/v1/datum/${a.index}/?moment_id=${m1}`, { value: 'stale' });
    assertError(stale, 409, 'moment_moved', /moment/i);
    assertError(
      await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/?moment_id=${m1}`, { value: 'x' }),
      409,
      'moment_moved',
    );
    assertError(await admin.delete(`/api/v1/datum/${a.index}/?moment_id=${m1}`), 409, 'moment_moved');
    assert.deepEqual(await valuesAt(admin, depot), ['a']);
    const ok = await patch(a, { value: 'fresh' }, m2);
    assert.equal(ok.moment_id, m2);
    // A stale datum version is refused as well.
    const again = await admin.patch(`/api/v1/datum/${a.index}/`, { value: 'lost?', version: a.version });
    assertError(again, 409, 'datum_changed');
    assert.deepEqual(await valuesAt(admin, depot), ['fresh']);
    assertError(await admin.get(`/api/v1/moment/${m1}/finalize/`), 409, 'moment_not_open');
    // The address of a datum read at an old moment names that moment: a write through it is stale.
    assertError(await admin.patch(`/api/v1/datum/${a.index}@${m1}/`, { value: 'via old address' }), 409, 'moment_moved');
    assertError(await admin.delete(`/api/v1/datum/${a.index}@${m1}/`), 409, 'moment_moved');
    assert.deepEqual(await valuesAt(admin, depot), ['fresh']);
  });

  it('a datum id that was never drawn is not found for reading, changing or deleting', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const head = await headOf(admin, depot);
    // Behind the last block of ids: not to be taken for a datum of the depot that drew that block
    // (its writers would otherwise hear that the datum was deleted).
    const never = a.index + 1_000_000;
    assertError(await admin.get(`/api/v1/datum/${never}/`), 404, 'not_found');
    assertError(await admin.patch(`/api/v1/datum/${never}/`, { value: 'x' }), 404, 'not_found');
    assertError(await admin.delete(`/api/v1/datum/${never}/`), 404, 'not_found');
    assert.deepEqual(await valuesAt(admin, depot), ['a']);
    assert.equal((await headOf(admin, depot)).id, head.id);
  });

  it('concurrent writers: every write lands or is refused whole', async () => {
    const depot = await newDepot(admin, 'int');
    const alice = await t.user();
    const bob = await t.user();
    const grant = [
      { user: `/api/v1/user/${alice.id}/`, perms: ['read', 'write'] },
      { user: `/api/v1/user/${bob.id}/`, perms: ['read', 'write'] },
    ];
    expectStatus(await admin.patch(depot.resource_uri, { permissions: grant }), 200);
    const writes = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? alice.client : bob.client).post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: i }),
    );
    const replies = await Promise.all(writes);
    for (const r of replies) expectStatus(r, 201);
    const values = (await valuesAt(admin, depot)) as number[];
    assert.deepEqual(
      [...values].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.equal((await headOf(admin, depot)).size, 20);
    // Two authors editing one datum from the same version: one wins, the other gets 409.
    const d = await addDatum(admin, depot, { value: 100 });
    const [r1, r2] = await Promise.all([
      alice.client.patch(`/api/v1/datum/${d.index}/`, { value: 101, version: d.version }),
      bob.client.patch(`/api/v1/datum/${d.index}/`, { value: 102, version: d.version }),
    ]);
    const statuses = [r1.status, r2.status].sort();
    assert.deepEqual(statuses, [200, 409]);
    const winner = r1.status === 200 ? 101 : 102;
    assert.equal(expectStatus<Datum>(await admin.get(`/api/v1/datum/${d.index}/`), 200).value, winner);
  });

  it('takes large batches from several writers at once (the embedded database included)', async () => {
    const depot = await newDepot(admin, 'string');
    const batch = (w: number) => ({
      objects: Array.from({ length: 1000 }, (_, i) => ({ value: `writer ${w} datum ${i} ${'x'.repeat(80)}` })),
    });
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, w) => admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, batch(w))),
    );
    for (const r of replies) expectStatus(r, 201);
    const page = expectStatus<{ meta: { total_count: number } }>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/?limit=1`),
      200,
    );
    assert.equal(page.meta.total_count, 6000);
  });

  it('pages a snapshot by offset or behind a datum (keyset), at the head and at an old moment', async () => {
    const depot = await newDepot(admin, 'int');
    const created = expectStatus<{ objects: Datum[] }>(
      await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects: [1, 2, 3, 4, 5].map((value) => ({ value })) }),
      201,
    ).objects;
    const old = created[0].moment_id;
    await finalize(old);
    await remove(created[1]);
    const walk = async (base: string) => {
      const seen: unknown[] = [];
      let after: number | null = null;
      for (let i = 0; i < 10; i++) {
        const page: { objects: Datum[]; meta: { next_after: number | null; total_count: number } } = expectStatus(
          await admin.get(`${base}?limit=2${after ? `&after=${after}` : ''}`),
          200,
        );
        seen.push(...page.objects.map((d) => d.value));
        after = page.meta.next_after;
        if (after === null) break;
      }
      return seen;
    };
    assert.deepEqual(await walk(`/api/v1/datum/by-depot/${depot.id}/`), [1, 3, 4, 5]);
    assert.deepEqual(await walk(`/api/v1/datum/by-moment/${old}/`), [1, 2, 3, 4, 5]);
    const offset = expectStatus<{ objects: Datum[] }>(await admin.get(`/api/v1/datum/by-moment/${old}/?limit=2&offset=3`), 200);
    assert.deepEqual(
      offset.objects.map((d) => d.value),
      [4, 5],
    );
    assertError(await admin.get(`/api/v1/datum/by-depot/${depot.id}/?after=x`), 400, 'invalid_parameter');
  });

  it('creates datums in batches and refuses a batch with one bad datum whole', async () => {
    const depot = await newDepot(admin, 'number');
    const ok = expectStatus<{ objects: Datum[]; moment_size: number }>(
      await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects: [{ value: 1 }, { value: 2.5 }] }),
      201,
    );
    assert.equal(ok.objects.length, 2);
    assert.equal(ok.moment_size, 2);
    const bad = await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects: [{ value: 3 }, { value: 'x' }] });
    assertError(bad, 400, 'invalid_value');
    assert.equal(bad.body.field, 'objects[1].value');
    assert.deepEqual(await valuesAt(admin, depot), [1, 2.5]);
  });

  it('opens temporary moments; unapproved ones expire, approved ones stay', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'kept' });
    const temp = expectStatus<Moment>(
      await admin.post(`${depot.resource_uri}moment/`, { temporary: true, message: 'preview' }),
      200,
    );
    assert.equal(temp.temporary, true);
    assert.equal(temp.status, 'open');
    assert.equal(expectStatus<Moment>(await admin.get(`/api/v1/moment/${a.moment_id}/`), 200).status, 'final');
    await addDatum(admin, depot, { value: 'draft' }, temp.id);
    const db = t.server.db.dataSource;
    await db.query(`UPDATE magazine_moment SET created = now() - interval '25 hours' WHERE id = $1`, [temp.id]);
    assert.equal(await sweepTemporaryMoments({ dataSource: db }), 1);
    assertError(await admin.get(`/api/v1/moment/${temp.id}/`), 404, 'not_found');
    assert.deepEqual(await valuesAt(admin, depot), ['kept'], 'the expired moment’s edits are gone, the rest is intact');
    // Someone else's edit in a temporary moment is never thrown away: the moment stays, as a normal one.
    const colleague = await t.user();
    expectStatus(
      await admin.patch(depot.resource_uri, {
        permissions: [{ user: `/api/v1/user/${colleague.id}/`, perms: ['read', 'write'] }],
      }),
      200,
    );
    const shared = expectStatus<Moment>(await admin.post(`${depot.resource_uri}moment/`, { temporary: true }), 200);
    expectStatus(await colleague.client.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: 'by a colleague' }), 201);
    await db.query(`UPDATE magazine_moment SET created = now() - interval '25 hours' WHERE id = $1`, [shared.id]);
    await sweepTemporaryMoments({ dataSource: db });
    assert.equal(expectStatus<Moment>(await admin.get(`/api/v1/moment/${shared.id}/`), 200).temporary, false);
    assert.deepEqual(await valuesAt(admin, depot), ['kept', 'by a colleague']);

    const temp2 = expectStatus<Moment>(await admin.post(`${depot.resource_uri}moment/`, { temporary: true }), 200);
    const approved = expectStatus<Moment>(await admin.post(`/api/v1/moment/${temp2.id}/approve/`, {}), 200);
    assert.equal(approved.temporary, false, 'approving makes a temporary moment permanent');
    await db.query(`UPDATE magazine_moment SET created = now() - interval '25 hours' WHERE id = $1`, [temp2.id]);
    assert.equal(await sweepTemporaryMoments({ dataSource: db }), 0);
  });

  it('gives a template for a new datum', async () => {
    const depot: Depot = await newDepot(admin, 'bbox');
    const tpl = expectStatus<Record<string, unknown>>(await admin.get(`/api/v1/datum/create-in-depot/${depot.id}/`), 200);
    assert.equal(tpl.content_type, '/api/v1/type/bbox/');
    assert.ok(Array.isArray(tpl.value));
  });
});
