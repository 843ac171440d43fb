/**
 * bench/engine: the switchboard engine's cost per node, in one run, against peers measured in the
 * same process: a chain of 1000 `string.upper` nodes through the real engine (POST run/, every node
 * a job, its status written to the database), the same function called 1000 times in a plain loop,
 * and the same chain as a Node-RED 4.1.8 flow. Also 200 independent 20 ms nodes at concurrency 1
 * and 4, and a second, unchanged run of the chain against the first. Embedded database by default;
 * DATABASE_URL selects a PostgreSQL server (the harness makes a fresh database on it).
 * BENCH_CHAIN and BENCH_INDEPENDENT shrink the graphs for a quick check.
 * `npm run bench:engine`; see bench/README.md.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { PreparedStatements, type FrameItems, type FunctionRunContext } from '@werkbank/sdk/node';
import { fakeRunContext, startTestServer, type TestServer } from '@werkbank/testing/node';
import { nodePortsFrom } from '../plugins/switchboards/src/node/links';
import { expectStatus, type Client } from '@werkbank/testing/node';
import { addFrame, newSwitchboard, SWITCHBOARD_PLUGINS, type Obj } from '@werkbank/plugin-switchboards/testing';
import {
  alternating,
  banner,
  fmt,
  judge,
  median,
  PASSES,
  ratios,
  runBench,
  sized,
  spread,
  table as formatTable,
  type Spread,
} from './bench-mode';

const CHAIN = sized('BENCH_CHAIN', 1000, 20);
const INDEPENDENT = sized('BENCH_INDEPENDENT', 200, 10);
const WAIT_MS = 20;
const FUNC = 'string.upper';
const INPUT = 'werkbank';
const EXPECTED = [{ value: INPUT.toUpperCase() }];
const LIVE_CHANNEL = 'werkbank_switchboard';
/** Aims (bench/README.md). */
const AIM_MS_PER_NODE = 2;
const AIM_SECOND_RUN = 0.1;

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));

async function startServer(executionConcurrency?: number): Promise<TestServer> {
  return startTestServer({
    plugins: SWITCHBOARD_PLUGINS,
    logs: [],
    config: executionConcurrency ? { executionConcurrency } : {},
  });
}

// ------------------------------------------------------------------ building graphs

/** head frame → node → frame → node … (`n` nodes), inserted in three statements (the API checks every link). */
async function seedChain(t: TestServer, c: Client, n: number): Promise<{ sb: Obj; last: number }> {
  const sb = await newSwitchboard(c);
  const head = await addFrame(c, sb, 'string', [{ value: INPUT }]);
  const ports = JSON.stringify(nodePortsFrom(t.server.functions.get(FUNC)!));
  return t.server.db.dataSource.transaction(async (m) => {
    const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
    const frames = ids(
      await m.query(
        `INSERT INTO switchboard_frame (switchboard_id, content_type, ui_x, ui_y)
         SELECT $1, 'string', 300 * i, 0 FROM generate_series(1, $2) AS i ORDER BY i RETURNING id`,
        [sb.id, n],
      ),
    );
    const nodes = ids(
      await m.query(
        `INSERT INTO switchboard_node (switchboard_id, func, ports, ui_x, ui_y)
         SELECT $1, $3, $4::jsonb, 300 * i - 150, 0 FROM generate_series(1, $2) AS i ORDER BY i RETURNING id`,
        [sb.id, n, FUNC, ports],
      ),
    );
    const inputs = [head.id as number, ...frames.slice(0, -1)];
    await m.query(
      `INSERT INTO switchboard_link (switchboard_id, node_id, frame_id, name, is_input)
       SELECT $1, x.node_id, x.frame_id, x.name, x.is_input
         FROM unnest($2::int[], $3::int[], $4::text[], $5::bool[]) AS x(node_id, frame_id, name, is_input)`,
      [
        sb.id,
        [...nodes, ...nodes],
        [...inputs, ...frames],
        [...nodes.map(() => 'value'), ...nodes.map(() => 'result')],
        [...nodes.map(() => true), ...nodes.map(() => false)],
      ],
    );
    return { sb, last: frames[frames.length - 1] };
  });
}

