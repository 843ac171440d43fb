import type { FunctionInputs } from '@werkbank/sdk/node';
import { failure, itemsOf } from '../vector/vector-params';
import { servicesFailure } from './services-failure';

/**
 * The service address of input `url` (one item, as the insert dialog's url tab sets it): an
 * absolute http(s) URL. Fails `url_missing` when unset or empty, `url_invalid` otherwise.
 */
export function serviceUrl(inputs: FunctionInputs): string {
  const items = itemsOf(inputs, 'url');
  if (items.length > 1) throw failure('parameter_single', { port: 'url', count: items.length });
  const value = items[0]?.value;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw servicesFailure('url_missing');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw servicesFailure('url_invalid', { url: text.slice(0, 200) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw servicesFailure('url_invalid', { url: text.slice(0, 200) });
  return url.href;
}

/** A whole-number parameter ≥ 1, undefined when unset; `invalid_parameter` otherwise. */
export function countParam(inputs: FunctionInputs, port: string): number | undefined {
  const items = itemsOf(inputs, port);
  if (items.length > 1) throw failure('parameter_single', { port, count: items.length });
  const value = items[0]?.value;
  if (value === undefined || value === null || value === 0) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw failure('invalid_parameter', { port, value: String(value) });
  return value;
}
