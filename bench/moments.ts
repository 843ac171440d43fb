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

const HISTORY: Omit<HistoryOptions, 'concurrency'> = {
  datums: 100_000,
  batch: 1000,
  rounds: 4,
  patches: 1000,
  deletes: 500,
  adds: 500,
};
/**
 * Single-datum writes in flight. One on the embedded database: with several, pglite-socket mixes
 * the extended-protocol messages of different connections (electric-sql/pglite#977) and requests
 * fail with `portal "" does not exist` or a spurious 401. PGlite runs one query at a time anyway.
 */
const CONCURRENCY = { embedded: 1, postgresql: 4 };
const PAGE = 1000;
/** Full reads of each snapshot; old and head take turns (old, head, head, old, ...). */
const READS = Number(process.env.BENCH_READS ?? 3);
if (!(READS >= 1)) throw new Error(`BENCH_READS must be at least 1, not ${process.env.BENCH_READS}`);
/** Aim of the requirement (bench/README.md): an old moment reads at most this much slower than the head. */
const AIM_OLD_RATIO = 1.5;

interface Read {
  ms: number;
  firstPageMs: number;
  lastPageMs: number;
}

interface Result {
  database: string;
  old: Read;
  head: Read;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

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
      old: { path: `/api/v1/datum/by-moment/${h.oldMoment}/`, expected: h.old, reads: [] as Read[] },
      head: { path: `/api/v1/datum/by-depot/${h.depotId}/`, expected: h.current, reads: [] as Read[] },
    };
    for (let i = 0; i < READS * 2; i++) {
      const which = (i % 4 === 0 || i % 4 === 3 ? 'old' : 'head') as keyof typeof targets;
      const target = targets[which];
      const read = await readAll(client, target.path, target.expected);
      target.reads.push(read);
      console.log(
        `  read ${which}: ${(read.ms / 1000).toFixed(2)} s (page 1 ${read.firstPageMs.toFixed(0)} ms, last ${read.lastPageMs.toFixed(0)} ms)`,
      );
    }
    const summary = (reads: Read[]): Read => ({
      ms: median(reads.map((r) => r.ms)),
      firstPageMs: median(reads.map((r) => r.firstPageMs)),
      lastPageMs: median(reads.map((r) => r.lastPageMs)),
    });
    return { database, old: summary(targets.old.reads), head: summary(targets.head.reads) };
  } finally {
    await t.close();
  }
}

function printReport(results: Result[]): number {
  let missed = 0;
  console.log(`\nMedians of ${READS} full reads each (${HISTORY.datums / PAGE} pages of ${PAGE})`);
  const rows = [['database', 'snapshot', 'full read s', 'first page ms', 'last page ms']];
  for (const r of results) {
    for (const [name, read] of [
      ['old moment', r.old],
      ['head', r.head],
    ] as const) {
      rows.push([r.database, name, (read.ms / 1000).toFixed(2), read.firstPageMs.toFixed(0), read.lastPageMs.toFixed(0)]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  console.log(rows.map((row) => row.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n'));
  console.log('');
  for (const r of results) {
    const ratio = r.old.ms / r.head.ms;
    const met = ratio <= AIM_OLD_RATIO;
    if (!met) missed++;
    console.log(
      `${r.database}: old moment / head, full read: ${ratio.toFixed(2)} (aim <= ${AIM_OLD_RATIO}) ${met ? 'met' : 'MISSED'}`,
    );
  }
  console.log(missed ? `\n${missed} aim(s) missed (a benchmark: the exit code stays 0).` : '\nAll aims met.');
  return missed;
}

async function main(): Promise<void> {
  console.log(`bench/moments ${new Date().toISOString()} · node ${process.version} · ${os.cpus().length} CPUs`);
  const results = [await benchDatabase('embedded', undefined)];
  const why = await unreachable(POSTGRES_URL);
  if (why) console.log(`\n[postgresql] not reachable at ${redact(POSTGRES_URL)} (${why}): skipped. Set BENCH_DATABASE_URL.`);
  else results.push(await benchDatabase('postgresql', POSTGRES_URL));
  printReport(results);
}

main().catch((err: unknown) => {
  console.error(`\nbench/moments failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
