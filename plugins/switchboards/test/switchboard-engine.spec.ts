import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, type Client } from '@werkbank/testing/node';
import { Engine } from '../src/node/engine';
import {
  addFrame,
  addNode,
  contentOf,
  grant,
  link,
  newSwitchboard,
  runAndWait,
  waitForExecution,
  NODES,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from './switchboard-support';

describe('Switchboard engine', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  const logs: string[] = [];
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    logs.length = 0;
  });

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS, logs, config: { executionConcurrency: 2 } });
    admin = await t.admin();
  });
  after(() => t?.close());

  /** a → upper → b → concat(b, c) → d */
  async function chain(): Promise<{ sb: Obj; a: Obj; b: Obj; c: Obj; d: Obj; upper: Obj; concat: Obj }> {
    const sb = await newSwitchboard(admin);
    const a = await addFrame(admin, sb, 'string', [{ value: 'x' }, { value: 'y' }]);
    const b = await addFrame(admin, sb, 'string');
    const c = await addFrame(admin, sb, 'string', [{ value: '!' }]);
    const d = await addFrame(admin, sb, 'string');
    const upper = await addNode(admin, sb, 'string.upper');
    const concat = await addNode(admin, sb, 'string.concat');
    await link(admin, upper, 'value', a, true);
    await link(admin, upper, 'result', b, false);
    await link(admin, concat, 'a', b, true);
    await link(admin, concat, 'b', c, true);
    await link(admin, concat, 'result', d, false);
    return { sb, a, b, c, d, upper, concat };
  }

  it('runs nodes in dependency order and writes their output frames', async () => {
    const { sb, d, upper, concat } = await chain();
    const exec = await runAndWait(t, admin, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    assert.deepEqual(await contentOf(admin, d), [{ value: 'X!' }, { value: 'Y!' }]);
    const runs = exec.runs as Obj[];
    assert.equal(runs.length, 2);
    const upperRun = runs.find((r) => r.node === upper.resource_uri)!;
    const concatRun = runs.find((r) => r.node === concat.resource_uri)!;
    assert.ok(new Date(upperRun.end) <= new Date(concatRun.start), 'concat started before upper ended');
    const after = expectStatus<Obj>(await admin.get(sb.resource_uri), 200);
    assert.equal(after.status, 'success');
    assert.deepEqual(after.progress, { total: 100 });
  });

  /** Names of the functions the runs of an execution executed (not skipped). */
  const executed = (exec: Obj) =>
    (exec.runs as Obj[])
      .filter((r) => r.status === 'success' && !r.skipped)
      .map((r) => r.func)
      .sort();

  it('skips unchanged nodes in a second run and re-runs exactly what an edit changed', async () => {
    const { sb, c, d } = await chain();
    const first = await runAndWait(t, admin, sb);
    assert.deepEqual(executed(first), ['string.concat', 'string.upper'], JSON.stringify(first.runs));
    const second = await runAndWait(t, admin, sb);
    assert.equal(second.status, 'success');
    assert.deepEqual(executed(second), [], 'a run with nothing changed executed functions');
    assert.equal(second.skipped, 2);
    assert.ok((second.runs as Obj[]).every((r) => r.skipped));
    // An edit of c changes only what reads it: concat runs, upper does not.
    expectStatus(await admin.patch(c.resource_uri, { content: [{ value: '?' }] }), 200);
    const concatNode = (await admin.get(`${NODES}?switchboard_id=${sb.id}&func=string.concat`)).body.objects[0] as Obj;
    assert.equal(concatNode.outdated, true, 'the node reading the edited frame is not marked outdated');
    const third = await runAndWait(t, admin, sb);
    assert.deepEqual(executed(third), ['string.concat']);
    assert.deepEqual(await contentOf(admin, d), [{ value: 'X?' }, { value: 'Y?' }]);
    // Editing an output frame by hand breaks "outputs intact": the writer runs again.
    expectStatus(await admin.patch(d.resource_uri, { content: [] }), 200);
    assert.deepEqual(executed(await runAndWait(t, admin, sb)), ['string.concat']);
    // A forced run executes everything.
    assert.deepEqual(executed(await runAndWait(t, admin, sb, { force: true })), ['string.concat', 'string.upper']);
  });

  it('a changed node parameter re-runs that node and everything downstream', async () => {
    const sb = await newSwitchboard(admin);
    const out1 = await addFrame(admin, sb, 'string');
    const out2 = await addFrame(admin, sb, 'string');
    const first = await addNode(admin, sb, 'string.concat', [
      { name: 'a', default_value: { value: 'a' } },
      { name: 'b', default_value: { value: 'b' } },
    ]);
    const second = await addNode(admin, sb, 'string.upper');
    await link(admin, first, 'result', out1, false);
    await link(admin, second, 'value', out1, true);
    await link(admin, second, 'result', out2, false);
    await runAndWait(t, admin, sb);
    assert.deepEqual(await contentOf(admin, out2), [{ value: 'AB' }]);
    expectStatus(await admin.patch(first.resource_uri, { ports: [{ name: 'b', default_value: { value: 'c' } }] }), 200);
    const secondNow = expectStatus<Obj>(await admin.get(second.resource_uri), 200);
    assert.equal(secondNow.outdated, true);
    assert.deepEqual(executed(await runAndWait(t, admin, sb)), ['string.concat', 'string.upper']);
    assert.deepEqual(await contentOf(admin, out2), [{ value: 'AC' }]);
  });

  it('runs independent nodes in parallel up to the configured concurrency', async () => {
    const sb = await newSwitchboard(admin);
    for (let i = 0; i < 4; i++) await addNode(admin, sb, 'test.wait', [{ name: 'ms', default_value: { value: 300 } }]);
    const exec = await runAndWait(t, admin, sb);
    assert.equal(exec.status, 'success');
    const spans = (exec.runs as Obj[]).map((r) => [Date.parse(r.start), Date.parse(r.end)]);
    let most = 0;
    for (const [s] of spans) most = Math.max(most, spans.filter(([a, b]) => a <= s && s < b).length);
    assert.equal(most, 2, `at most 2 nodes should overlap at concurrency 2, saw ${most}`);
  });

  it('a failed node stops what depends on it, records its stacktrace and fails the switchboard', async () => {
    const sb = await newSwitchboard(admin);
    const f1 = await addFrame(admin, sb, 'any');
    const f2 = await addFrame(admin, sb, 'any');
    const fail = await addNode(admin, sb, 'test.wait', [{ name: 'value', default_value: { value: 'x' } }]);
    const boom = await addNode(admin, sb, 'test.fail', [{ name: 'message', default_value: { value: 'boom' } }]);
    const after = await addNode(admin, sb, 'test.wait');
    const independent = await addNode(admin, sb, 'string.upper', [{ name: 'value', default_value: { value: 'ok' } }]);
    // fail → f1 → boom? test.fail has no outputs, so make `after` read a frame that a failing node writes:
    await link(admin, fail, 'value', f1, false);
    const failing = await addNode(admin, sb, 'frame.filter', [{ name: 'attribute', default_value: { value: 'value' } }]);
    await link(admin, failing, 'frame', f1, true);
    await link(admin, failing, 'frame', f2, false);
    await link(admin, after, 'value', f2, true);
    // frame.filter without a `value` input fails (a required input with no link and no default).
    const exec = await runAndWait(t, admin, sb);
    assert.equal(exec.status, 'failure');
    const byNode = new Map((exec.runs as Obj[]).map((r) => [r.node, r]));
    assert.equal(byNode.get(fail.resource_uri)!.status, 'success');
    assert.equal(byNode.get(failing.resource_uri)!.status, 'failure');
    assert.equal(byNode.get(after.resource_uri)!.status, 'cancelled');
    assert.equal(byNode.get(independent.resource_uri)!.status, 'success');
    assert.equal(byNode.get(boom.resource_uri)!.status, 'failure');
    const boomRun = expectStatus<Obj>(await admin.get(byNode.get(boom.resource_uri)!.resource_uri), 200);
    assert.match(boomRun.stacktrace, /boom/);
    assert.match(boomRun.stacktrace, /at /, 'the stacktrace has no frames');
    const boomNode = expectStatus<Obj>(await admin.get(boom.resource_uri), 200);
    assert.equal(boomNode.status, 'failure');
    assert.equal(boomNode.runinfo.exception, 'boom');
    const afterNode = expectStatus<Obj>(await admin.get(after.resource_uri), 200);
    assert.equal(afterNode.status, 'initialized');
    const sbNow = expectStatus<Obj>(await admin.get(sb.resource_uri), 200);
    assert.equal(sbNow.status, 'failure');
    // spec 000 §7: the node's runs, newest first; limit=1 gives the latest.
    const latest = expectStatus<{ items: Obj[] }>(await admin.get(`/api/v2/switchboard/nodes/${boom.id}/runs?limit=1`), 200);
    assert.equal(latest.items.length, 1);
    assert.deepEqual(
      Object.keys(latest.items[0])
        .filter((k) => ['id', 'status', 'start', 'end', 'user', 'stacktrace'].includes(k))
        .sort(),
      ['end', 'id', 'stacktrace', 'start', 'status', 'user'],
    );
  });

  it('shows a failure in each reader’s language, and stack traces only to superusers without server paths (issue 14 item 19)', async () => {
    const owner = await t.user();
    const hans = await t.user();
    expectStatus(await hans.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    const sb = await newSwitchboard(owner.client);
    const mid = await addFrame(owner.client, sb, 'string');
    const upper = await addNode(owner.client, sb, 'string.upper');
    const lower = await addNode(owner.client, sb, 'string.lower');
    await link(owner.client, upper, 'result', mid, false);
    await link(owner.client, lower, 'value', mid, true);
    await grant(owner.client, sb, hans, ['read']);
    const exec = await runAndWait(t, owner.client, sb);
    assert.equal(exec.status, 'failure');

    // The owner started it in English; Hans reads it in German, everywhere it shows.
    const node = expectStatus<Obj>(await hans.client.get(upper.resource_uri), 200);
    assert.equal(node.runinfo.exception, "Der Eingang 'value' ist nicht verbunden und hat keinen Wert.");
    const seen = expectStatus<Obj>(await hans.client.get(exec.resource_uri), 200);
    const runs = new Map((seen.runs as Obj[]).map((r) => [r.node, r]));
    assert.equal(runs.get(upper.resource_uri)!.exception, "Der Eingang 'value' ist nicht verbunden und hat keinen Wert.");
    assert.equal(
      runs.get(lower.resource_uri)!.exception,
      'Nicht ausgeführt: der vorherige Knoten string.upper ist fehlgeschlagen.',
    );
    const english = expectStatus<Obj>(await owner.client.get(upper.resource_uri), 200);
    assert.equal(english.runinfo.exception, "Input 'value' is not connected and has no value.");

    // The run's details: the message for every reader, the stack trace for superusers only.
    const runUri = runs.get(upper.resource_uri)!.resource_uri as string;
    const forHans = expectStatus<Obj>(await hans.client.get(runUri), 200);
    assert.equal(forHans.exception, "Der Eingang 'value' ist nicht verbunden und hat keinen Wert.");
    assert.equal(forHans.stacktrace, null);
    const listed = expectStatus<{ items: Obj[] }>(await owner.client.get(`/api/v2/switchboard/nodes/${upper.id}/runs/`), 200);
    assert.equal(listed.items[0].stacktrace, null);
    const forAdmin = expectStatus<Obj>(await admin.get(runUri), 200);
    assert.match(forAdmin.stacktrace, /at /);
    assert.doesNotMatch(forAdmin.stacktrace, /file:\/\/|\/(?:[\w.@-]+\/)+[\w.-]+\.[cm]?[jt]s/, 'no server paths');
    assert.match(forAdmin.stacktrace, /node-runner\.ts:\d+:\d+/, 'the file names stay');
  });

  it('abort stops running nodes through their signal and fails the switchboard', async () => {
    const sb = await newSwitchboard(admin);
    const slow = await addNode(admin, sb, 'test.wait', [{ name: 'ms', default_value: { value: 600_000 } }]);
    let started!: () => void;
    const isStarted = new Promise<void>((res) => (started = res));
    const sub = t.server.bus.subscribe('werkbank_switchboard', (msg) => {
      if (msg.resource_uri === slow.resource_uri && (msg.fields as Obj | undefined)?.status === 'started') started();
    });
    const exec = expectStatus<Obj>(await admin.post(`${sb.resource_uri}run/`, {}), 202);
    await isStarted;
    sub.dispose();
    const aborted = expectStatus<Obj>(await admin.post(`${sb.resource_uri}abort/`, {}), 200);
    assert.equal(aborted.status, 'failure');
    assert.equal(aborted.id, exec.id);
    const node = expectStatus<Obj>(await admin.get(slow.resource_uri), 200);
    assert.equal(node.status, 'failure');
    assert.match(node.runinfo.exception, /Stopped by Admin/, 'named by the display name (issue 14 item 22)');
    // The function honoured its AbortSignal: nothing keeps running (a 10-minute wait would time the test out).
    await t.server.kernel.container.get(Engine).idle();
    assertError(await admin.post(`${sb.resource_uri}abort/`, {}), 409, 'not_running');
  });

  it('runs from a node on: that node and everything downstream, reusing upstream frames', async () => {
    const { sb, a, d, upper, concat } = await chain();
    await runAndWait(t, admin, sb);
    // Upstream input changes are not picked up by a run from concat on: upper does not run.
    expectStatus(await admin.patch(a.resource_uri, { content: [{ value: 'z' }] }), 200);
    const exec = await runAndWait(t, admin, sb, { node: concat.resource_uri, from_here: true, force: true });
    assert.deepEqual(
      (exec.runs as Obj[]).map((r) => r.node),
      [concat.resource_uri],
    );
    assert.deepEqual(await contentOf(admin, d), [{ value: 'X!' }, { value: 'Y!' }]);
    // From upper on, both run.
    const both = await runAndWait(t, admin, sb, { node: upper.resource_uri, from_here: true });
    assert.deepEqual(executed(both), ['string.concat', 'string.upper']);
    assert.deepEqual(await contentOf(admin, d), [{ value: 'Z!' }]);
    // One node alone (POST {node}run/ without from_here).
    const alone = expectStatus<Obj>(await admin.post(`${upper.resource_uri}run/`, { force: true }), 202);
    const done = await waitForExecution(t, admin, alone);
    assert.deepEqual(
      (done.runs as Obj[]).map((r) => r.node),
      [upper.resource_uri],
    );
  });

  it('a failed run can be replayed later against exactly its inputs', async () => {
    const sb = await newSwitchboard(admin);
    const nums = await addFrame(admin, sb, 'number', [{ value: 6 }]);
    const zero = await addFrame(admin, sb, 'number', [{ value: 0 }]);
    const out = await addFrame(admin, sb, 'number');
    const div = await addNode(admin, sb, 'number.divide');
    await link(admin, div, 'a', nums, true);
    await link(admin, div, 'b', zero, true);
    await link(admin, div, 'result', out, false);
    const failed = await runAndWait(t, admin, sb);
    assert.equal(failed.status, 'failure');
    const run = expectStatus<Obj>(await admin.get((failed.runs as Obj[])[0].resource_uri), 200);
    assert.equal(run.replayable, true);
    assert.equal(run.inputs.length, 2);
    // Replay keeps failing against the same inputs even after the frames changed …
    expectStatus(await admin.patch(zero.resource_uri, { content: [{ value: 2 }] }), 200);
    const replay = expectStatus<Obj>(await admin.post(`${run.resource_uri}replay/`, {}), 202);
    const replayed = await waitForExecution(t, admin, replay);
    assert.equal(replayed.status, 'failure');
    const again = expectStatus<Obj>(await admin.get((replayed.runs as Obj[])[0].resource_uri), 200);
    assert.equal(again.replay_of, run.resource_uri);
    assert.deepEqual(
      again.inputs.map((i: Obj) => i.hash),
      run.inputs.map((i: Obj) => i.hash),
    );
    // … while a normal run uses the new content.
    assert.equal((await runAndWait(t, admin, sb)).status, 'success');
    assert.deepEqual(await contentOf(admin, out), [{ value: 3 }]);
  });

  it('superuser-only functions refuse to run for others; running needs execute, editing write', async () => {
    const other = await t.user();
    const sb = await newSwitchboard(admin);
    await addNode(admin, sb, 'test.superuser', [{ name: 'value', default_value: { value: 1 } }]);
    const perms = (p: string[]) => ({ permissions: [{ user: `/api/v1/user/${other.id}/`, perms: p }] });
    assertError(await other.client.post(`${sb.resource_uri}run/`, {}), 404, 'not_found');
    expectStatus(await admin.patch(sb.resource_uri, perms(['read'])), 200);
    assertError(await other.client.post(`${sb.resource_uri}run/`, {}), 403, 'permission_denied');
    expectStatus(await admin.patch(sb.resource_uri, perms(['execute'])), 200);
    assertError(await other.client.post(`${sb.resource_uri}run/`, {}), 403, 'superuser_required');
    assertError(await other.client.post(NODES, { switchboard: sb.resource_uri, func: 'string.upper' }), 403, 'permission_denied');
    assert.equal((await runAndWait(t, admin, sb)).status, 'success');
    expectStatus(await admin.patch(sb.resource_uri, perms(['write'])), 200);
    expectStatus(await other.client.post(NODES, { switchboard: sb.resource_uri, func: 'string.upper' }), 201);
  });

  it('refuses a second run while one is running', async () => {
    const sb = await newSwitchboard(admin);
    await addNode(admin, sb, 'test.wait', [{ name: 'ms', default_value: { value: 600_000 } }]);
    expectStatus(await admin.post(`${sb.resource_uri}run/`, {}), 202);
    assertError(await admin.post(`${sb.resource_uri}run/`, {}), 409, 'switchboard_running');
    expectStatus(await admin.post(`${sb.resource_uri}abort/`, {}), 200);
    await t.server.kernel.container.get(Engine).idle();
  });
});
