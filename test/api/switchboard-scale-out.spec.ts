import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus, type Client } from './api-test-support';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';
import { Engine } from '../../plugins/switchboards/src/node/engine';
import { LIVE_CHANNEL } from '../../plugins/switchboards/src/node/live';
import en from '../../plugins/switchboards/src/node/i18n/en.json' with { type: 'json' };
import { PgBossJobQueue } from '../../server/src/exec/pg-boss-job-queue';
import { PgNotifyBus } from '../../server/src/exec/pg-notify-bus';
import { SERVER_URL, sql, within } from './pg-test-support';

const ROOT = resolve(import.meta.dirname, '../..');
/** Seconds without a heartbeat after which a run counts as lost (short, so the suite stays quick). */
const TIMEOUT_SECONDS = 3;

interface RunRow {
  id: number;
  node_id: number;
  status: string;
  worker: string | null;
  attempt: number;
  exception: string;
  /** Seconds from the run's last heartbeat to its end. */
  silent_for: number | null;
}

interface Worker {
  name: string;
  child: ChildProcess;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  output: () => string;
  dataDir: string;
}

/**
 * Scale-out (decisions 0014, 0015): an API server in the 'workers' mode only queues node runs; two
 * `npm run worker` processes take them. A worker that dies mid-run is noticed by the heartbeat
 * sweep of the surviving processes, and nothing it held runs twice.
 */
