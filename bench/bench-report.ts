import type { LoadResult } from './load-runner';
import { fmt, judge, ratios, spread, table, type Aim } from './bench-mode';

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
  /** Which pass (bench-mode.ts) it was measured in. */
  pass: number;
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
export function measure(database: string, scenario: string, target: string, run: LoadResult, pass = 0): Measurement {
  const latencies = [...run.latencies].sort((a, b) => a - b);
  return {
    database,
    scenario,
    target,
    requests: run.requests,
    requestsPerSecond: run.requests / run.seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    pass,
  };
}

/**
 * Prints the table (median, min–max over the passes), then the ratios per pass with whether the
 * median meets each aim. Returns the number of missed aims.
 */
export function printReport(measurements: Measurement[], scenarios: { first: string; deep: DeepComparison[] }): number {
  const passes = Math.max(...measurements.map((m) => m.pass)) + 1;
  const of = (database: string, scenario: string, target: string) =>
    measurements
      .filter((m) => m.database === database && m.scenario === scenario && m.target === target)
      .sort((a, b) => a.pass - b.pass);
  const keys = [...new Map(measurements.map((m) => [`${m.database}|${m.scenario}|${m.target}`, m])).values()];
  console.log(
    `\nMedian (min–max) of ${passes} passes\n` +
      table(
        [
          ['database', 'scenario', 'target', 'req/s', 'p50 ms', 'p95 ms', 'requests'],
          ...keys.map(({ database, scenario, target }) => {
            const ms = of(database, scenario, target);
            return [
              database,
              scenario,
              target,
              fmt(spread(ms.map((m) => m.requestsPerSecond)), 0),
              fmt(spread(ms.map((m) => m.p50)), 1),
              fmt(spread(ms.map((m) => m.p95)), 1),
              String(ms.reduce((n, m) => n + m.requests, 0)),
            ];
          }),
        ],
        3,
      ),
  );
  const aims: Aim[] = [];
  const reference: string[][] = [['database', 'scenario', 'target', `p50 / ${scenarios.first}, per pass`]];
  for (const database of [...new Set(measurements.map((m) => m.database))]) {
    for (const scenario of [...new Set(measurements.map((m) => m.scenario))]) {
      const ours = of(database, scenario, OURS);
      const peer = of(database, scenario, PEER);
      if (!ours.length || ours.length !== peer.length) continue;
      aims.push({
        what: `${database}, ${scenario}: ${OURS}/${PEER} req/s`,
        value: spread(
          ratios(
            ours.map((m) => m.requestsPerSecond),
            peer.map((m) => m.requestsPerSecond),
          ),
        ),
        aim: `>= ${AIM_THROUGHPUT_RATIO}`,
        met: (x) => x >= AIM_THROUGHPUT_RATIO,
        digits: 2,
      });
    }
    for (const { scenario, aim } of scenarios.deep) {
      for (const target of [OURS, PEER]) {
        const first = of(database, scenarios.first, target);
        const deepPage = of(database, scenario, target);
        if (!first.length || first.length !== deepPage.length) continue;
        const value = spread(
          ratios(
            deepPage.map((m) => m.p50),
            first.map((m) => m.p50),
          ),
        );
        // The aim is Werkbank's; the peer's ratio shows what the database alone makes of the query.
        if (target === OURS && aim !== undefined) {
          aims.push({
            what: `${database}, p50 ${scenario} / ${scenarios.first}`,
            value,
            aim: `<= ${aim}`,
            met: (x) => x <= aim,
            digits: 2,
          });
        } else reference.push([database, scenario, target, fmt(value, 2)]);
      }
    }
  }
  console.log('\nFor reference\n' + table(reference, 3));
  return judge(aims);
}
