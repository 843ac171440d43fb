import type { FunctionRunContext } from '@werkbank/sdk/node';
import { jsonErrorPosition } from '../live/json-position';
import { decodeText } from '../sources/download-text';
import { parseXml, throwIfException, type XmlDocument } from './service-xml';
import { servicesFailure } from './services-failure';
import { GeodataServices } from '../geodata-services';

/** The server's guarded fetcher (SSRF guard, redirects re-checked): the only way services are reached. */
export type Net = GeodataServices['net'];

/** Size and time budget of one request to a service. */
export interface FetchBudget {
  maxBytes: number;
  timeoutMs: number;
}

/** Capabilities documents, listings and metadata: 16 MiB within 60 s. */
export const METADATA_BUDGET: FetchBudget = { maxBytes: 16 * 1024 * 1024, timeoutMs: 60_000 };
/** One page of features (GetFeature, ArcGIS query): 64 MiB within 2 minutes. */
export const PAGE_BUDGET: FetchBudget = { maxBytes: 64 * 1024 * 1024, timeoutMs: 120_000 };

/** A service answer decoded as text, with the URL that answered (after redirects) and its media type. */
export interface ServiceText {
  url: string;
  text: string;
  mime: string;
}

/**
 * GETs `url` through `net` with the run's abort signal and `budget`, and decodes the body in the
 * charset its Content-Type names. Fetch failures keep the fetcher's reasons (`url_refused`,
 * `too_large`, `timeout`, `fetch_status`, ...), except an error status explained by an OWS
 * exception report (`service_exception` with the service's text); bytes that are no text fail `not_text`.
 */
export async function fetchText(net: Net, url: string, ctx: FunctionRunContext, budget: FetchBudget): Promise<ServiceText> {
  ctx.signal.throwIfAborted();
  const res = await net
    .fetch(url, { signal: ctx.signal, maxBytes: budget.maxBytes, timeoutMs: budget.timeoutMs, errorBodyBytes: ERROR_BODY_BYTES })
    .catch((e: unknown) => {
      throw serviceRefusal(e, url) ?? e;
    });
  const bytes = await res.buffer();
  const header = res.headers['content-type'];
  const contentType = typeof header === 'string' ? header : undefined;
  ctx.log(`${bytes.length} bytes from ${res.url}`);
  return {
    url: res.url,
    text: decodeText(bytes, contentType, res.url),
    mime: (contentType ?? '').split(';')[0].trim().toLowerCase(),
  };
}

/** How much of an error answer is read for the service's explanation. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * The service's own explanation of an error status: WFS 2.0 and WMTS answer a refused request with
 * HTTP 400 and an OWS ExceptionReport, whose text says more than the status (`service_exception`).
 * Undefined when the error is another one or its answer is no exception report.
 */
function serviceRefusal(e: unknown, url: string): unknown {
  const err = e as { code?: unknown; body?: unknown };
  if (err?.code !== 'fetch_status' || !Buffer.isBuffer(err.body)) return undefined;
  const text = err.body.toString('utf8');
  if (!/<([\w-]+:)?(Service)?ExceptionReport[\s>]/.test(text.slice(0, 2048))) return undefined;
  try {
    throwIfException(parseXml(text, url), url);
  } catch (refusal) {
    // A cut or broken report explains nothing: the status stays the reason.
    if ((refusal as { code?: unknown }).code === 'service_exception') return refusal;
  }
  return undefined;
}

/** An XML answer, parsed safely (parseXml); fails `not_xml` when the service answered something else. */
export async function fetchXml(net: Net, url: string, ctx: FunctionRunContext, budget = METADATA_BUDGET): Promise<XmlDocument> {
  const answer = await fetchText(net, url, ctx, budget);
  if (!answer.text.trimStart().startsWith('<'))
    throw servicesFailure('not_xml', { url: answer.url, mime_type: answer.mime || '-' });
  return parseXml(answer.text, answer.url);
}

/** A JSON answer; fails `not_json` with the parser's position when it is none. */
export async function fetchJson(net: Net, url: string, ctx: FunctionRunContext, budget = METADATA_BUDGET): Promise<unknown> {
  const answer = await fetchText(net, url, ctx, budget);
  return parseJson(answer.text, answer.url);
}

/** JSON.parse with `not_json` naming the source and the position (line and column) of a syntax error. */
export function parseJson(text: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw servicesFailure('not_json', { url, ...jsonErrorPosition(text) });
  }
}

/**
 * `base` with the query parameters `params` set (replacing any of the same name in any letter
 * case, as OGC KVP names are case-insensitive); other parameters of `base` (a map name, a key) stay.
 */
export function withParams(base: string, params: Record<string, string | number | undefined>): string {
  const url = new URL(base);
  const names = Object.keys(params).map((k) => k.toLowerCase());
  for (const key of [...url.searchParams.keys()]) if (names.includes(key.toLowerCase())) url.searchParams.delete(key);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.href;
}

/** A query parameter of `url` by name in any letter case, '' when missing. */
export function queryParam(url: string, name: string): string {
  for (const [k, v] of new URL(url).searchParams) if (k.toLowerCase() === name.toLowerCase()) return v.trim();
  return '';
}
