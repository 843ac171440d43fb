/**
 * bench/api-list: list requests for 100,000 tags (first page, a search, the page at offset 90,000
 * by offset and by cursor)
 * on the embedded database and on PostgreSQL, with autocannon against Werkbank's endpoint and
 * against a minimal node:http + pg handler that sends the same SQL, in the same run.
 * `npm run bench`; see bench/README.md for what the numbers mean.
 */
import { deepStrictEqual } from 'node:assert/strict';
import os from 'node:os';
import { LoadRunner, type LoadOptions, type LoadResult } from './load-runner';
import { startListPeer, TAGS_PATH, type ListPeer } from './list-peer-server';
import { seedTags, SEARCH_TERM } from './tag-seed';
import { AIM_CURSOR_PAGE_RATIO, measure, printReport, OURS, PEER, type Measurement } from './bench-report';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { banner, PASSES, runBench, sized, SMOKE } from './bench-mode';
import { measureApiStatsCost, printApiStatsCost } from './api-stats-cost';

const TAG_COUNT = sized('BENCH_TAGS', 100_000, 1000);
/** The deep page starts here: 90 % into the list (offset 90,000 of 100,000). */
const DEEP = Math.round(TAG_COUNT * 0.9);
const CONNECTIONS = 10;
const WARMUP_SECONDS = SMOKE ? 0.2 : 1;
/** Measured seconds per target, scenario and pass, after the warm-up on the same connections. */
const SECONDS = sized('BENCH_SECONDS', 2, 0.3);

interface Scenario {
  name: string;
  query: string;
}

const FIRST = 'first page';
const DEEP_OFFSET = 'deep page, offset';
const DEEP_CURSOR = 'deep page, cursor';
const DEEP_CURSOR_NO_COUNT = 'deep page, cursor, count=false';

/**
 * The scenarios; the cursor ones start behind the 90,000th tag (`meta.next` of the page before
 * it), so they answer the same tags as the page at offset 90,000.
 */
async function scenarios(base: string, headers: Record<string, string>): Promise<Scenario[]> {
  const before = await getJson(`${base}${TAGS_PATH}?offset=${DEEP - 20}&limit=20`, headers);
  const next = String(before.meta.next);
  const after = new URLSearchParams(next.split('?')[1]).get('after');
  if (!after) throw new Error(`the page before offset ${DEEP} gave no cursor: ${next}`);
  return [
    { name: FIRST, query: '?limit=20' },
    { name: 'search', query: `?q=${SEARCH_TERM}&limit=20` },
    { name: DEEP_OFFSET, query: `?offset=${DEEP}&limit=20` },
    { name: DEEP_CURSOR, query: `?limit=20&after=${after}` },
    { name: DEEP_CURSOR_NO_COUNT, query: `?limit=20&count=false&after=${after}` },
  ];
}

interface Target {
  name: string;
  base: string;
}

