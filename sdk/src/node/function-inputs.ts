import type { FrameItems, FunctionInputs, FunctionRunContext } from './function-contribution';
import { ApiError } from './api-error';

/** Items a long loop handles between two checks of the abort signal (and progress reports). */
export const FUNCTION_CHUNK = 2000;

const fail = (code: string, params: Record<string, unknown>) => ApiError.badRequest(code, `errors.function_${code}`, params);

/**
 * The items linked to a plain input port of a function; [] when it is unset. A dict port (item
 * lists by key) fails `list_expected`, naming the port, in the user's language.
 */
export function itemsOf(inputs: FunctionInputs, port: string): FrameItems {
  const items = inputs[port];
  if (items === undefined) return [];
  if (!Array.isArray(items)) throw fail('list_expected', { port });
  return items as FrameItems;
}

/**
 * The `value` of a parameter port (an input that takes one item): `fallback` when it is unset,
 * null or (with `emptyIsUnset`) an empty text; `parameter_missing` when there is no fallback;
 * `parameter_single` when the port holds several items.
 */
export function paramOf(
  inputs: FunctionInputs,
  port: string,
  fallback?: unknown,
  options: { emptyIsUnset?: boolean } = {},
): unknown {
  const items = itemsOf(inputs, port);
  if (items.length > 1) throw fail('parameter_single', { port, count: items.length });
  const value = items[0]?.value;
  if (value !== undefined && value !== null && !(options.emptyIsUnset && value === '')) return value;
  if (fallback === undefined) throw fail('parameter_missing', { port });
  return fallback;
}

/** Lets other work (and an abort) in between; throws the signal's reason once the run is aborted. */
export async function yieldToLoop(ctx: FunctionRunContext): Promise<void> {
  ctx.signal.throwIfAborted();
  await new Promise((resolve) => setImmediate(resolve));
  ctx.signal.throwIfAborted();
}