describe('Switchboards scaled out to worker processes', function () {
  this.timeout(120_000);
  const name = `werkbank_scale_${randomBytes(6).toString('hex')}`;
  let url: string;
  let db: pg.Client | undefined;
  let t: TestServer | undefined;
  let admin: Client;
  const workers: Worker[] = [];
  const logs: string[] = [];

  const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> => (await db!.query(text, params)).rows as T[];

  const runsOf = (executionId: number) =>
    query<RunRow>(
      `SELECT id, node_id, status, worker, attempt, exception,
              EXTRACT(EPOCH FROM ("end" - heartbeat))::float AS silent_for
         FROM switchboard_noderun WHERE execution_id = $1 ORDER BY id`,
      [executionId],
    );

  /** The worker process whose Engine.workerId (`host:pid:random`) is `id`. */
  const workerOf = (id: string | null) => workers.find((w) => id?.split(':')[1] === String(w.child.pid));

  function startWorker(label: string): Worker {
    const dataDir = mkdtempSync(join(tmpdir(), 'werkbank-scale-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: url,
        EXECUTION: 'workers',
        WORKER_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
        EXECUTION_CONCURRENCY: '2',
        WERKBANK_PLUGINS: SWITCHBOARD_PLUGINS.join(','),
        DEV_LICENCE: t!.server.config.developmentLicence ? '1' : '0',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: t!.adminPassword,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const w = { name: label, child, exited, output: () => out, dataDir };
    workers.push(w);
    return w;
  }

  const running = (w: Worker) => w.child.exitCode === null && w.child.signalCode === null;

  function whenStarted(w: Worker): Promise<void> {
    return within(
      new Promise<void>((res, rej) => {
        const check = () => /Werkbank worker started \(concurrency 2\)/.test(w.output()) && res();
        w.child.stdout!.on('data', check);
        check();
        void w.exited.then(() => rej(new Error(`worker ${w.name} exited: ${w.output()}`)));
      }),
      `worker ${w.name} to start`,
      90_000,
    );
  }

  /**
   * Resolves with `check`'s first defined result; re-checks at once and after every live message of
   * the switchboard (statuses, progress, counts: all written before they are announced).
   */
  async function whenLive<T>(sb: Obj, check: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
    let dirty = true;
    let wake: (() => void) | undefined;
    const sub = t!.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
      if (msg.switchboard_id !== sb.id) return;
      dirty = true;
      wake?.();
    });
    try {
      await (t!.server.bus as Partial<PgNotifyBus>).whenListening?.();
      return await within(
        (async () => {
          for (;;) {
            dirty = false;
            const got = await check();
            if (got !== undefined) return got;
            if (!dirty) await new Promise<void>((res) => (wake = res));
            wake = undefined;
          }
        })(),
        what,
        ms,
      );
    } finally {
      sub.dispose();
    }
  }

  /** Starts a run of the switchboard and resolves with its execution once it has ended. */
  async function runToEnd(sb: Obj): Promise<Obj> {
    const started = expectStatus<Obj>(await admin.post(`${sb.resource_uri}run/`, {}), 202);
    return whenLive(
      sb,
      async () => {
        const now = expectStatus<Obj>(await admin.get(started.resource_uri), 200);
        return now.status === 'started' ? undefined : now;
      },
      'the execution to end',
      60_000,
    );
  }

  /** pg-boss jobs of node runs, per run id. */
  const jobsOf = async (runIds: number[]) =>
    query<{ run_id: number; state: string }>(
      `SELECT (data->>'run_id')::int AS run_id, state FROM pgboss.job
        WHERE name = 'switchboard_noderun' AND (data->>'run_id')::int = ANY($1) ORDER BY 1`,
      [runIds],
    );

  before(async function () {
    this.timeout(180_000);
    await sql(SERVER_URL, `CREATE DATABASE ${name}`);
    const u = new URL(SERVER_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    db = new pg.Client({ connectionString: url });
    await db.connect();
    // With DATABASE_URL set the harness makes a database of its own; this suite's config wins.
    t = await startTestServer({
      plugins: SWITCHBOARD_PLUGINS,
      logs,
      config: { databaseUrl: url, execution: 'workers', workerTimeoutSeconds: TIMEOUT_SECONDS, executionConcurrency: 2 },
    });
    admin = await t.admin();
    const [{ current }] = (await t.server.db.dataSource.query(`SELECT current_database() AS current`)) as { current: string }[];
    assert.equal(current, name, 'the API server does not use the fresh database');
    assert.ok(t.server.jobs instanceof PgBossJobQueue);
    assert.ok(t.server.bus instanceof PgNotifyBus);
    // Migrations ran in the server; the workers find nothing pending and start side by side.
    const started = [startWorker('A'), startWorker('B')].map(whenStarted);
    await Promise.all(started);
  });

  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    console.log(['--- server log', ...logs].join('\n'));
    for (const w of workers) console.log(`--- worker ${w.name} (pid ${w.child.pid})\n${w.output()}`);
  });

  after(async function () {
    this.timeout(60_000);
    for (const w of workers) {
      if (running(w)) w.child.kill('SIGKILL');
      await within(w.exited, `worker ${w.name} to exit`, 10_000).catch((e: Error) => console.error(e.message));
      rmSync(w.dataDir, { recursive: true, force: true });
    }
    await t?.close();
    await db?.end();
    await sql(SERVER_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('spreads the runs of a switchboard over both workers; the API server executes none', async () => {
    // a → upper → b → concat(b, c) → d → lower → e, and four independent waits.
    const sb = await newSwitchboard(admin);
    const a = await addFrame(admin, sb, 'string', [{ value: 'x' }, { value: 'y' }]);
    const b = await addFrame(admin, sb, 'string');
    const c = await addFrame(admin, sb, 'string', [{ value: '!' }]);
    const d = await addFrame(admin, sb, 'string');
    const e = await addFrame(admin, sb, 'string');
    const upper = await addNode(admin, sb, 'string.upper');
    const concat = await addNode(admin, sb, 'string.concat');
    const lower = await addNode(admin, sb, 'string.lower');
    await link(admin, upper, 'value', a, true);
    await link(admin, upper, 'result', b, false);
    await link(admin, concat, 'a', b, true);
    await link(admin, concat, 'b', c, true);
    await link(admin, concat, 'result', d, false);
    await link(admin, lower, 'value', d, true);
    await link(admin, lower, 'result', e, false);
    // Four runs of 800 ms queued at once: a worker holds at most two (EXECUTION_CONCURRENCY), so the
    // other one, polling every 0.5 s, takes the rest.
    for (let i = 0; i < 4; i++) await addNode(admin, sb, 'test.wait', [{ name: 'ms', default_value: { value: 800 } }]);

    const exec = await runToEnd(sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    assert.deepEqual(await contentOf(admin, d), [{ value: 'X!' }, { value: 'Y!' }]);
    assert.deepEqual(await contentOf(admin, e), [{ value: 'x!' }, { value: 'y!' }]);

    const runs = await runsOf(exec.id as number);
    assert.equal(runs.length, 7);
    assert.ok(
      runs.every((r) => r.status === 'success' && r.attempt === 1),
      `every run executes once: ${JSON.stringify(runs)}`,
    );
    const serverWorker = t!.server.kernel.container.get(Engine).workerId;
    assert.ok(!runs.some((r) => r.worker === serverWorker), 'the API server executed a run');
    const by = runs.map((r) => workerOf(r.worker)?.name);
    assert.ok(
      by.every((n) => n),
      `a run was executed by neither worker: ${JSON.stringify(runs.map((r) => r.worker))}`,
    );
    assert.deepEqual([...new Set(by)].sort(), ['A', 'B'], `the runs were not spread over both workers: ${JSON.stringify(by)}`);
    // One job per run: nothing was queued twice.
    assert.deepEqual(
      (await jobsOf(runs.map((r) => r.id))).map((j) => j.run_id),
      runs.map((r) => r.id),
    );
    const sbNow = expectStatus<Obj>(await admin.get(sb.resource_uri), 200);
    assert.equal(sbNow.status, 'success');
  });

  it('fails the runs of a killed worker after WORKER_TIMEOUT_SECONDS and leaves the other worker alone', async () => {
    // Four long waits fill both workers (two slots each); each has a node downstream.
    const sb = await newSwitchboard(admin);
    const pairs: Array<{ wait: Obj; after: Obj }> = [];
    for (let i = 0; i < 4; i++) {
      const wait = await addNode(admin, sb, 'test.wait', [
        { name: 'ms', default_value: { value: 60_000 } },
        { name: 'value', default_value: { value: `v${i}` } },
      ]);
      const frame = await addFrame(admin, sb, 'any');
      const after = await addNode(admin, sb, 'test.wait');
      await link(admin, wait, 'value', frame, false);
      await link(admin, after, 'value', frame, true);
      pairs.push({ wait, after });
    }
    const waitIds = pairs.map((p) => p.wait.id);
    const afterIds = pairs.map((p) => p.after.id);

    const exec = expectStatus<Obj>(await admin.post(`${sb.resource_uri}run/`, {}), 202);
    const executionId = exec.id as number;
    const taken = await whenLive(
      sb,
      async () => {
        const runs = (await runsOf(executionId)).filter((r) => waitIds.includes(r.node_id));
        return runs.every((r) => r.status === 'started') ? runs : undefined;
      },
      'all four long runs to start',
      30_000,
    );
    const [a, b] = ['A', 'B'].map((n) => workers.find((w) => w.name === n)!);
    const ofA = taken.filter((r) => workerOf(r.worker) === a);
    const ofB = taken.filter((r) => workerOf(r.worker) === b);
    assert.equal(ofA.length, 2, `worker A should hold two runs: ${JSON.stringify(taken)}`);
    assert.equal(ofB.length, 2, `worker B should hold two runs: ${JSON.stringify(taken)}`);
    const nodeUri = (nodeId: number) => `/api/v1/node/${nodeId}/`;
    const downstreamOf = (runs: RunRow[]) =>
      runs.map((r) => pairs.find((p) => p.wait.id === r.node_id)!.after.id).sort((x, y) => x - y);

    a.child.kill('SIGKILL');
    const [, signal] = await within(a.exited, 'worker A to die');
    assert.equal(signal, 'SIGKILL');

    // Swept by the surviving processes (the API server and worker B) once A's heartbeat is too old.
    const lost = await whenLive(
      sb,
      async () => {
        const rows = (await runsOf(executionId)).filter((r) => ofA.some((x) => x.id === r.id));
        return rows.every((r) => r.status !== 'started') ? rows : undefined;
      },
      "worker A's runs to fail",
      (TIMEOUT_SECONDS + 10) * 1000,
    );
    const workerLost = en.errors.worker_lost;
    for (const r of lost) {
      assert.equal(r.status, 'failure');
      assert.equal(r.exception, workerLost);
      assert.equal(r.attempt, 1);
      assert.ok(
        r.silent_for! >= TIMEOUT_SECONDS && r.silent_for! < TIMEOUT_SECONDS + 3,
        `swept ${r.silent_for} s after its last heartbeat, expected about ${TIMEOUT_SECONDS} s`,
      );
      const run = expectStatus<Obj>(await admin.get(`/api/v1/noderun/${r.id}/`), 200);
      assert.equal(run.exception, workerLost);
      const node = expectStatus<Obj>(await admin.get(nodeUri(r.node_id)), 200);
      assert.equal(node.status, 'failure');
      assert.equal(node.runinfo.exception, workerLost);
    }

    // B's runs keep running: both still report progress after A's runs were failed.
    const heard = new Set<string>();
    let allHeard!: () => void;
    const progressed = new Promise<void>((res) => (allHeard = res));
    const sub = t!.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
      const fields = msg.fields as { runinfo?: { progress?: number } } | undefined;
      if (typeof fields?.runinfo?.progress !== 'number') return;
      heard.add(String(msg.resource_uri));
      if (ofB.every((r) => heard.has(nodeUri(r.node_id)))) allHeard();
    });
    try {
      await within(progressed, "progress of worker B's runs");
    } finally {
      sub.dispose();
    }
    let rows = await runsOf(executionId);
    const row = (id: number) => rows.find((r) => r.id === id)!;
    for (const r of ofB) assert.deepEqual([row(r.id).status, row(r.id).worker, row(r.id).attempt], ['started', r.worker, 1]);
    const status = (nodeIds: number[]) =>
      rows
        .filter((r) => nodeIds.includes(r.node_id))
        .sort((x, y) => x.node_id - y.node_id)
        .map((r) => r.status);
    assert.deepEqual(status(downstreamOf(ofA)), ['cancelled', 'cancelled'], 'what depends on a lost run is cancelled');
    assert.deepEqual(status(downstreamOf(ofB)), ['waiting', 'waiting']);
    let now = expectStatus<Obj>(await admin.get(exec.resource_uri), 200);
    // The last run to finish decides: B's runs still count.
    assert.deepEqual([now.status, now.done, now.failed], ['started', 4, 2]);

    const aborted = expectStatus<Obj>(await admin.post(`${sb.resource_uri}abort/`, {}), 200);
    assert.equal(aborted.status, 'failure');
    now = expectStatus<Obj>(await admin.get(exec.resource_uri), 200);
    assert.equal(now.status, 'failure');
    assert.equal(expectStatus<Obj>(await admin.get(sb.resource_uri), 200).status, 'failure');
    rows = await runsOf(executionId);
    for (const r of ofB) {
      assert.equal(row(r.id).status, 'failure');
      assert.match(row(r.id).exception, /Admin/, 'B lost its runs to the sweep, not to the abort');
    }
    assert.deepEqual(status(afterIds), ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    // Nothing ran twice: every run that started was claimed once, by one worker.
    for (const r of rows) {
      if (r.status === 'cancelled') assert.deepEqual([r.attempt, r.worker], [0, null]);
      else assert.equal(r.attempt, 1, JSON.stringify(r));
    }

    // The abort reached B over the bus: its waits returned, so its jobs end as completed, not failed
    // by the stop timeout. A's jobs stay active (pg-boss never retries them; retryLimit is 0).
    b.child.kill('SIGTERM');
    const [code] = await within(b.exited, 'worker B to stop', 20_000);
    assert.equal(code, 0, b.output());
    const jobs = await jobsOf(taken.map((r) => r.id));
    const stateOf = (runs: RunRow[]) => jobs.filter((j) => runs.some((r) => r.id === j.run_id)).map((j) => j.state);
    assert.deepEqual(stateOf(ofB), ['completed', 'completed']);
    assert.deepEqual(stateOf(ofA), ['active', 'active']);
  });
});
