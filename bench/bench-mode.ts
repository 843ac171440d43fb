/**
 * What every bench shares (bench/README.md, "Modes"): the smoke mode, the passes, the median with
 * its spread, and judging aims on the median.
 *
 * - **Full** (the default): at least 5 passes (`BENCH_PASSES`), each pass runs every target once;
 *   who goes first alternates from one pass to the next, so a drift (a busy neighbour) does not
 *   always hit the same target. Each figure is printed as median with min and max; an aim is judged
 *   on the median (of the per-pass ratio where the aim is a ratio), and a missed aim prints
 *   `MISSED` with exit code 0.
 * - **Smoke** (`BENCH_SMOKE=1` or `--smoke`): tiny data, about a second per scenario, 2 passes, aims
 *   printed but not judged. The bench still fails (exit 1) when it breaks: an error, or answers
 *   that differ from the peer's or from the expected data. `.ci/run` runs every bench this way.
 */

export const SMOKE = process.env.BENCH_SMOKE === '1' || process.argv.includes('--smoke');

/** Passes in full mode at least (issue 20). */
export const MIN_FULL_PASSES = 5;

function passesFromEnv(): number {
  const raw = process.env.BENCH_PASSES;
  if (raw === undefined || raw === '') return SMOKE ? 2 : MIN_FULL_PASSES;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_PASSES must be a whole number of at least 1, not ${raw}`);
  if (!SMOKE && n < MIN_FULL_PASSES) throw new Error(`a full run needs at least ${MIN_FULL_PASSES} passes, not ${n}`);
  return n;
}

/** Passes per target: BENCH_PASSES, by default 5 (full) or 2 (smoke). */
export const PASSES = passesFromEnv();

/** `full` normally, `smoke` in smoke mode; an environment variable (when set) overrides both. */
export function sized(envName: string, full: number, smoke: number): number {
  const raw = process.env[envName];
  if (raw === undefined || raw === '') return SMOKE ? smoke : full;
  const n = Number(raw);
  if (!(n > 0)) throw new Error(`${envName} must be a positive number, not ${raw}`);
  return n;
}

/** A figure over several passes. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function spread(xs: number[]): Spread {
  if (!xs.length) return { median: NaN, min: NaN, max: NaN, n: 0 };
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

/** Digits that suit the size of a number: 1234, 12.3, 1.23, 0.123. */
export function num(x: number, digits?: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (digits !== undefined) return x.toFixed(digits);
  const a = Math.abs(x);
  return x.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

/** "median (min–max)". */
export function fmt(s: Spread, digits?: number): string {
  return s.n > 1 ? `${num(s.median, digits)} (${num(s.min, digits)}–${num(s.max, digits)})` : num(s.median, digits);
}

/**
 * Runs `passes` passes; in each, every target once through `run`. Odd passes take the targets in
 * reverse order. Returns each target's results in pass order.
 */
export async function alternating<T>(
  targets: readonly string[],
  run: (target: string, pass: number) => Promise<T>,
  passes = PASSES,
): Promise<Map<string, T[]>> {
  const results = new Map<string, T[]>(targets.map((t) => [t, []]));
  for (let pass = 0; pass < passes; pass++) {
    const order = pass % 2 ? [...targets].reverse() : targets;
    for (const target of order) results.get(target)!.push(await run(target, pass));
  }
  return results;
}

/** Per-pass ratios a[i] / b[i] (the passes pair the targets in time). */
export function ratios(a: number[], b: number[]): number[] {
  if (a.length !== b.length) throw new Error(`cannot pair ${a.length} passes with ${b.length}`);
  return a.map((x, i) => x / b[i]);
}

export interface Aim {
  what: string;
  /** The figure the aim is judged on: its median. */
  value: Spread;
  /** e.g. ">= 0.8" */
  aim: string;
  met: (median: number) => boolean;
  digits?: number;
}

/**
 * Prints each aim with the median and spread of its figure: met or MISSED (full mode), or
 * "not judged" (smoke). Returns the number of missed aims (0 in smoke mode).
 */
export function judge(aims: Aim[]): number {
  let missed = 0;
  console.log(SMOKE ? '\nAims (smoke mode: printed, not judged)' : `\nAims, judged on the median of ${PASSES} passes`);
  for (const a of aims) {
    const met = a.met(a.value.median);
    if (!SMOKE && !met) missed++;
    const verdict = SMOKE ? 'not judged' : met ? 'met' : 'MISSED';
    console.log(`  ${a.what}: ${fmt(a.value, a.digits)} (aim ${a.aim}) ${verdict}`);
  }
  if (!SMOKE) console.log(missed ? `${missed} aim(s) missed (a benchmark: the exit code stays 0).` : 'All aims met.');
  return missed;
}

/** The line every bench starts with: name, time, mode. */
export function banner(name: string, extra = ''): void {
  console.log(
    `${name} ${new Date().toISOString()} · node ${process.version} · ` +
      `${SMOKE ? `SMOKE mode (tiny data, ${PASSES} passes, aims not judged)` : `${PASSES} passes`}${extra ? ` · ${extra}` : ''}`,
  );
}

/**
 * Runs a bench's main: any error prints and sets exit code 1. A bench that still has something open
 * (a timer, a socket) 30 s after it finished or failed exits anyway, so it cannot hang CI.
 */
export function runBench(name: string, main: () => Promise<void>): void {
  main().then(
    () => {
      // A bench that finished but left something open (a keep-alive socket, a pool) must not hold
      // the machine (or the heavy-work lock) either.
      setTimeout(() => {
        console.error(`${name}: still running 30 s after finishing; exiting`);
        process.exit(process.exitCode ?? 0);
      }, 30_000).unref();
    },
    (err: unknown) => {
      console.error(`\n${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exitCode = 1;
      setTimeout(() => {
        console.error(`${name}: still running 30 s after failing; exiting`);
        process.exit(1);
      }, 30_000).unref();
    },
  );
}

/** Prints a table: first `left` columns left-aligned, the rest right-aligned. */
export function table(rows: string[][], left = 1): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}
