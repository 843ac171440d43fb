import assert from 'node:assert/strict';
import { fakeRunContext, startTestServer, type TestServer } from '@werkbank/testing/node';
import { ApiError, type AuthUser, type FunctionRunContext } from '@werkbank/sdk/node';
import { expectStatus, userUri, type Client } from '@werkbank/testing/node';
import {
  addDatum,
  headOf,
  newDepot,
  valuesAt,
  type Datum,
  type Depot,
  type Moment,
  adminWithDepotAccess,
} from './magazine-support';
import { DepotAccess } from '@werkbank/plugin-magazine/api';

type LineageMoment = Moment & { node_run: number | null };

/** The Magazine's DepotAccess (switchboard reads and writes) on a real database. */
describe('magazine: depot access for switchboard functions', () => {
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;

  before(async () => {
    // The Magazine binds DepotAccess; basic-functions' depot functions inject it.
    t = await startTestServer({ plugins: ['magazine', 'basic-functions'] });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
  });
  after(async () => {
    await t?.close();
  });

  const authUser = async (id: number) => (await t.server.accounts.loadAuthUser(id))!;
  const moment = async (id: number) => expectStatus<LineageMoment>(await admin.get(`/api/v1/moment/${id}/`), 200);
  const approve = async (id: number) => expectStatus<Moment>(await admin.post(`/api/v1/moment/${id}/approve/`, {}), 200);
  const momentCount = async (depot: Depot) =>
    expectStatus<{ meta: { total_count: number } }>(await admin.get(`/api/v1/moment/?depot_id=${depot.id}`), 200).meta
      .total_count;
  const apiError = (status: number, code: string, field?: string) => (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.status, status);
    assert.equal(e.code, code);
    if (field !== undefined) assert.equal(e.field, field);
    return true;
  };

  it('reads the latest approved moment by default, or the chosen moment, by address or id', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    const b = await addDatum(admin, depot, { value: 'b' });
    const approved = await approve(a.moment_id);
    const c = await addDatum(admin, depot, { value: 'c' });
    assert.ok(c.moment_id > approved.id);

    const snapshot = await access.read(adminUser, depot.resource_uri);
    assert.deepEqual(snapshot, {
      depot_id: depot.id,
      moment_id: approved.id,
      content_type: 'string',
      items: [{ value: 'a' }, { value: 'b' }],
      indexes: [a.index, b.index],
    });
    const chosen = await access.read(adminUser, String(depot.id), c.moment_id);
    assert.deepEqual(chosen.items, [{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
    assert.equal(chosen.moment_id, c.moment_id);

    const other = await newDepot(admin, 'string');
    const o = await addDatum(admin, other, { value: 'o' });
    await assert.rejects(access.read(adminUser, depot.id, o.moment_id), apiError(404, 'not_found'));
    await assert.rejects(access.read(adminUser, 'depot three'), apiError(400, 'invalid_value', 'depot'));
  });

  it('reads a depot of more than one page completely and in order (keyset paging)', async () => {
    const depot = await newDepot(admin, 'int');
    const create = async (from: number, n: number) =>
      expectStatus<{ objects: Datum[] }>(
        await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, {
          objects: Array.from({ length: n }, (_, i) => ({ value: from + i })),
        }),
        201,
      );
    await create(0, 1000);
    const last = await create(1000, 5);
    const snapshot = await access.read(adminUser, depot.id, last.objects[0].moment_id);
    assert.equal(snapshot.items.length, 1005);
    assert.deepEqual(
      snapshot.items.map((i) => i.value),
      Array.from({ length: 1005 }, (_, i) => i),
    );
  });

  it('refuses with 409 no_approved_moment when no moment is approved', async () => {
    const depot = await newDepot(admin, 'string');
    await addDatum(admin, depot, { value: 'draft' });
    await assert.rejects(access.read(adminUser, depot.id), (e: unknown) => {
      apiError(409, 'no_approved_moment')(e);
      assert.equal((e as ApiError).key, 'magazine:errors.no_approved_moment');
      return true;
    });
  });

  it('reads and writes with the user’s permissions: 404 without read, 403 without write', async () => {
    const depot = await newDepot(admin, 'string');
    const d = await addDatum(admin, depot, { value: 'secret' });
    await approve(d.moment_id);
    const stranger = await t.user();
    const reader = await t.user();
    expectStatus(await admin.patch(depot.resource_uri, { permissions: [{ user: userUri(reader.id), perms: ['read'] }] }), 200);

    await assert.rejects(access.read(await authUser(stranger.id), depot.id), apiError(404, 'not_found'));
    await assert.rejects(access.write(await authUser(stranger.id), depot.id, [{ value: 'x' }], {}), apiError(404, 'not_found'));
    assert.deepEqual((await access.read(await authUser(reader.id), depot.id)).items, [{ value: 'secret' }]);
    await assert.rejects(
      access.write(await authUser(reader.id), depot.id, [{ value: 'x' }], { nodeRunId: 1 }),
      apiError(403, 'permission_denied'),
    );
    assert.deepEqual(await valuesAt(admin, depot), ['secret']);
  });

  it('replaces the content as a final moment of origin switchboard that names the node run', async () => {
    const depot = await newDepot(admin, 'string');
    const a = await addDatum(admin, depot, { value: 'a' });
    await addDatum(admin, depot, { value: 'b' });
    await addDatum(admin, depot, { value: 'c' });
    const before = await headOf(admin, depot);
    assert.equal((before as LineageMoment).node_run, null, 'moments written by people name no node run');

    const written = await access.write(adminUser, depot.resource_uri, [{ value: 'a' }, { value: 'x' }], {
      nodeRunId: 77,
      message: 'from a switchboard',
    });
    assert.equal(written.depot_id, depot.id);
    assert.ok(written.moment_id > before.id);
    const m = await moment(written.moment_id);
    assert.equal(m.origin, 'switchboard');
    assert.equal(m.status, 'final');
    assert.equal(m.node_run, 77);
    assert.equal(m.size, 2);
    assert.equal(m.message, 'from a switchboard');
    assert.equal((await headOf(admin, depot)).id, written.moment_id);
    assert.deepEqual(await valuesAt(admin, depot), ['a', 'x']);
    assert.deepEqual(await valuesAt(admin, depot, before.id), ['a', 'b', 'c'], 'the earlier moment is unchanged');
    const aNow = expectStatus<Datum>(await admin.get(`/api/v1/datum/${a.index}/`), 200);
    assert.equal(aNow.version, a.version, 'an unchanged datum keeps its version');

    // Users approve it; their next edit opens a moment of its own.
    assert.equal((await approve(written.moment_id)).status, 'approved');
    assert.deepEqual((await access.read(adminUser, depot.id)).items, [{ value: 'a' }, { value: 'x' }]);
    const edit = await addDatum(admin, depot, { value: 'by hand' });
    assert.ok(edit.moment_id > written.moment_id);

    const emptied = await access.write(adminUser, depot.id, [], { nodeRunId: 78 });
    assert.equal((await moment(emptied.moment_id)).size, 0);
    assert.deepEqual(await valuesAt(admin, depot), []);
  });

  it('appends to the content with mode append', async () => {
    const depot = await newDepot(admin, 'row');
    await addDatum(admin, depot, { value: { a: 1 } });
    const written = await access.write(adminUser, depot.id, [{ value: { a: 2 } }, { value: { a: 3 } }], {
      nodeRunId: 79,
      mode: 'append',
    });
    const m = await moment(written.moment_id);
    assert.equal(m.node_run, 79);
    assert.equal(m.size, 3);
    assert.deepEqual(await valuesAt(admin, depot), [{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it('rejects an invalid item naming it, and writes nothing', async () => {
    const depot = await newDepot(admin, 'int');
    await addDatum(admin, depot, { value: 1 });
    const head = await headOf(admin, depot);
    const moments = await momentCount(depot);
    await assert.rejects(
      access.write(adminUser, depot.id, [{ value: 2 }, { value: 'zwei' }], { nodeRunId: 80 }),
      apiError(400, 'invalid_value', 'items[1].value'),
    );
    await assert.rejects(
      access.write(adminUser, depot.id, [{ value: 2 }, 'drei' as unknown as Record<string, unknown>], { nodeRunId: 80 }),
      apiError(400, 'invalid_value', 'items[1]'),
    );
    assert.equal(await momentCount(depot), moments);
    const still = await headOf(admin, depot);
    assert.equal(still.id, head.id);
    assert.equal(still.status, 'open', 'the open head was not closed');
    assert.deepEqual(await valuesAt(admin, depot), [1]);
  });

  it('rolls the whole write back when storing fails after the moment was opened', async () => {
    const depot = await newDepot(admin, 'string');
    await addDatum(admin, depot, { value: 'kept' });
    const head = await headOf(admin, depot);
    const moments = await momentCount(depot);
    // Valid text, but PostgreSQL refuses the NUL character (jsonb on the embedded database's
    // INSERT, text on PostgreSQL's COPY): the store fails mid-write.
    await assert.rejects(
      access.write(adminUser, depot.id, [{ value: 'kept' }, { value: 'a\u0000b' }], { nodeRunId: 81 }),
      /Unicode escape|0x00/,
    );
    assert.equal(await momentCount(depot), moments);
    const still = await headOf(admin, depot);
    assert.equal(still.id, head.id);
    assert.equal(still.status, 'open');
    assert.deepEqual(await valuesAt(admin, depot), ['kept']);
  });

  it('runs depot.store and depot.read of basic-functions through this service', async () => {
    const depot = await newDepot(admin, 'string');
    const reads: unknown[] = [];
    const writes: unknown[] = [];
    const ctx: FunctionRunContext = {
      ...fakeRunContext(),
      signal: new AbortController().signal,
      progress: () => undefined,
      log: () => undefined,
      user: adminUser,
      nodeRunId: 82,
      recordRead: (r) => reads.push(r),
      recordWrite: (w) => writes.push(w),
      lang: 'de',
    };
    const functions = t.server.functions;
    const stored = await functions
      .get('depot.store')!
      .run({ depot: [{ value: depot.resource_uri }], datums: [{ value: 'p' }] }, ctx);
    const momentId = stored.moment[0].value as number;
    assert.equal((await moment(momentId)).node_run, 82);
    assert.deepEqual(writes, [{ depot_id: depot.id, moment_id: momentId }]);
    const read = await functions
      .get('depot.read')!
      .run({ depot: [{ value: depot.resource_uri }], moment: [{ value: momentId }] }, ctx);
    assert.deepEqual(read.datums, [{ value: 'p' }]);
    assert.deepEqual(reads, [{ depot_id: depot.id, moment_id: momentId }]);
  });
});
