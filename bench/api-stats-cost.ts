/**
 * The API statistics' cost (issue 19, decision 0044), `BENCH_API_STATS=1 npm run bench`: the tag
 * list's first page with the recording middleware on (component api_stats) and off, in alternating
 * rounds on the same server and connections, plus the middleware's own time per call in-process. Aim: recording
 * costs at most 3 % of the list's throughput.
 */
import { performance } from 'node:perf_hooks';
import { ApiCallRecorder, apiStatsMiddleware } from '@werkbank/server';
import { StaticComponentGate } from '@werkbank/kernel';
import type { TestServer } from '@werkbank/testing/node';
import type { LoadRunner } from './load-runner';
import { TAGS_PATH } from './list-peer-server';
import { startServer } from './bench-server';

export const AIM_API_STATS_COST = 0.03;
const TAG_COUNT = 10_000;
const CONNECTIONS = 10;
/** Alternating rounds per setting, and measured seconds per round (BENCH_SECONDS, default 3). */
const ROUNDS = Number(process.env.BENCH_API_STATS_ROUNDS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

export interface ApiStatsCost {
  database: string;
  withStats: number;
  withoutStats: number;
  /** 1 − with / without (negative: noise in favour of recording). */
  cost: number;
  /** Microseconds the middleware adds per call, measured in-process against it switched off. */
  middlewareMicros: number;
  /** middlewareMicros × the measured req/s: the share of one core the recording takes at that load. */
  cpuShare: number;
  /** Series the server's recorder held before the last flush: proof that the middleware recorded. */
  recordedSeries: number;
}

/** Median of the per-round requests per second. */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * What the middleware adds to one call, without HTTP: a million calls through it with the
 * component on, against a million with it off (the path and gate check only), on a context as the
 * router leaves it, over 200 series as a busy server would see them.
 */
async function middlewareMicros(t: TestServer): Promise<number> {
  const recorder = new ApiCallRecorder(t.server.db.dataSource);
  const next = () => Promise.resolve();
  const run = async (on: boolean) => {
    const middleware = apiStatsMiddleware(recorder, new StaticComponentGate({ api_stats: on }));
    const n = 1_000_000;
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const ctx = {
        path: '/api/v2/backend/tags/',
        status: 200,
        state: { user: { id: i % 10 } },
        _matchedRoute: `/api/v1/kind${i % 20}/:id/`,
      };
      await middleware(ctx as never, next);
    }
    return ((performance.now() - started) * 1000) / n;
  };
  await run(true); // warm-up
  const off = await run(false);
  const on = await run(true);
  return Math.max(0, on - off);
}

export async function measureApiStatsCost(
  database: string,
  databaseUrl: string | undefined,
  runner: LoadRunner,
): Promise<ApiStatsCost> {
  console.log(`\n[${database}] API statistics on and off, ${ROUNDS} rounds of ${SECONDS} s each`);
  const t = await startServer(databaseUrl);
  try {
    const db = t.server.db.dataSource;
    const [{ id: userId }] = (await db.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
      t.server.config.adminUsername,
    ])) as { id: number }[];
    // Tags only: the list's own work is the same with and without recording, which is what matters here.
    await db.query(
      `INSERT INTO werkbank_tag (name, color, icon, intent, created_by, created)
       SELECT 'tag ' || i, '#336699', 'tag', 'user', $1, now() - i * interval '1 minute' FROM generate_series(1, $2::int) AS i`,
      [userId, TAG_COUNT],
    );
    await db.query('VACUUM ANALYZE werkbank_tag');
    const session = await t.admin();
    const headers = {
      cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': session.csrfToken ?? '',
    };
    const gate = t.server.licences.gate;
    const switches = gate.switches();
    const url = `${t.url}${TAGS_PATH}?limit=20`;
    const rates = { on: [] as number[], off: [] as number[] };
    const ratios: number[] = [];
    let recordedSeries = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Which setting goes first alternates, so a drift does not favour one side.
      for (const on of round % 2 ? [false, true] : [true, false]) {
        gate.update({ ...switches, api_stats: on });
        const r = await runner.run({ url, headers, connections: CONNECTIONS, warmupSeconds: 1, seconds: SECONDS });
        if (r.errors || r.timeouts || r.non2xx)
          throw new Error(`${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
        if (on) recordedSeries = Math.max(recordedSeries, t.server.apiCalls.pending);
        rates[on ? 'on' : 'off'].push(r.requests / r.seconds);
        console.log(`  round ${round + 1}, api_stats ${on ? 'on ' : 'off'}: ${(r.requests / r.seconds).toFixed(0)} req/s`);
        await t.server.apiCalls.flush();
      }
      ratios.push(rates.on[round] / rates.off[round]);
    }
    gate.update(switches);
    if (!recordedSeries) throw new Error('the middleware recorded nothing while api_stats was on');
    const withStats = median(rates.on);
    const withoutStats = median(rates.off);
    const micros = await middlewareMicros(t);
    // The cost: 1 − the median of each round's on/off ratio (a pair measured back to back).
    return {
      database,
      withStats,
      withoutStats,
      cost: 1 - median(ratios),
      middlewareMicros: micros,
      cpuShare: (micros * withStats) / 1e6,
      recordedSeries,
    };
  } finally {
    await t.close();
  }
}

/** Prints the comparison and whether the aim is met. */
export function printApiStatsCost(results: ApiStatsCost[]): void {
  console.log('\ndatabase    api_stats on (median)  off (median)  cost (median of pairs)  middleware/call  CPU share  aim ≤ 3 %');
  for (const r of results) {
    console.log(
      `${r.database.padEnd(10)}  ${r.withStats.toFixed(0).padStart(8)} req/s ${r.withoutStats.toFixed(0).padStart(8)} req/s  ` +
        `${(r.cost * 100).toFixed(1).padStart(5)} %  ${r.middlewareMicros.toFixed(2)} µs  ${(r.cpuShare * 100).toFixed(3)} %  ` +
        `${r.cost <= AIM_API_STATS_COST ? 'met' : 'MISSED'}`,
    );
  }
}
