import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { apiKeyClient, assertError, expectStatus, userUri, type Client } from '@werkbank/testing/node';
import { addDatum, newDepot } from '@werkbank/plugin-magazine/testing';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  waitForExecution,
  WORKFLOWS,
  NODES,
  type Obj,
} from './switchboard-support';

type User = Awaited<ReturnType<TestServer['user']>>;

/** Who may make a switchboard run, and as whom; what executions reveal; realms; unauthenticated bodies. */
describe('Switchboard security', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS });
    admin = await t.admin();
  });
  after(() => t?.close());

  const grant = async (sb: Obj, who: User, perms: string[]) =>
    expectStatus(await admin.patch(sb.resource_uri, { permissions: [{ user: userUri(who.id), perms }] }), 200);
  const keyClient = (key: string) => apiKeyClient(t, key);
  const key = async (who: User, realms: string[]) => {
    // Calling with a key needs access_connect (decision 0041).
    expectStatus(await admin.patch(userUri(who.id), { user_permissions: ['access_connect'] }), 200);
    return expectStatus<{ key: string }>(await admin.post('/api/v1/apikey/', { user: userUri(who.id), realms }), 201).key;
  };

  /** input 'text' → upper → output 'shout' */
  async function shouting(): Promise<{ sb: Obj; input: Obj; output: Obj }> {
    const sb = await newSwitchboard(admin);
    const input = await addFrame(admin, sb, 'string', [{ value: 'secret' }], { frame_type: 1, name: 'text' });
    const output = await addFrame(admin, sb, 'string', [], { frame_type: 2, name: 'shout' });
    const upper = await addNode(admin, sb, 'string.upper');
    await link(admin, upper, 'value', input, true);
    await link(admin, upper, 'result', output, false);
    return { sb, input, output };
  }

  it('a workflow step needs the right to run its switchboard, and its owner must keep it', async () => {
    const { sb } = await shouting();
    const author = await t.user();
    const caller = await t.user();
    await grant(sb, author, ['read']);
    assertError(
      await author.client.post(WORKFLOWS, { name: 'w', steps: [{ switchboard: sb.resource_uri }] }),
      400,
      'invalid_field',
    );
    await grant(sb, author, ['execute']);
    const wf = expectStatus<Obj>(
      await author.client.post(WORKFLOWS, {
        name: 'w',
        steps: [{ switchboard: sb.resource_uri }],
        permissions: [{ user: userUri(caller.id), perms: ['execute'] }],
      }),
      201,
    );
    const ok = expectStatus<Obj>(
      await caller.client.post(`${wf.resource_uri}execute/`, { inputs: { text: [{ value: 'a' }] } }),
      202,
    );
    assert.equal((await waitForExecution(t, caller.client, ok)).status, 'success');
    // The author loses the grant: the workflow no longer runs the switchboard for anybody.
    expectStatus(await admin.patch(sb.resource_uri, { permissions: [] }), 200);
    assertError(await caller.client.post(`${wf.resource_uri}execute/`, { inputs: {} }), 403, 'workflow_owner_denied');
  });

  it('an execution shows what it produced, only to who may see it', async () => {
    const { sb, output } = await shouting();
    const viewer = await t.user();
    const wf = expectStatus<Obj>(
      await admin.post(WORKFLOWS, {
        name: 'shown',
        steps: [{ switchboard: sb.resource_uri }],
        permissions: [{ user: userUri(viewer.id), perms: ['read'] }],
      }),
      201,
    );
    const first = await runAndWait(t, admin, sb);
    assert.deepEqual(first.results[0].items, [{ value: 'SECRET' }]);
    // A later run changes the frame; the first execution still shows its own result.
    const later = expectStatus<Obj>(
      await admin.post(`${wf.resource_uri}execute/`, { inputs: { text: [{ value: 'later' }] } }),
      202,
    );
    await waitForExecution(t, admin, later);
    assert.deepEqual(await contentOf(admin, output), [{ value: 'LATER' }]);
    const again = expectStatus<Obj>(await admin.get(first.resource_uri), 200);
    assert.deepEqual(again.results[0].items, [{ value: 'SECRET' }]);
    // Showing the workflow is not enough to read its executions.
    assertError(await viewer.client.get(later.resource_uri), 404, 'not_found');
    assertError(await viewer.client.get(first.resource_uri), 404, 'not_found');
  });

  it('only who may run a switchboard may schedule it; while scheduled, others may not change its canvas', async () => {
    const sb = await newSwitchboard(admin);
    const frame = await addFrame(admin, sb, 'string', [{ value: 'x' }]);
    const editor = await t.user();
    await grant(sb, editor, ['write']);
    assertError(await editor.client.patch(sb.resource_uri, { automatic: true }), 403, 'schedule_denied');
    expectStatus(await admin.patch(sb.resource_uri, { automatic: true }), 200);
    const scheduled = expectStatus<Obj>(await admin.get(sb.resource_uri), 200);
    assert.equal(scheduled.scheduled_by, '/api/v1/user/1/');
    assertError(
      await editor.client.post(NODES, { switchboard: sb.resource_uri, func: 'test.superuser' }),
      409,
      'switchboard_scheduled',
    );
    assertError(await editor.client.patch(frame.resource_uri, { content: [{ value: 'y' }] }), 409, 'switchboard_scheduled');
    // Turning scheduling off is always allowed to editors; then they may edit again.
    expectStatus(await editor.client.patch(sb.resource_uri, { automatic: false }), 200);
    expectStatus(await editor.client.post(NODES, { switchboard: sb.resource_uri, func: 'string.upper' }), 201);
  });

  it('reads no body before the caller is known', async () => {
    const anonymous = t.client();
    await anonymous.get('/api/v2/backend/config');
    for (const path of ['/api/v1/switchboard/import/', '/api/v1/switchboard/1/run/', '/api/v1/datum/create-in-frame/1/']) {
      const res = await anonymous.post(path, undefined, { raw: '{bad' });
      assert.equal(res.status, 401, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });

  it('API keys stay inside their realms', async () => {
    const user = await t.user();
    const depot = await newDepot(admin, 'string');
    const datum = await addDatum(admin, depot, { value: 'hidden' });
    expectStatus(await admin.patch(depot.resource_uri, { permissions: [{ user: userUri(user.id), perms: ['read'] }] }), 200);
    const sbKey = keyClient(await key(user, ['switchboard']));
    assertError(
      await sbKey.get(`/api/v2/switchboard/create/datum/?datum=${encodeURIComponent(datum.resource_uri)}`, { csrf: false }),
      403,
      'realm_denied',
    );
    // A workflow key polls workflow executions only.
    const { sb } = await shouting();
    await grant(sb, user, ['read']);
    const plain = await runAndWait(t, admin, sb);
    const wfKey = keyClient(await key(user, ['workflow']));
    assertError(await wfKey.get(plain.resource_uri), 404, 'not_found');
    // A depot key sees no switchboards in a depot's context view.
    const reader = await newSwitchboard(admin);
    const out = await addFrame(admin, reader, 'string');
    const read = await addNode(admin, reader, 'depot.read', [{ name: 'depot', default_value: { value: depot.resource_uri } }]);
    await link(admin, read, 'datums', out, false);
    expectStatus(await admin.post(`/api/v1/moment/${datum.moment_id}/approve/`, {}), 200);
    assert.equal((await runAndWait(t, admin, reader)).status, 'success');
    const full = expectStatus<Obj>(await admin.get(`${depot.resource_uri}contextview/`), 200);
    assert.ok(full.objects.some((o: Obj) => o.type === 'switchboard'));
    const { key: adminDepotKey } = expectStatus<{ key: string }>(
      await admin.post('/api/v1/apikey/', { user: '/api/v1/user/1/', realms: ['depot'] }),
      201,
    );
    const limited = expectStatus<Obj>(await keyClient(adminDepotKey).get(`${depot.resource_uri}contextview/`), 200);
    assert.deepEqual(
      limited.objects.filter((o: Obj) => o.type === 'switchboard'),
      [],
    );
    assert.deepEqual(limited.relations, []);
  });
});
