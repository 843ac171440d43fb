import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { Scheduler } from '../src/node/scheduler';
import { apiKeyClient, assertError, expectStatus, userUri, type Client } from '@werkbank/testing/node';
import { addDatum, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  SWITCHBOARD_PLUGINS,
  waitForExecution,
  WORKFLOWS,
  type Obj,
} from './switchboard-support';

/** Workflows through the API, automatic runs on approval and periodic runs (spec 002 §5). */
describe('Switchboard workflows and schedules', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS });
    admin = await t.admin();
  });
  after(() => t?.close());

  const keyClient = (key: string) => apiKeyClient(t, key);

  /** input frame 'text' → upper → output frame 'shout' */
  async function shouting(): Promise<{ sb: Obj; input: Obj; output: Obj }> {
    const sb = await newSwitchboard(admin);
    const input = await addFrame(admin, sb, 'string', [], { frame_type: 1, name: 'text', description: 'What to shout' });
    const output = await addFrame(admin, sb, 'string', [], { frame_type: 2, name: 'shout' });
    const upper = await addNode(admin, sb, 'string.upper');
    await link(admin, upper, 'value', input, true);
    await link(admin, upper, 'result', output, false);
    return { sb, input, output };
  }

  it('runs a workflow with an API key: input values in, a run to poll, the results out', async () => {
    const { sb } = await shouting();
    const runner = await t.user();
    // Calling with a key needs access_connect (decision 0041).
    expectStatus(await admin.patch(userUri(runner.id), { user_permissions: ['access_connect'] }), 200);
    const wf = expectStatus<Obj>(
      await admin.post(WORKFLOWS, {
        name: 'Shout',
        slug: 'shout',
        steps: [{ switchboard: sb.resource_uri, executor: 'default' }],
        permissions: [{ user: userUri(runner.id), perms: ['execute'] }],
      }),
      201,
    );
    assert.deepEqual(wf.steps, [{ switchboard: sb.resource_uri, executor: 'default' }]);
    assert.deepEqual(
      wf.input_frames.map((f: Obj) => f.name),
      ['text'],
    );
    assert.deepEqual(
      wf.output_frames.map((f: Obj) => f.name),
      ['shout'],
    );
    const { key } = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(runner.id), realms: ['workflow'] }), 201);
    const api = keyClient(key);
    // The runner may run the workflow but not read its switchboard.
    assertError(await api.get(sb.resource_uri), 403, 'realm_denied');
    const started = expectStatus<Obj>(
      await api.post(
        `${wf.resource_uri}execute/`,
        { inputs: { text: [{ value: 'hallo' }, { value: 'welt' }] } },
        { csrf: false },
      ),
      202,
    );
    assert.equal(started.workflow, wf.resource_uri);
    assert.equal(started.trigger, 'api');
    const done = await waitForExecution(t, api, started);
    assert.equal(done.status, 'success', JSON.stringify(done));
    assert.equal(done.stage, 'result');
    assert.deepEqual(done.results, [
      {
        frame: wf.output_frames[0].resource_uri,
        name: 'shout',
        content_type: '/api/v1/type/string/',
        items: [{ value: 'HALLO' }, { value: 'WELT' }],
      },
    ]);
    // One datum instead of a list is one item; unknown inputs and bad items are refused.
    const single = expectStatus<Obj>(
      await api.post(`${wf.resource_uri}execute/`, { inputs: { text: { value: 'x' } } }, { csrf: false }),
      202,
    );
    assert.deepEqual((await waitForExecution(t, api, single)).results[0].items, [{ value: 'X' }]);
    assertError(await api.post(`${wf.resource_uri}execute/`, { inputs: { nope: [] } }, { csrf: false }), 400, 'unknown_input');
    assertError(
      await api.post(`${wf.resource_uri}execute/`, { inputs: { text: [{ value: 3 }] } }, { csrf: false }),
      400,
      'invalid_value',
    );
    // Without execute_workflow: 403; a key without the workflow realm: 403 realm_denied.
    const stranger = await t.user();
    expectStatus(await admin.patch(wf.resource_uri, { permissions: [{ user: userUri(stranger.id), perms: ['read'] }] }), 200);
    assertError(await stranger.client.post(`${wf.resource_uri}execute/`, { inputs: {} }), 403, 'permission_denied');
    const { key: depotKey } = expectStatus(
      await admin.post('/api/v1/apikey/', { user: userUri(runner.id), realms: ['depot'] }),
      201,
    );
    assertError(
      await keyClient(depotKey).post(`${wf.resource_uri}execute/`, { inputs: {} }, { csrf: false }),
      403,
      'realm_denied',
    );
  });

  it('runs a switchboard through {switchboard}execute/ with execute permission', async () => {
    const { sb, output } = await shouting();
    const started = expectStatus<Obj>(
      await admin.post(`${sb.resource_uri}execute/`, { inputs: { text: [{ value: 'a' }] } }),
      202,
    );
    assert.equal((await waitForExecution(t, admin, started)).status, 'success');
    assert.deepEqual(await contentOf(admin, output), [{ value: 'A' }]);
  });

  /** A switchboard reading `depot` through depot.read into a frame. */
  async function reader(depot: Depot, automatic: boolean): Promise<{ sb: Obj; out: Obj }> {
    const sb = await newSwitchboard(admin, { automatic });
    const out = await addFrame(admin, sb, 'string');
    const read = await addNode(admin, sb, 'depot.read', [{ name: 'depot', default_value: { value: depot.resource_uri } }]);
    await link(admin, read, 'datums', out, false);
    return { sb, out };
  }

  it('runs automatic switchboards once when a depot they read gets an approved moment', async () => {
    const depot = await newDepot(admin, 'string');
    const first = await addDatum(admin, depot, { value: 'one' });
    const auto = await reader(depot, true);
    const manual = await reader(depot, false);
    let started!: (id: number) => void;
    const autoStarted = new Promise<number>((res) => (started = res));
    const sub = t.server.bus.subscribe('werkbank_switchboard', (msg) => {
      const fields = msg.fields as Obj | undefined;
      if (msg.resource_uri === auto.sb.resource_uri && fields?.execution) started(fields.execution as number);
    });
    expectStatus(await admin.post(`/api/v1/moment/${first.moment_id}/approve/`, {}), 200);
    const execId = await autoStarted;
    sub.dispose();
    const exec = await waitForExecution(t, admin, {
      id: execId,
      resource_uri: `/api/v1/execution/${execId}/`,
      switchboard: auto.sb.resource_uri,
    } as Obj);
    assert.equal(exec.status, 'success');
    assert.equal(exec.trigger, 'automatic');
    assert.deepEqual(await contentOf(admin, auto.out), [{ value: 'one' }]);
    // The switchboard without `automatic` did not run.
    const untouched = expectStatus<Obj>(await admin.get(manual.sb.resource_uri), 200);
    assert.equal(untouched.execution, null);
    // The same moment announced again (another server heard it too) starts nothing.
    const scheduler = t.server.kernel.container.get(Scheduler);
    assert.deepEqual(await scheduler.onApproved(depot.id, first.moment_id), []);
    // The lineage: the run recorded the moment it read.
    const run = expectStatus<Obj>(await admin.get((exec.runs as Obj[])[0].resource_uri), 200);
    assert.deepEqual(run.moments_read, [{ depot_id: depot.id, moment_id: first.moment_id }]);
  });

  it('exposes the next periodic run in Europe/Berlin across daylight-saving switches and runs due switchboards once', async () => {
    const { sb } = await shouting();
    const periodic = expectStatus<Obj>(
      await admin.patch(sb.resource_uri, { periodic_execution: true, periodic_execution_rule: 'FREQ=DAILY;BYHOUR=6;BYMINUTE=0' }),
      200,
    );
    assert.ok(periodic.next_run, 'no next run');
    const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' });
    assert.equal(berlin.format(new Date(periodic.next_run)), '06:00');
    assert.ok(Date.parse(periodic.next_run) > Date.now());
    const scheduler = t.server.kernel.container.get(Scheduler);
    const db = t.server.db.dataSource;
    const nextRunOf = async () =>
      new Date(((await db.query(`SELECT next_run FROM switchboard WHERE id = $1`, [sb.id])) as Obj[])[0].next_run).toISOString();
    // Saturday before the March switch, 06:30 CET is due; the next run is Sunday 06:00 CEST = 04:00Z.
    await db.query(`UPDATE switchboard SET next_run = '2026-03-28T05:00:00Z' WHERE id = $1`, [sb.id]);
    assert.deepEqual(await scheduler.tick(new Date('2026-03-28T05:30:00Z')), [sb.id]);
    assert.equal(await nextRunOf(), '2026-03-29T04:00:00.000Z');
    await waitIdle(sb);
    // October: Sunday 06:00 CET = 05:00Z after the switch.
    await db.query(`UPDATE switchboard SET next_run = '2026-10-24T04:00:00Z' WHERE id = $1`, [sb.id]);
    assert.deepEqual(await scheduler.tick(new Date('2026-10-24T04:30:00Z')), [sb.id]);
    assert.equal(await nextRunOf(), '2026-10-25T05:00:00.000Z');
    await waitIdle(sb);
    // Missed for three days (no server ran): one run, and the next run is after now.
    await db.query(`UPDATE switchboard SET next_run = now() - interval '3 days' WHERE id = $1`, [sb.id]);
    const now = new Date();
    assert.deepEqual(await scheduler.tick(now), [sb.id]);
    assert.ok(new Date(await nextRunOf()) > now);
    assert.deepEqual(await scheduler.tick(now), [], 'a missed run ran twice');
    await waitIdle(sb);
    const execs = (await db.query(`SELECT trigger FROM switchboard_execution WHERE switchboard_id = $1`, [sb.id])) as Obj[];
    assert.deepEqual(
      execs.map((e) => e.trigger),
      ['periodic', 'periodic', 'periodic'],
    );
    // A bad rule is refused with the reason.
    assertError(await admin.patch(sb.resource_uri, { periodic_execution_rule: 'FREQ=DAILY;BYHOUR=25' }), 400, 'invalid_rule');
  });

  /** Waits until the switchboard's latest execution has ended. */
  async function waitIdle(sb: Obj): Promise<void> {
    const now = expectStatus<Obj>(await admin.get(sb.resource_uri), 200);
    if (now.execution) await waitForExecution(t, admin, { ...now.execution, switchboard: sb.resource_uri });
  }
});
