import { itemsOf, paramOf as sdkParamOf, yieldToLoop, type FunctionInputs } from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import { failureOf } from '../failure';

/** Rows handled between two checks of the abort signal (and progress reports). */
export const CHUNK = 2000;

/** The reasons the tabular functions fail with: one per message, so that the type checker refuses a reason without one. */
export type TabularFailure = keyof typeof en.errors;

/** A failure of a tabular function, with its reason in German and English (`geodata-tabular:errors.*`). */
export const failure = failureOf<TabularFailure>('geodata-tabular');

/** The SDK's readers of function inputs, for the tabular functions. */
export { itemsOf, yieldToLoop };

/** The `value` of a one-item parameter port, `fallback` when unset; a failure when it has several items. */
export function paramOf(inputs: FunctionInputs, port: string, fallback: unknown): unknown {
  return sdkParamOf(inputs, port, fallback);
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
