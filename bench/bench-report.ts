import type { LoadResult } from './load-runner';

export const OURS = 'werkbank';
export const PEER = 'pg peer';

/** One row of the table: one target under load on one scenario. */
export interface Measurement {
  database: string;
  scenario: string;
  target: string;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
}

/** Aims of the requirement (bench/README.md). */
export const AIM_THROUGHPUT_RATIO = 0.5;
/** A page deep in the list by cursor (issue 15): at most this many times the first page's p50. */
export const AIM_CURSOR_PAGE_RATIO = 1.2;

/** A deep page compared with the first; without an aim it is printed for reference. */
export interface DeepComparison {
  scenario: string;
  aim?: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Requests per second over the measured window; percentiles over every response in it. */
export function measure(database: string, scenario: string, target: string, run: LoadResult): Measurement {
  const latencies = [...run.latencies].sort((a, b) => a - b);
  return {
    database,
    scenario,
    target,
    requests: run.requests,
    requestsPerSecond: run.requests / run.seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const numeric = (cell: string) => /^[\d.]+$/.test(cell);
  return rows
    .map((r) => r.map((cell, i) => (numeric(cell) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '))
    .join('\n');
}

const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

/** Prints the table, then the ratios with whether each aim is met. Returns the number of missed aims. */
export function printReport(measurements: Measurement[], scenarios: { first: string; deep: DeepComparison[] }): number {
  console.log(
    '\n' +
      table([
        ['database', 'scenario', 'target', 'req/s', 'p50 ms', 'p95 ms', 'requests'],
        ...measurements.map((m) => [
          m.database,
          m.scenario,
          m.target,
          m.requestsPerSecond.toFixed(0),
          m.p50.toFixed(1),
          m.p95.toFixed(1),
          String(m.requests),
        ]),
      ]),
  );
  const find = (database: string, scenario: string, target: string) =>
    measurements.find((m) => m.database === database && m.scenario === scenario && m.target === target);
  let missed = 0;
  const throughput: string[][] = [['database', 'scenario', `${OURS}/${PEER} req/s`, `aim >= ${AIM_THROUGHPUT_RATIO}`]];
  const deep: string[][] = [['database', 'scenario', 'target', `p50 deep/${scenarios.first}`, 'aim']];
  for (const database of [...new Set(measurements.map((m) => m.database))]) {
    for (const scenario of [...new Set(measurements.map((m) => m.scenario))]) {
      const ours = find(database, scenario, OURS);
      const peer = find(database, scenario, PEER);
      if (!ours || !peer) continue;
      const ratio = ours.requestsPerSecond / peer.requestsPerSecond;
      if (ratio < AIM_THROUGHPUT_RATIO) missed++;
      throughput.push([database, scenario, ratio.toFixed(2), verdict(ratio >= AIM_THROUGHPUT_RATIO)]);
    }
    for (const { scenario, aim } of scenarios.deep) {
      for (const target of [OURS, PEER]) {
        const first = find(database, scenarios.first, target);
        const deepPage = find(database, scenario, target);
        if (!first || !deepPage) continue;
        const ratio = deepPage.p50 / first.p50;
        // The aim is Werkbank's; the peer's ratio shows what the database alone makes of the query.
        const judged = target === OURS && aim !== undefined;
        if (judged && ratio > aim) missed++;
        deep.push([database, scenario, target, ratio.toFixed(2), judged ? `<= ${aim} ${verdict(ratio <= aim)}` : '(reference)']);
      }
    }
  }
  console.log('\nThroughput, ours per the minimal handler\n' + table(throughput));
  console.log('\nDeep page against first page, p50 latency\n' + table(deep));
  console.log(missed ? `\n${missed} aim(s) missed (a benchmark: the exit code stays 0).` : '\nAll aims met.');
  return missed;
}
