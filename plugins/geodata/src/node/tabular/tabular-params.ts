import { ApiError, type FrameItems, type FunctionInputs, type FunctionRunContext } from '@werkbank/sdk/node';

/** Rows handled between two checks of the abort signal (and progress reports). */
export const CHUNK = 2000;

/** A failure of a tabular function, with its reason in German and English (`geodata-tabular:errors.*`). */
export function failure(code: string, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `geodata-tabular:errors.${code}`, params);
}

/** The items linked to a plain input port; [] when it is unset. */
export function itemsOf(inputs: FunctionInputs, port: string): FrameItems {
  const items = inputs[port];
  if (items === undefined) return [];
  if (!Array.isArray(items)) throw failure('list_expected', { port });
  return items as FrameItems;
}

/** The `value` of a one-item parameter port, `fallback` when unset; a failure when it has several items. */
export function paramOf(inputs: FunctionInputs, port: string, fallback: unknown): unknown {
  const items = itemsOf(inputs, port);
  if (items.length > 1) throw failure('parameter_single', { port, count: items.length });
  const value = items[0]?.value;
  return value === undefined || value === null ? fallback : value;
}

/** A parameter that must be a text (one of `allowed` when given); a failure naming the port otherwise. */
export function textParam(inputs: FunctionInputs, port: string, fallback: string, allowed?: readonly string[]): string {
  const value = paramOf(inputs, port, fallback);
  if (typeof value !== 'string') throw failure('invalid_parameter', { port, value: String(value) });
  if (allowed && !allowed.includes(value)) {
    throw failure('invalid_choice', { port, value, allowed: allowed.join(', ') });
  }
  return value;
}

/** A parameter that must be a whole number ≥ 0. */
export function countParam(inputs: FunctionInputs, port: string, fallback: number): number {
  const value = paramOf(inputs, port, fallback);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw failure('invalid_count', { port, value: String(value) });
  }
  return value;
}

/** A true/false parameter. */
export function boolParam(inputs: FunctionInputs, port: string, fallback: boolean): boolean {
  const value = paramOf(inputs, port, fallback);
  if (typeof value !== 'boolean') throw failure('invalid_parameter', { port, value: String(value) });
  return value;
}

/** Lets other work (and an abort) in between; throws the signal's reason once the run is aborted. */
export async function yieldToLoop(ctx: FunctionRunContext): Promise<void> {
  ctx.signal.throwIfAborted();
  await new Promise((resolve) => setImmediate(resolve));
  ctx.signal.throwIfAborted();
}
