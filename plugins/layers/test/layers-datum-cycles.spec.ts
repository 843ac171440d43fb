import assert from 'node:assert/strict';
import { ApiError, type AuthUser } from '@werkbank/sdk/node';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import {
  addDatum,
  adminWithDepotAccess,
  headOf,
  newDepot,
  valuesAt,
  type Datum,
  type Depot,
  type Moment,
} from '@werkbank/plugin-magazine/testing';
import type { Layer } from '../src/common/layers-api';
import { newLayer, layersServer } from './layers-support';

/**
 * Metalayer loops closed from the depot side (decision 0063): layer datums written into a depot a
 * metalayer stacks — by the datum API, in a batch, by a switchboard write, by restoring, approving
 * or deleting a moment — are refused when they lead back to that metalayer, and nothing of the
 * write is kept. Run on PGlite (the staged import) and, with DATABASE_URL, on PostgreSQL.
 */
describe('layers: metalayer loops closed by layer datums', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;
  layersServer((s) => ({ t, admin } = s));
  before(async () => ({ adminUser, access } = await adminWithDepotAccess(t)));

  const create = (c: Client, depot: Depot, body: Record<string, unknown>, lang = 'en') =>
    c.post(`/api/v1/datum/create-in-depot/${depot.id}/`, body, { headers: { 'Accept-Language': lang } });
  const entry = (l: Layer) => ({ value: l.resource_uri });

  /** A depot of layer datums naming `layers`, and a metalayer stacking it. */
  async function stacked(...layers: Layer[]): Promise<{ depot: Depot; meta: Layer }> {
    const depot = await newDepot(admin, 'layer');
    for (const l of layers) await addDatum(admin, depot, entry(l));
    const meta = await newLayer(admin, { type: 'metalayer', layerpiles: [depot.resource_uri] });
    return { depot, meta };
  }

  /** What a refused write must leave alone: the depot's moments (id, status, size) and its head's values. */
  async function stateOf(depot: Depot): Promise<unknown> {
    const { objects } = expectStatus<{ objects: Moment[] }>(await admin.get(`/api/v1/moment/?depot_id=${depot.id}`), 200);
    return { moments: objects.map((m) => [m.id, m.status, m.size]), values: await valuesAt(admin, depot) };
  }

  const refused = (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.deepEqual([e.status, e.code, e.field], [400, 'layer_cycle', 'value']);
    return true;
  };

  it('refuses a layer entry naming the metalayer that stacks its depot, in both languages, keeping nothing', async () => {
    const plain = await newLayer(admin);
    const { depot, meta } = await stacked(plain);
    // The head is closed: the refused write would have opened a moment.
    expectStatus(await admin.post(`/api/v1/moment/${(await headOf(admin, depot)).id}/approve/`, {}), 200);
    const before = await stateOf(depot);
    const res = await create(admin, depot, entry(meta));
    assertError(res, 400, 'layer_cycle', new RegExp(`“${depot.name}” would make the metalayer “${meta.name}” contain itself`));
    assert.equal(res.body.field, 'value');
    assertError(
      await create(admin, depot, entry(meta), 'de'),
      400,
      'layer_cycle',
      /würde der Metalayer „.*“ sich selbst enthalten/,
    );
    assert.deepEqual(await stateOf(depot), before, 'no moment, no datum');
  });

  it('refuses a loop through other metalayers, whether the entry is new or an edit', async () => {
    const plain = await newLayer(admin);
    const { depot: d1, meta: m1 } = await stacked(plain);
    const { meta: m2 } = await stacked(m1);
    const { meta: m3 } = await stacked(m2);
    const before = await stateOf(d1);
    assertError(await create(admin, d1, entry(m3)), 400, 'layer_cycle', new RegExp(`“${m1.name}”`));
    const [first] = expectStatus<{ objects: Datum[] }>(await admin.get(`/api/v1/datum/by-depot/${d1.id}/`), 200).objects;
    assertError(await admin.patch(first.resource_uri, entry(m2)), 400, 'layer_cycle');
    assert.deepEqual(await stateOf(d1), before);
  });

  it('refuses a whole batch when one of its entries closes a loop', async () => {
    const plain = await newLayer(admin);
    const { depot, meta } = await stacked(plain);
    const before = await stateOf(depot);
    const res = await create(admin, depot, { objects: [entry(plain), entry(meta), entry(plain)] });
    assertError(res, 400, 'layer_cycle');
    assert.deepEqual(await stateOf(depot), before, 'not even the harmless entries are kept');
  });

  it('refuses switchboard writes (DepotAccess write, writeStream, saveDatum) that close a loop, leaving the depot as it was', async () => {
    const plain = await newLayer(admin);
    const { depot, meta } = await stacked(plain);
    const before = await stateOf(depot);
    await assert.rejects(access.write(adminUser, depot.id, [entry(plain), entry(meta)], {}), refused);
    async function* batches() {
      yield [entry(plain), entry(plain)];
      yield [entry(meta)];
    }
    await assert.rejects(access.writeStream(adminUser, depot.id, batches(), { mode: 'append' }), refused);
    await assert.rejects(access.saveDatum(adminUser, { depot: depot.id }, entry(meta)), refused);
    assert.deepEqual(await stateOf(depot), before);
    // Nothing is left staged either: the next write goes through.
    const written = await access.write(adminUser, depot.id, [entry(plain), entry(plain)], { mode: 'append' });
    assert.deepEqual(await valuesAt(admin, depot, written.moment_id), Array(3).fill(plain.resource_uri));
  });

  it('refuses restoring, approving or uncovering (deleting the head) a moment whose entries close a loop', async () => {
    const meta = await newLayer(admin, { type: 'metalayer' });
    const depot = await newDepot(admin, 'layer');
    // Moment 1 names the metalayer; moment 2 drops the entry; then the metalayer stacks the depot.
    const named = await addDatum(admin, depot, entry(meta));
    const second = expectStatus<Moment>(await admin.post(`/api/v1/moment/${named.moment_id}/finalize/`, {}), 200);
    expectStatus(await admin.delete(`/api/v1/datum/${named.index}/`), 200);
    assert.equal((await headOf(admin, depot)).id, second.id);
    expectStatus(await admin.patch(meta.resource_uri, { layerpiles: [depot.resource_uri] }), 200);
    const before = await stateOf(depot);
    assertError(await admin.post(`/api/v1/moment/${named.moment_id}/restore/`, {}), 400, 'layer_cycle');
    assertError(await admin.post(`/api/v1/moment/${named.moment_id}/approve/`, {}), 400, 'layer_cycle');
    assertError(await admin.delete(`/api/v1/moment/${second.id}/`), 400, 'layer_cycle');
    assert.deepEqual(await stateOf(depot), before);
    // Approving the head (it names nothing) needs no walk and goes through.
    expectStatus(await admin.post(`/api/v1/moment/${second.id}/approve/`, {}), 200);
  });

  it('names a metalayer the writer may not read only as "a metalayer"', async () => {
    const plain = await newLayer(admin);
    const { depot, meta } = await stacked(plain);
    const alice = await t.user();
    const grant = { permissions: [{ user: `/api/v1/user/${alice.id}/`, perms: ['read', 'write'] }] };
    expectStatus(await admin.patch(depot.resource_uri, grant), 200);
    const res = await create(alice.client, depot, entry(meta));
    assertError(
      res,
      400,
      'layer_cycle',
      new RegExp(`“${depot.name}” would make a metalayer that stacks this depot contain itself`),
    );
    assert.doesNotMatch(res.body.reason, new RegExp(meta.name));
  });

  it('keeps harmless layer entries and other depots working', async () => {
    const plain = await newLayer(admin);
    const { depot, meta } = await stacked(plain);
    // Another metalayer that does not lead back, and the plain layer again.
    const { meta: other } = await stacked(plain);
    expectStatus(await create(admin, depot, entry(other)), 201);
    expectStatus(await create(admin, depot, { objects: [entry(plain), entry(plain)] }), 201);
    await access.write(adminUser, depot.id, [entry(plain), entry(other)], { mode: 'append' });
    // A depot no metalayer stacks may name any layer, the metalayer too.
    const loose = await newDepot(admin, 'layer');
    expectStatus(await create(admin, loose, entry(meta)), 201);
    // Depots of other types are not checked.
    const strings = await newDepot(admin, 'string');
    expectStatus(await create(admin, strings, { value: meta.resource_uri }), 201);
    await access.write(adminUser, strings.id, [{ value: 'a' }, { value: meta.resource_uri }], {});
    assert.deepEqual(await valuesAt(admin, strings), ['a', meta.resource_uri]);
    assert.equal((await valuesAt(admin, depot)).length, 6);
  });
});
