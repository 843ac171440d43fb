/**
 * bench/moments: reading a whole depot of 100,000 datums (pages of 1000) as it was at an old
 * moment, against reading it at the head, after several moments of changes, in the same run and
 * on the same server. Embedded database always, PostgreSQL when reachable.
 * `npm run bench:moments`; see bench/README.md.
 */
import { deepStrictEqual } from 'node:assert/strict';
import os from 'node:os';
import type { TestClient } from '@werkbank/testing/node';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { buildHistory, type HistoryOptions, type Snapshot } from './moment-history';
import { alternating, banner, fmt, judge, PASSES, ratios, runBench, SMOKE, spread, table } from './bench-mode';

/** Smoke: 2,000 datums, two small rounds. */
const HISTORY: Omit<HistoryOptions, 'concurrency'> = SMOKE
  ? { datums: 2000, batch: 1000, rounds: 2, patches: 20, deletes: 10, adds: 10 }
  : { datums: 100_000, batch: 1000, rounds: 4, patches: 1000, deletes: 500, adds: 500 };
/**
 * Single-datum writes in flight. One on the embedded database: with several, pglite-socket mixes
 * the extended-protocol messages of different connections (electric-sql/pglite#977) and requests
 * fail with `portal "" does not exist` or a spurious 401. PGlite runs one query at a time anyway.
 */
const CONCURRENCY = { embedded: 1, postgresql: 4 };
const PAGE = 1000;
/** Full reads of each snapshot (passes); old and head take turns (old, head, head, old, ...). */
const READS = PASSES;
/** Aim of the requirement (bench/README.md): an old moment reads at most this much slower than the head. */
const AIM_OLD_RATIO = 1.5;

interface Read {
  ms: number;
  firstPageMs: number;
  lastPageMs: number;
}

interface Result {
  database: string;
  old: Read[];
  head: Read[];
}

/** Every page of a snapshot at `path`, checked against the model; fails on any difference. */
async function readAll(client: TestClient, path: string, expected: Snapshot): Promise<Read> {
  const ids: number[] = [];
  const values: number[] = [];
  const pageMs: number[] = [];
  const started = performance.now();
  // Keyset paging (?after=): every page costs the same, old moment or head.
  for (let after: number | null = null; ;) {
    const t = performance.now();
    const res = await client.get(`${path}?limit=${PAGE}${after !== null ? `&after=${after}` : ''}`);
    pageMs.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`GET ${path} after ${after} answered ${res.status}: ${JSON.stringify(res.body)}`);
    for (const d of res.body.objects as Array<{ id: number; value: number }>) {
      ids.push(d.id);
      values.push(d.value);
    }
    after = res.body.meta.next_after as number | null;
    if (after === null) break;
  }
  const ms = performance.now() - started;
  try {
    deepStrictEqual({ count: ids.length, ids, values }, { count: expected.ids.length, ...expected });
  } catch (err) {
    throw new Error(`${path} did not read the snapshot the writes made:\n${(err as Error).message.slice(0, 2000)}`, {
      cause: err,
    });
  }
  return { ms, firstPageMs: pageMs[0], lastPageMs: pageMs[pageMs.length - 1] };
}

async function benchDatabase(database: keyof typeof CONCURRENCY, databaseUrl: string | undefined): Promise<Result> {
  console.log(`\n[${database}] starting Werkbank${databaseUrl ? ` on a fresh database at ${redact(databaseUrl)}` : ''}`);
  const t = await startServer(databaseUrl);
  try {
    const client = await t.admin();
    const h = await buildHistory(client, { ...HISTORY, concurrency: CONCURRENCY[database] }, (line) => console.log(`  ${line}`));
    const now = new Map(h.current.ids.map((id, i) => [id, h.current.values[i]]));
    const changed = h.old.ids.filter((id, i) => now.get(id) !== h.old.values[i]).length;
    console.log(`  moment ${h.oldMoment} and head ${h.head} differ in ${changed} of ${h.old.ids.length} datums`);
    const targets = {
      old: { path: `/api/v1/datum/by-moment/${h.oldMoment}/`, expected: h.old },
      head: { path: `/api/v1/datum/by-depot/${h.depotId}/`, expected: h.current },
    };
    const reads = await alternating(['old', 'head'], async (which, pass) => {
      const target = targets[which as keyof typeof targets];
      const read = await readAll(client, target.path, target.expected);
      console.log(
        `  pass ${pass + 1}, read ${which}: ${(read.ms / 1000).toFixed(2)} s (page 1 ${read.firstPageMs.toFixed(0)} ms, last ${read.lastPageMs.toFixed(0)} ms)`,
      );
      return read;
    });
    return { database, old: reads.get('old')!, head: reads.get('head')! };
  } finally {
    await t.close();
  }
}

function printReport(results: Result[]): number {
  console.log(`\nMedian (min–max) of ${READS} full reads each (${HISTORY.datums / PAGE} pages of ${PAGE})`);
  const rows = [['database', 'snapshot', 'full read s', 'first page ms', 'last page ms']];
  for (const r of results) {
    for (const [name, reads] of [
      ['old moment', r.old],
      ['head', r.head],
    ] as const) {
      rows.push([
        r.database,
        name,
        fmt(spread(reads.map((x) => x.ms / 1000)), 2),
        fmt(spread(reads.map((x) => x.firstPageMs)), 0),
        fmt(spread(reads.map((x) => x.lastPageMs)), 0),
      ]);
    }
  }
  console.log(table(rows, 2));
  return judge(
    results.map((r) => ({
      what: `${r.database}: old moment / head, full read (per pass)`,
      value: spread(
        ratios(
          r.old.map((x) => x.ms),
          r.head.map((x) => x.ms),
        ),
      ),
      aim: `<= ${AIM_OLD_RATIO}`,
      met: (m: number) => m <= AIM_OLD_RATIO,
      digits: 2,
    })),
  );
}

async function main(): Promise<void> {
  banner('bench/moments', `${os.cpus().length} CPUs`);
  const results = [await benchDatabase('embedded', undefined)];
  const why = await unreachable(POSTGRES_URL);
  if (why) console.log(`\n[postgresql] not reachable at ${redact(POSTGRES_URL)} (${why}): skipped. Set BENCH_DATABASE_URL.`);
  else results.push(await benchDatabase('postgresql', POSTGRES_URL));
  printReport(results);
}

runBench('bench/moments', main);
