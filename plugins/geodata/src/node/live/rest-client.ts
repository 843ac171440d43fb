import type { UrlFetcher } from '@werkbank/sdk/node';
import { decodeText } from '../sources/download-text';
import { liveFailure } from './live-settings';
import { jsonErrorPosition } from './json-position';

/** A REST answer: 64 MiB within 2 minutes. */
const REST_BYTES = 64 * 1024 * 1024;
const REST_TIMEOUT_MS = 120_000;

/** The body of a GET of `origin` through the guarded fetcher, with the URL that answered. */
export async function fetchRestBody(
  net: UrlFetcher,
  origin: string,
  signal: AbortSignal,
): Promise<{ url: string; bytes: Buffer; contentType?: string }> {
  const res = await net.fetch(origin, { signal, maxBytes: REST_BYTES, timeoutMs: REST_TIMEOUT_MS });
  const header = res.headers['content-type'];
  return { url: res.url, bytes: await res.buffer(), contentType: typeof header === 'string' ? header : undefined };
}

/**
 * The JSON a REST origin answers; `rest_invalid_json` naming the line and column where the text
 * stops being JSON (the parser's own text never reaches the user).
 */
export async function fetchRestJson(net: UrlFetcher, origin: string, signal: AbortSignal): Promise<unknown> {
  const body = await fetchRestBody(net, origin, signal);
  const text = decodeText(body.bytes, body.contentType, body.url);
  try {
    return JSON.parse(text);
  } catch {
    throw liveFailure('rest_invalid_json', { url: body.url, ...jsonErrorPosition(text) });
  }
}