/** `n` unlinked `test.wait` nodes with ms = WAIT_MS. */
async function seedIndependent(t: TestServer, c: Client, n: number): Promise<Obj> {
  const sb = await newSwitchboard(c);
  const ports = nodePortsFrom(t.server.functions.get('test.wait')!).map((p) =>
    p.name === 'ms' && p.is_input ? { ...p, default_value: { value: WAIT_MS } } : p,
  );
  await t.server.db.dataSource.query(
    `INSERT INTO switchboard_node (switchboard_id, func, ports, ui_x, ui_y)
     SELECT $1, 'test.wait', $3::jsonb, 200 * (i % 20), 200 * (i / 20) FROM generate_series(1, $2) AS i`,
    [sb.id, n, JSON.stringify(ports)],
  );
  return sb;
}

// ------------------------------------------------------------------ running

interface Run {
  ms: number;
  /** Until POST run/ answered (the execution's rows written, the first job queued). */
  startMs: number;
  execution: Obj;
}

/** POST {switchboard}run/ and the time until the switchboard's live event says it ended. */
async function run(t: TestServer, c: Client, sb: Obj, body: Record<string, unknown> = {}): Promise<Run> {
  let ended!: () => void;
  const end = new Promise<void>((res) => (ended = res));
  const sub = t.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
    const status = (msg.fields as Record<string, unknown> | undefined)?.status;
    if (msg.resource_uri === sb.resource_uri && (status === 'success' || status === 'failure')) ended();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const started = performance.now();
    const exec = expectStatus<Obj>(await c.post(`${sb.resource_uri}run/`, body), 202);
    const startMs = performance.now() - started;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`${sb.resource_uri} did not finish within 20 minutes`)), 20 * 60_000);
    });
    await Promise.race([end, timeout]);
    const took = performance.now() - started;
    const execution = expectStatus<Obj>(await c.get(exec.resource_uri), 200);
    if (execution.status !== 'success') throw new Error(`execution ended ${execution.status}: ${execution.message}`);
    return { ms: took, startMs, execution };
  } finally {
    clearTimeout(timer);
    sub.dispose();
  }
}

async function frameItems(t: TestServer, frameId: number): Promise<unknown> {
  const [row] = (await t.server.db.dataSource.query(
    `SELECT c.items FROM switchboard_frame f JOIN switchboard_content c ON c.hash = f.content_hash WHERE f.id = $1`,
    [frameId],
  )) as Array<{ items: unknown }>;
  return row?.items;
}

