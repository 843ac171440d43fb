import { type FrameItems, type FunctionInputs, type FunctionRunContext } from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import { failureOf } from '../failure';

/** Features handled between two checks of the abort signal (and progress reports). */
export const CHUNK = 2000;

/** The reasons the vector functions fail with: one per message, so that the type checker refuses a reason without one. */
export type VectorFailure = keyof typeof en.errors;

/** A failure of a vector function, with its reason in German and English (`geodata-vector:errors.*`). */
export const failure = failureOf<VectorFailure>('geodata-vector');

/** The items linked to a plain input port; [] when it is unset. */
export function itemsOf(inputs: FunctionInputs, port: string): FrameItems {
  const items = inputs[port];
  if (items === undefined) return [];
  if (!Array.isArray(items)) throw failure('list_expected', { port });
  return items as FrameItems;
}

/** The `value` of a one-item parameter port, `fallback` when unset; a failure when it has several items. */
function paramOf(inputs: FunctionInputs, port: string, fallback: unknown): unknown {
  const items = itemsOf(inputs, port);
  if (items.length > 1) throw failure('parameter_single', { port, count: items.length });
  const value = items[0]?.value;
  return value === undefined || value === null ? fallback : value;
}

/** A true/false parameter. */
export function boolParam(inputs: FunctionInputs, port: string, fallback: boolean): boolean {
  const value = paramOf(inputs, port, fallback);
  if (typeof value !== 'boolean') throw failure('invalid_parameter', { port, value: String(value) });
  return value;
}

/**
 * A text parameter, trimmed; `fallback` ('' unless given) when unset. With `allowed`, a non-empty
 * value must be one of them (compared and returned in lower case), else `invalid_choice`.
 */
export function textParam(inputs: FunctionInputs, port: string, fallback = '', allowed?: readonly string[]): string {
  const value = paramOf(inputs, port, fallback);
  if (typeof value !== 'string') throw failure('invalid_parameter', { port, value: String(value) });
  const text = value.trim();
  if (allowed && text && !allowed.includes(text.toLowerCase()))
    throw failure('invalid_choice', { port, value: text, allowed: allowed.join(', ') });
  return allowed ? text.toLowerCase() : text;
}

/** Lets other work (and an abort) in between; throws the signal's reason once the run is aborted. */
export async function yieldToLoop(ctx: FunctionRunContext): Promise<void> {
  ctx.signal.throwIfAborted();
  await new Promise((resolve) => setImmediate(resolve));
  ctx.signal.throwIfAborted();
}