async function getJson(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  const body: unknown = await res.json();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Fails loudly unless both targets answer every scenario with the same objects. */
async function checkSameAnswers(ours: Target, peer: Target, headers: Record<string, string>, list: Scenario[]): Promise<void> {
  for (const s of list) {
    const a = await getJson(ours.base + TAGS_PATH + s.query, headers);
    const b = await getJson(peer.base + TAGS_PATH + s.query, headers);
    try {
      deepStrictEqual(b, a);
    } catch (err) {
      throw new Error(`${PEER} and ${OURS} answer ${s.name} differently:\n${(err as Error).message}`, { cause: err });
    }
    if (!a.objects.length) throw new Error(`${s.name} answered no tags`);
    console.log(`  ${s.name}: same answer from both (total_count ${a.meta.total_count}, ${a.objects.length} tags)`);
  }
  const byOffset = await getJson(ours.base + TAGS_PATH + list.find((s) => s.name === DEEP_OFFSET)!.query, headers);
  const byCursor = await getJson(ours.base + TAGS_PATH + list.find((s) => s.name === DEEP_CURSOR)!.query, headers);
  try {
    deepStrictEqual(byCursor.objects, byOffset.objects);
  } catch (err) {
    throw new Error(`the deep page by cursor differs from the one at offset ${DEEP}:\n${(err as Error).message}`, { cause: err });
  }
}

/**
 * One load job, then one more request that waits its turn: autocannon drops the connections
 * still waiting when its time is up, but the server goes on answering them, and on the embedded
 * database (one query at a time) that backlog would otherwise slow the next job down.
 */
async function load(runner: LoadRunner, options: LoadOptions): Promise<LoadResult> {
  const r = await runner.run(options);
  if (r.errors || r.timeouts || r.non2xx) {
    throw new Error(`${options.url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers under load`);
  }
  await getJson(options.url, options.headers ?? {});
  if (!r.requests) throw new Error(`${options.url}: no answer within ${options.seconds} s; raise BENCH_SECONDS`);
  return r;
}

/**
 * Every scenario on both targets in turn, in passes (bench-mode.ts). Who goes first alternates
 * from one scenario to the next and from one pass to the next, so a drift during the run (caches,
 * autovacuum, a busy neighbour) does not always favour the same side.
 */
async function measureScenarios(
  database: string,
  targets: Target[],
  headers: Record<string, string>,
  runner: LoadRunner,
  list: Scenario[],
): Promise<Measurement[]> {
  const out: Measurement[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    for (const [i, scenario] of list.entries()) {
      for (const target of (i + pass) % 2 ? [...targets].reverse() : targets) {
        const url = target.base + TAGS_PATH + scenario.query;
        const run = await load(runner, {
          url,
          headers,
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_SECONDS,
          seconds: SECONDS,
        });
        const m = measure(database, scenario.name, target.name, run, pass);
        console.log(
          `  pass ${pass + 1}, ${scenario.name}, ${target.name}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms`,
        );
        out.push(m);
      }
    }
  }
  return out;
}

async function benchDatabase(database: string, databaseUrl: string | undefined, runner: LoadRunner): Promise<Measurement[]> {
  console.log(`\n[${database}] starting Werkbank${databaseUrl ? ` on a fresh database at ${redact(databaseUrl)}` : ''}`);
  const t = await startServer(databaseUrl, { examples: true });
  let peer: ListPeer | undefined;
  try {
    const db = t.server.db.dataSource;
    const [{ id: userId }] = (await db.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
      t.server.config.adminUsername,
    ])) as { id: number }[];
    const started = performance.now();
    await seedTags(db, userId, TAG_COUNT);
    console.log(`  seeded ${TAG_COUNT} tags in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const session = await t.admin();
    const headers = {
      cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': session.csrfToken ?? '',
    };
    const poolSize = (db.options as { extra?: { max?: number } }).extra?.max ?? 10;
    peer = await startListPeer({ connectionString: t.server.db.url, poolSize, userId });
    const ours: Target = { name: OURS, base: t.url };
    const reference: Target = { name: PEER, base: peer.url };
    const list = await scenarios(ours.base, headers);
    await checkSameAnswers(ours, reference, headers, list);

    return await measureScenarios(database, [ours, reference], headers, runner, list);
  } finally {
    await peer?.close();
    await t.close();
  }
}

async function main(): Promise<void> {
  // BENCH_API_STATS=1: the API statistics' cost instead (bench/api-stats-cost.ts, decision 0044).
  if (process.env.BENCH_API_STATS === '1') return apiStatsCost();
  banner(
    'bench/api-list',
    `${os.cpus().length} CPUs · ${TAG_COUNT} tags · ${CONNECTIONS} connections, ${SECONDS} s per target, scenario and pass ` +
      `after ${WARMUP_SECONDS} s warm-up`,
  );
  const runner = new LoadRunner();
  try {
    const measurements = await benchDatabase('embedded', undefined, runner);
    const why = await unreachable(POSTGRES_URL);
    if (why) console.log(`\n[postgresql] not reachable at ${redact(POSTGRES_URL)} (${why}): skipped. Set BENCH_DATABASE_URL.`);
    else measurements.push(...(await benchDatabase('postgresql', POSTGRES_URL, runner)));
    printReport(measurements, {
      first: FIRST,
      deep: [
        { scenario: DEEP_CURSOR, aim: AIM_CURSOR_PAGE_RATIO },
        { scenario: DEEP_CURSOR_NO_COUNT, aim: AIM_CURSOR_PAGE_RATIO },
        { scenario: DEEP_OFFSET },
      ],
    });
  } finally {
    await runner.close();
  }
}

async function apiStatsCost(): Promise<void> {
  const runner = new LoadRunner();
  try {
    const results = [await measureApiStatsCost('embedded', undefined, runner)];
    if (!(await unreachable(POSTGRES_URL))) results.push(await measureApiStatsCost('postgresql', POSTGRES_URL, runner));
    printApiStatsCost(results);
  } finally {
    await runner.close();
  }
}

runBench('bench/api-list', main);