function check(what: string, actual: unknown, expected: unknown): void {
  try {
    deepStrictEqual(actual, expected);
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`, { cause: err });
  }
}

// ------------------------------------------------------------------ counting queries

interface QueryStat {
  count: number;
  ms: number;
}

/**
 * Counts every statement TypeORM sends (BEGIN and COMMIT included) by its first words, and the
 * named prepared statements of the PreparedStatements service (the engine's hot path), and the time until
 * each answered, by wrapping both. `stop` restores them.
 */
function countQueries(t: TestServer): { stats: Map<string, QueryStat>; stop(): void } {
  const statements = t.server.kernel.container.get<PreparedStatements>(PreparedStatements);
  const prepared = statements.query.bind(statements);
  const qr = t.server.db.dataSource.createQueryRunner();
  const proto = Object.getPrototypeOf(qr) as { query: (...a: unknown[]) => Promise<unknown> };
  void qr.release();
  const original = proto.query;
  const stats = new Map<string, QueryStat>();
  proto.query = async function (this: unknown, ...args: unknown[]) {
    const key = String(args[0]).replace(/\s+/g, ' ').trim().slice(0, 78);
    const s = stats.get(key) ?? stats.set(key, { count: 0, ms: 0 }).get(key)!;
    const t0 = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      s.count++;
      s.ms += performance.now() - t0;
    }
  };
  statements.query = async function <T>(name: string, text: string, values: unknown[]) {
    const key = `${name} (prepared): ${text.replace(/\s+/g, ' ').trim()}`.slice(0, 78);
    const s = stats.get(key) ?? stats.set(key, { count: 0, ms: 0 }).get(key)!;
    const t0 = performance.now();
    try {
      return await prepared<T>(name, text, values);
    } finally {
      s.count++;
      s.ms += performance.now() - t0;
    }
  };
  return {
    stats,
    stop: () => {
      proto.query = original;
      statements.query = prepared;
    },
  };
}

interface Profile {
  label: string;
  ms: number;
  statements: number;
  /** Time spent waiting for the statements the engine awaits (not the bus's). */
  statementMs: number;
  /** pg_notify statements of the bus (PostgreSQL; sent without waiting for them). */
  notifies: number;
  liveMessages: number;
  top: Array<[string, QueryStat]>;
}

const NOTIFY = 'SELECT pg_notify';

async function profiled(t: TestServer, c: Client, sb: Obj, label: string, body: Record<string, unknown>): Promise<Profile> {
  let liveMessages = 0;
  const sub = t.server.bus.subscribe(LIVE_CHANNEL, () => liveMessages++);
  const counter = countQueries(t);
  try {
    const r = await run(t, c, sb, body);
    const all = [...counter.stats].filter(([sql]) => !sql.startsWith(NOTIFY));
    return {
      label,
      ms: r.ms,
      statements: all.reduce((n, [, s]) => n + s.count, 0),
      statementMs: all.reduce((n, [, s]) => n + s.ms, 0),
      notifies: [...counter.stats].filter(([sql]) => sql.startsWith(NOTIFY)).reduce((n, [, s]) => n + s.count, 0),
      liveMessages,
      top: all.sort((a, b) => b[1].ms - a[1].ms).slice(0, 20),
    };
  } finally {
    counter.stop();
    sub.dispose();
  }
}

// ------------------------------------------------------------------ peers

/** Median time of one round trip (`SELECT 1` through TypeORM): the floor of every statement per node. */
async function roundTrip(t: TestServer): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 501; i++) {
    const started = performance.now();
    await t.server.db.dataSource.query('SELECT 1');
    if (i) times.push(performance.now() - started);
  }
  return median(times);
}

/** The function from the registry, called CHAIN times in sequence, each output the next input: one pass per call. */
function plainLoop(t: TestServer): () => Promise<number> {
  const fn = t.server.functions.get(FUNC)!;
  const controller = new AbortController();
  const ctx: FunctionRunContext = {
    ...fakeRunContext(),
    signal: controller.signal,
    progress: () => undefined,
    log: () => undefined,
    user: {
      id: 1,
      username: 'admin',
      isSuperuser: true,
      isStaff: true,
      groupIds: [],
      permissions: new Set(),
      language: 'en',
      displayName: 'admin',
    },
    nodeRunId: 1,
    recordRead: () => undefined,
    recordWrite: () => undefined,
    lang: 'en',
  };
  return async () => {
    let items: FrameItems = [{ value: INPUT }];
    const started = performance.now();
    for (let i = 0; i < CHAIN; i++) items = (await fn.run({ value: items }, ctx)).result;
    const took = performance.now() - started;
    check('plain loop result', items, EXPECTED);
    return took;
  };
}

interface NodeRed {
  init(settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  nodes: { getNode(id: string): { receive(msg: Record<string, unknown>): void } | null };
}

/**
 * Node-RED 4.1.8 embedded in this process (no HTTP): a flow of CHAIN function nodes in a chain,
 * each upper-casing msg.payload; the last hands the message to a callback from
 * functionGlobalContext. One message at a time enters at the head (`receive`).
 */
async function nodeRed(): Promise<{ pass(): Promise<number>; stop(): Promise<void> }> {
  const userDir = mkdtempSync(join(os.tmpdir(), 'bench-node-red-'));
  const RED = createRequire(import.meta.url)('node-red') as NodeRed;
  let arrived: (payload: unknown) => void = () => undefined;
  const stop = async () => {
    await RED.stop().catch(() => undefined);
    rmSync(userDir, { recursive: true, force: true });
  };
  try {
    const ids = Array.from({ length: CHAIN }, (_, i) => `n${i}`);
    const flow = [
      { id: 'tab', type: 'tab', label: 'chain' },
      ...ids.map((id, i) => ({
        id,
        type: 'function',
        z: 'tab',
        name: '',
        func:
          'msg.payload = msg.payload.toUpperCase();\n' +
          (i === CHAIN - 1 ? "global.get('arrived')(msg.payload);\nreturn null;" : 'return msg;'),
        outputs: 1,
        timeout: 0,
        noerr: 0,
        initialize: '',
        finalize: '',
        libs: [],
        x: 100 + (i % 20) * 150,
        y: 40 + Math.floor(i / 20) * 40,
        wires: i === CHAIN - 1 ? [[]] : [[ids[i + 1]]],
      })),
    ];
    writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flow));
    RED.init({
      userDir,
      flowFile: 'flows.json',
      httpAdminRoot: false,
      httpNodeRoot: false,
      credentialSecret: false,
      logging: { console: { level: 'off', metrics: false, audit: false } },
      externalModules: { autoInstall: false },
      diagnostics: { enabled: false },
      runtimeState: { enabled: false },
      telemetry: { enabled: false },
      functionGlobalContext: { arrived: (payload: unknown) => arrived(payload) },
    });
    await RED.start();
    for (let i = 0; !RED.nodes.getNode(ids[CHAIN - 1]); i++) {
      if (i > 300) throw new Error('Node-RED did not start the flow within 30 s');
      await new Promise((res) => setTimeout(res, 100));
    }
    const head = RED.nodes.getNode(ids[0])!;
    const pass = async () => {
      const got = new Promise<unknown>((res) => (arrived = res));
      const started = performance.now();
      head.receive({ payload: INPUT });
      const payload = await got;
      const took = performance.now() - started;
      check('Node-RED result', [{ value: payload }], EXPECTED);
      return took;
    };
    await pass(); // warm-up
    return { pass, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// ------------------------------------------------------------------ report

function table(rows: string[][]): void {
  console.log(formatTable(rows));
}

function printProfile(p: Profile, nodes: number): void {
  const per = (x: number) => (x / nodes).toFixed(1);
  console.log(
    `\n${p.label}: ${ms(p.ms / nodes)} ms per node; ${per(p.statements)} statements per node, ` +
      `${ms(p.statementMs / nodes)} ms waiting for them (${((p.statementMs / p.ms) * 100).toFixed(0)} %)` +
      `${p.notifies ? `, plus ${per(p.notifies)} pg_notify of the bus` : ''}; ${per(p.liveMessages)} live messages per node`,
  );
  table([
    ['statement (first words)', 'per node', 'ms per node'],
    ...p.top.map(([sql, s]) => [sql, (s.count / nodes).toFixed(2), ms(s.ms / nodes)]),
  ]);
}

const ENGINE = 'werkbank engine';
const NODE_RED = 'node-red';
const PLAIN = 'plain loop';

async function main(): Promise<void> {
  const database = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
  banner('bench/engine', `${os.cpus().length} CPUs · ${database} database`);

  console.log(`\n[node-red] flow of ${CHAIN} function nodes, in this process`);
  const red = await nodeRed();
  console.log(`\n[werkbank] chain of ${CHAIN} ${FUNC} nodes; engine, Node-RED and the plain loop take turns`);
  const t = await startServer();
  let firstRuns: number[], secondRuns: number[], plain: number[], reds: number[], full: Profile, skipped: Profile, trip: number;
  try {
    const admin = await t.admin();
    const warm = await seedChain(t, admin, 20);
    await run(t, admin, warm.sb);
    const loop = plainLoop(t);
    await loop(); // warm-up
    const second: number[] = [];
    // Each engine pass: a fresh chain (three statements), its first run, then the same chain unchanged.
    const results = await alternating([ENGINE, NODE_RED, PLAIN], async (target, pass) => {
      if (target === NODE_RED) return red.pass();
      if (target === PLAIN) return loop();
      const seedStarted = performance.now();
      const chain = await seedChain(t, admin, CHAIN);
      const seeded = performance.now() - seedStarted;
      const first = await run(t, admin, chain.sb);
      check('last frame after the first run', await frameItems(t, chain.last), EXPECTED);
      const again = await run(t, admin, chain.sb);
      if (again.execution.skipped !== CHAIN) throw new Error(`second run skipped ${again.execution.skipped} of ${CHAIN} nodes`);
      second.push(again.ms);
      console.log(
        `  pass ${pass + 1}: chain inserted in ${ms(seeded)} ms; first run ${ms(first.ms)} ms (POST run/ answered after ` +
          `${ms(first.startMs)} ms); second run (${again.execution.skipped} skipped) ${ms(again.ms)} ms`,
      );
      return first.ms;
    });
    [firstRuns, reds, plain] = [results.get(ENGINE)!, results.get(NODE_RED)!, results.get(PLAIN)!];
    secondRuns = second;
    trip = await roundTrip(t);
    console.log(`  one round trip (SELECT 1): median ${ms(trip)} ms`);
    // Counted runs, after the measured ones: force runs every node again, then all are unchanged.
    const profiledChain = await seedChain(t, admin, CHAIN);
    await run(t, admin, profiledChain.sb);
    full = await profiled(t, admin, profiledChain.sb, 'every node runs (force)', { force: true });
    skipped = await profiled(t, admin, profiledChain.sb, 'every node unchanged (skipped)', {});
  } finally {
    await t.close();
    await red.stop();
  }

  const parallel: Record<number, number[]> = {};
  for (const concurrency of [1, 4]) {
    console.log(`\n[werkbank] ${INDEPENDENT} independent test.wait nodes (${WAIT_MS} ms), executionConcurrency ${concurrency}`);
    const s = await startServer(concurrency);
    try {
      const admin = await s.admin();
      await run(s, admin, await seedIndependent(s, admin, 4));
      parallel[concurrency] = [];
      for (let pass = 0; pass < PASSES; pass++) {
        const took = (await run(s, admin, await seedIndependent(s, admin, INDEPENDENT))).ms;
        parallel[concurrency].push(took);
        console.log(`  pass ${pass + 1}: ${ms(took)} ms`);
      }
    } finally {
      await s.close();
    }
  }

  const per = (xs: number[], n = CHAIN): Spread => spread(xs.map((x) => x / n));
  const row = (label: string, xs: number[], n = CHAIN) => [label, fmt(spread(xs)), fmt(per(xs, n))];
  console.log(`\nResults (${database} database; median (min–max) of ${PASSES} passes)`);
  table([
    ['measure', 'total ms', 'ms per node'],
    row(`werkbank engine, new chain of ${CHAIN}, first run`, firstRuns),
    row(`werkbank engine, same chain, second run (unchanged)`, secondRuns),
    row(`plain loop, ${FUNC} from the registry`, plain),
    row(`node-red 4.1.8, ${CHAIN} function nodes`, reds),
    row(`${INDEPENDENT} × test.wait ${WAIT_MS} ms, concurrency 1`, parallel[1], INDEPENDENT),
    row(`${INDEPENDENT} × test.wait ${WAIT_MS} ms, concurrency 4`, parallel[4], INDEPENDENT),
  ]);
  console.log('');
  console.log(`engine / plain loop, per node (per pass): ${fmt(spread(ratios(firstRuns, plain)), 0)}`);
  const speedUp = spread(ratios(parallel[1], parallel[4]));
  console.log(
    `concurrency 4 / 1 speed-up: ${fmt(speedUp, 2)} (ideal 4; waiting alone takes ${(INDEPENDENT * WAIT_MS) / 4} ms at 4)`,
  );
  console.log(
    `one round trip (SELECT 1): ${ms(trip)} ms = ${(trip / (median(reds) / CHAIN)).toFixed(1)} × node-red's whole cost per node`,
  );
  judge([
    {
      what: 'engine / node-red, per node (per pass)',
      value: spread(ratios(firstRuns, reds)),
      aim: '<= 1',
      met: (m) => m <= 1,
      digits: 1,
    },
    {
      what: `engine ms per node (${database})`,
      value: per(firstRuns),
      aim: `< ${AIM_MS_PER_NODE}`,
      met: (m) => m < AIM_MS_PER_NODE,
      digits: 2,
    },
    {
      what: 'second run / first run (per pass)',
      value: spread(ratios(secondRuns, firstRuns)),
      aim: `< ${AIM_SECOND_RUN}`,
      met: (m) => m < AIM_SECOND_RUN,
      digits: 3,
    },
  ]);
  printProfile(full, CHAIN);
  printProfile(skipped, CHAIN);
}

runBench('bench/engine', main);
