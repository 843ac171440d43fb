import { ApiError, itemsOf, paramOf, type FrameItems, type FunctionInputs, type FunctionRunContext } from '@werkbank/sdk/node';

/** Items handled between two checks of the abort signal (and progress reports) in long loops. */
export const CHUNK = 2000;

/** A failure of a function, with its reason in German and English (`basic-functions:errors.*`). */
export function failure(code: string, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `basic-functions:errors.${code}`, params);
}

/** The shared readers of function inputs (the server's messages): re-exported for this plugin's functions. */
export { itemsOf, paramOf };

/**
 * How many results element-wise work gives: inputs with one item are used with every item; all
 * others must have the same number of items (a failure naming the counts otherwise).
 */
export function broadcastLength(lists: Record<string, FrameItems>): number {
  const lengths = Object.entries(lists).map(([port, items]) => ({ port, n: items.length }));
  const longer = lengths.filter((l) => l.n !== 1);
  if (longer.some((l) => l.n !== longer[0].n)) {
    throw failure('length_mismatch', { counts: lengths.map((l) => `${l.port}: ${l.n}`).join(', ') });
  }
  return longer.length ? longer[0].n : 1;
}

/** Lets other work (and an abort) in between; throws the signal's reason once the run is aborted. */
export async function checkpoint(ctx: FunctionRunContext, done: number, total: number): Promise<void> {
  ctx.signal.throwIfAborted();
  if (total > CHUNK) {
    ctx.progress(Math.min(1, done / total));
    await new Promise((resolve) => setImmediate(resolve));
    ctx.signal.throwIfAborted();
  }
}

/**
 * Calls `fn` for 0..n-1 and collects the results. Every CHUNK items it reports progress, yields
 * to the event loop and throws the signal's reason when the run was aborted.
 */
export async function mapChunked<T>(n: number, ctx: FunctionRunContext, fn: (i: number) => T): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  for (let start = 0; start < n; start += CHUNK) {
    await checkpoint(ctx, start, n);
    const end = Math.min(n, start + CHUNK);
    for (let i = start; i < end; i++) out[i] = fn(i);
  }
  if (n > CHUNK) ctx.progress(1);
  return out;
}

/** Keeps the items `keep` accepts, checking the signal like mapChunked. */
export async function filterChunked(items: FrameItems, ctx: FunctionRunContext, keep: (item: FrameItems[number]) => boolean) {
  const flags = await mapChunked(items.length, ctx, (i) => keep(items[i]));
  return items.filter((_, i) => flags[i]);
}

type Kind = 'number' | 'string' | 'boolean';
type KindOf<K extends Kind> = K extends 'number' ? number : K extends 'string' ? string : boolean;
const KIND_ERRORS: Record<Kind, string> = { number: 'not_a_number', string: 'not_a_string', boolean: 'not_a_bool' };

/** The item's `value`, checked to be of `kind`; a failure naming `port[i]` otherwise. */
export function valueOf<K extends Kind>(item: FrameItems[number] | undefined, kind: K, port: string, i: number): KindOf<K> {
  const value = item?.value;
  if (typeof value !== kind || (kind === 'number' && !Number.isFinite(value))) {
    throw failure(KIND_ERRORS[kind], { item: `${port}[${i}]` });
  }
  return value as KindOf<K>;
}

/**
 * Element-wise over the ports' items (one-item inputs broadcast): `fn` gets each port's value at
 * the position, checked to be of the port's kind, and returns the result's `value`. An unset port
 * uses its entry in `defaults` as one item.
 */
export async function elementWise<P extends Record<string, Kind>, R>(
  inputs: FunctionInputs,
  ports: P,
  ctx: FunctionRunContext,
  fn: (values: { [K in keyof P]: KindOf<P[K]> }, i: number) => R,
  defaults: Partial<Record<keyof P, unknown>> = {},
): Promise<FrameItems> {
  const names = Object.keys(ports);
  const lists: Record<string, FrameItems> = {};
  for (const p of names) {
    const fallback = defaults[p];
    lists[p] = inputs[p] === undefined && fallback !== undefined ? [{ value: fallback }] : itemsOf(inputs, p);
  }
  const n = broadcastLength(lists);
  if (names.some((p) => lists[p].length === 0)) return [];
  return mapChunked(n, ctx, (i) => {
    const values: Record<string, unknown> = {};
    for (const p of names) {
      const one = lists[p].length === 1;
      values[p] = valueOf(one ? lists[p][0] : lists[p][i], ports[p], p, one ? 0 : i);
    }
    return { value: fn(values as { [K in keyof P]: KindOf<P[K]> }, i) };
  });
}
