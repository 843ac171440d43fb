import type { PeerRun } from './import-peers';

/** Aims of issue 15 (bench/README.md): ogr2ogr into PostGIS with its spatial index is the peer. */
export const AIM_OGR_RATIO = 1.2;
export const AIM_COPY_RATIO = 3;
export const AIM_PEAK_RSS = 500 * 1024 * 1024;

/** One input loaded three ways into the same PostgreSQL. */
export interface ImportResult {
  dataset: string;
  rows: number;
  bytes: number;
  werkbank: PeerRun & { rssBefore: number };
  /** The same import on the embedded database (PGlite), when measured; no aim, shown beside. */
  embedded?: PeerRun & { rssBefore: number };
  ogr2ogr: PeerRun;
  copy: PeerRun;
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const perSecond = (rows: number, ms: number) => Math.round(rows / (ms / 1000)).toLocaleString('en-US');

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')).join('\n');
}

/** Prints the table, the ratios and the peak RSS with whether each aim is met. Returns the number of missed aims. */
export function printImportReport(results: ImportResult[]): number {
  const rows = [['dataset', 'target', 'rows', 's', 'rows/s', 'peak RSS MiB']];
  for (const r of results) {
    for (const [target, run] of [
      ['werkbank depot.import_file', r.werkbank],
      ['ogr2ogr PG_USE_COPY', r.ogr2ogr],
      ['psql \\copy (raw)', r.copy],
      ...(r.embedded ? ([['werkbank embedded (PGlite)', r.embedded]] as const) : []),
    ] as const) {
      rows.push([
        r.dataset,
        target,
        r.rows.toLocaleString('en-US'),
        seconds(run.ms),
        perSecond(r.rows, run.ms),
        mib(run.peakRss),
      ]);
    }
  }
  console.log(`\n${table(rows)}\n`);
  let missed = 0;
  const aim = (label: string, value: string, limit: string, met: boolean) => {
    if (!met) missed++;
    console.log(`${label}: ${value} (aim <= ${limit}) ${met ? 'met' : 'MISSED'}`);
  };
  for (const r of results) {
    const ogr = r.werkbank.ms / r.ogr2ogr.ms;
    const copy = r.werkbank.ms / r.copy.ms;
    aim(`${r.dataset}: werkbank time / ogr2ogr time`, ogr.toFixed(2), String(AIM_OGR_RATIO), ogr <= AIM_OGR_RATIO);
    aim(`${r.dataset}: werkbank time / raw COPY time`, copy.toFixed(2), String(AIM_COPY_RATIO), copy <= AIM_COPY_RATIO);
    aim(
      `${r.dataset}: werkbank peak RSS during the import (${mib(r.bytes)} MiB file; ${mib(r.werkbank.rssBefore)} MiB before)`,
      `${mib(r.werkbank.peakRss)} MiB`,
      `${mib(AIM_PEAK_RSS)} MiB`,
      r.werkbank.peakRss < AIM_PEAK_RSS,
    );
    if (r.embedded) {
      console.log(
        `${r.dataset}: embedded (PGlite) time / ogr2ogr time: ${(r.embedded.ms / r.ogr2ogr.ms).toFixed(2)}, ` +
          `/ raw COPY time: ${(r.embedded.ms / r.copy.ms).toFixed(2)}, peak RSS ${mib(r.embedded.peakRss)} MiB ` +
          `(${mib(r.embedded.rssBefore)} MiB before; no aim)`,
      );
    }
  }
  console.log(missed ? `\n${missed} aim(s) missed (a benchmark: the exit code stays 0).` : '\nAll aims met.');
  return missed;
}
