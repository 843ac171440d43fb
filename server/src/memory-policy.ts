import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the old generation grow over the live heap before its next full collection (decision 0094). */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/**
 * The size (MiB) of each of V8's young-generation semi-spaces the server's processes start with
 * (decision 0094, amendment of 2026-11-28): twice V8's own 16. Short-lived objects (an import's
 * rows, a request's) then die before a young-generation collection copies them, which cut an
 * import's CPU by a sixth (bench/import). V8 reads it only at start, so it is a flag of the
 * node process: the start scripts in package.json pass SERVER_NODE_FLAGS, and so do the
 * benchmarks that run a server in their own process.
 */
export const SEMI_SPACE_MB = 32;

/** The node flags the server's processes start with (package.json start and worker; bench/smoke). */
export const SERVER_NODE_FLAGS = [`--max-semi-space-size=${SEMI_SPACE_MB}`] as const;

/**
 * The semi-space size (MiB) this process was started with: the last `--max-semi-space-size` of
 * NODE_OPTIONS and then the command line (the later wins), or undefined for V8's own.
 */
export function semiSpaceInEffect(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): number | undefined {
  let mb: number | undefined;
  for (const arg of [...nodeOptions.split(/\s+/), ...execArgv]) {
    const m = /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(arg);
    if (m) mb = Number(m[1]);
  }
  return mb;
}

/**
 * The server's garbage-collection policy (decision 0094): V8 by default lets the old generation
 * grow to several times the live heap before it collects it, so a long import whose live heap is
 * flat still raised the process's memory by hundreds of MiB. `HEAP_GROWING_PERCENT` (default 100;
 * 0 keeps V8's own policy) bounds that growth. Returns the percentage in force (0: V8's own).
 */
export function applyMemoryPolicy(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HEAP_GROWING_PERCENT;
  const percent = raw === undefined || raw === '' ? DEFAULT_HEAP_GROWING_PERCENT : Number(raw);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000)
    throw new Error(`HEAP_GROWING_PERCENT must be a whole number from 0 to 1000, not '${raw}'.`);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
