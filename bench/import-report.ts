import type { PeerRun } from './import-peers';
import { fmt, judge, median, ratios, spread, table, type Aim } from './bench-mode';

/** Aims of issue 15 (bench/README.md): ogr2ogr into PostGIS with its spatial index is the peer. */
export const AIM_OGR_RATIO = 1.2;
export const AIM_COPY_RATIO = 3;
export const AIM_PEAK_RSS = 500 * 1024 * 1024;

/** One input loaded three ways into the same PostgreSQL, once per pass each. */
export interface ImportResult {
  dataset: string;
  rows: number;
  bytes: number;
  werkbank: Array<PeerRun & { rssBefore: number }>;
  /** The same import on the embedded database (PGlite), when measured; no aim, shown beside. */
  embedded?: Array<PeerRun & { rssBefore: number }>;
  ogr2ogr: PeerRun[];
  copy: PeerRun[];
}

const MiB = 1024 * 1024;

/** Prints the table (median, min–max), the per-pass ratios and the peak RSS, judged on the median. Returns the number of missed aims. */
export function printImportReport(results: ImportResult[]): number {
  const rows = [['dataset', 'target', 'rows', 's', 'rows/s', 'peak RSS MiB']];
  for (const r of results) {
    for (const [target, runs] of [
      ['werkbank depot.import_file', r.werkbank],
      ['ogr2ogr PG_USE_COPY', r.ogr2ogr],
      ['psql \\copy (raw)', r.copy],
      ...(r.embedded ? ([['werkbank embedded (PGlite)', r.embedded]] as const) : []),
    ] as const) {
      rows.push([
        r.dataset,
        target,
        r.rows.toLocaleString('en-US'),
        fmt(spread(runs.map((x) => x.ms / 1000)), 1),
        fmt(spread(runs.map((x) => r.rows / (x.ms / 1000))), 0),
        fmt(spread(runs.map((x) => x.peakRss / MiB)), 0),
      ]);
    }
  }
  console.log(`\nMedian (min–max) of ${results[0]?.werkbank.length ?? 0} passes\n${table(rows, 2)}`);
  printCpu(results);
  const aims: Aim[] = [];
  for (const r of results) {
    const ms = (runs: PeerRun[]) => runs.map((x) => x.ms);
    aims.push(
      {
        what: `${r.dataset}: werkbank time / ogr2ogr time`,
        value: spread(ratios(ms(r.werkbank), ms(r.ogr2ogr))),
        aim: `<= ${AIM_OGR_RATIO}`,
        met: (m) => m <= AIM_OGR_RATIO,
        digits: 2,
      },
      {
        what: `${r.dataset}: werkbank time / raw COPY time`,
        value: spread(ratios(ms(r.werkbank), ms(r.copy))),
        aim: `<= ${AIM_COPY_RATIO}`,
        met: (m) => m <= AIM_COPY_RATIO,
        digits: 2,
      },
      {
        what: `${r.dataset}: werkbank peak RSS during the import, MiB (${(r.bytes / MiB).toFixed(0)} MiB file; ${fmt(spread(r.werkbank.map((x) => x.rssBefore / MiB)), 0)} MiB before)`,
        value: spread(r.werkbank.map((x) => x.peakRss / MiB)),
        aim: `< ${AIM_PEAK_RSS / MiB}`,
        met: (m) => m < AIM_PEAK_RSS / MiB,
        digits: 0,
      },
    );
    if (r.embedded) {
      const e = ms(r.embedded);
      console.log(
        `${r.dataset}: embedded (PGlite) time / ogr2ogr time (medians): ${(median(e) / median(ms(r.ogr2ogr))).toFixed(2)}, ` +
          `/ raw COPY time: ${(median(e) / median(ms(r.copy))).toFixed(2)}, peak RSS ${fmt(spread(r.embedded.map((x) => x.peakRss / MiB)), 0)} MiB (no aim)`,
      );
    }
  }
  return judge(aims);
}

/**
 * CPU seconds (user + system) of each target on PostgreSQL: its own process (Werkbank: this one,
 * all threads) and the database backends serving it, with the ratio of the totals per pass. No aim:
 * it shows how much work each does, which a busy shared machine disturbs much less than wall time.
 */
function printCpu(results: ImportResult[]): void {
  const s = (ms: number | undefined) => (ms ?? 0) / 1000;
  const rows = [['dataset', 'target', 'process s', 'PostgreSQL s', 'total s']];
  for (const r of results) {
    for (const [target, runs] of [
      ['werkbank', r.werkbank],
      ['ogr2ogr', r.ogr2ogr],
      ['raw COPY', r.copy],
    ] as const) {
      rows.push([
        r.dataset,
        target,
        fmt(spread(runs.map((x) => s(x.cpuMs))), 1),
        fmt(spread(runs.map((x) => s(x.pgCpuMs))), 1),
        fmt(spread(runs.map((x) => s(x.cpuMs) + s(x.pgCpuMs))), 1),
      ]);
    }
  }
  console.log(`\nCPU time, median (min–max)\n${table(rows, 2)}`);
  for (const r of results) {
    const total = (runs: PeerRun[]) => runs.map((x) => s(x.cpuMs) + s(x.pgCpuMs));
    console.log(
      `${r.dataset}: werkbank CPU / ogr2ogr CPU ${fmt(spread(ratios(total(r.werkbank), total(r.ogr2ogr))), 2)}, ` +
        `/ raw COPY CPU ${fmt(spread(ratios(total(r.werkbank), total(r.copy))), 2)} (no aim)`,
    );
  }
}
