import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the old generation grow over the live heap before its next full collection (decision 0094). */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

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
