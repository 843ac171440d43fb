import type { FunctionRunContext, UrlFetcher } from '@werkbank/sdk/node';
import { decodeText } from '../sources/download-text';
import { liveFailure, type StaSettings } from './live-settings';
import { jsonErrorPosition } from './json-position';

/** One page of Things: 32 MiB within 60 s. */
const PAGE_BYTES = 32 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 60_000;
/** Things read at most per dataset (a filter narrows larger services). */
export const MAX_THINGS = 100_000;

/** A Thing as SensorThings API v1.1 sends it with Locations and Datastreams expanded (OGC 18-088 §8.2). */
export interface StaThing {
  '@iot.id'?: unknown;
  name?: unknown;
  description?: unknown;
  properties?: unknown;
  Locations?: unknown;
  Datastreams?: unknown;
}

/** What the Things query expands: everything the import needs, or only the datastream ids (the live watcher). */
export type ThingsQuery = 'features' | 'datastreams';

const param = (name: string, value: string | number) => `${name}=${encodeURIComponent(String(value))}`;

/**
 * The first page of the dataset's Things: `$top` batch_size, `$filter` thing_filter, Locations and
 * Datastreams (filtered by datastream_filter) expanded with each datastream's latest Observation.
 */
export function thingsUrl(s: StaSettings, query: ThingsQuery): string {
  const dsFilter = s.datastream_filter ? `$filter=${s.datastream_filter}` : '';
  const expand =
    query === 'features'
      ? `Locations,Datastreams(${[dsFilter, '$expand=Observations($top=1;$orderby=phenomenonTime desc)'].filter(Boolean).join(';')})`
      : `Datastreams(${[dsFilter, '$select=id'].filter(Boolean).join(';')})`;
  const params = [param('$top', s.batch_size), param('$count', 'true'), param('$expand', expand)];
  if (query === 'datastreams') params.push(param('$select', 'id'));
  if (s.thing_filter) params.push(param('$filter', s.thing_filter));
  return `${s.origin}/${s.version}/Things?${params.join('&')}`;
}

/** A page of Things with the total the service counted (`@iot.count`) and the next page's address. */
export interface ThingsPage {
  things: StaThing[];
  count?: number;
  next?: string;
}

/**
 * One page at `url` through the guarded fetcher; `sta_invalid_json` (line, column) for broken JSON,
 * `sta_invalid` when the answer is no collection (`value` array).
 */
export async function fetchThingsPage(net: UrlFetcher, url: string, signal: AbortSignal): Promise<ThingsPage> {
  const res = await net.fetch(url, { signal, maxBytes: PAGE_BYTES, timeoutMs: PAGE_TIMEOUT_MS });
  const header = res.headers['content-type'];
  const text = decodeText(await res.buffer(), typeof header === 'string' ? header : undefined, res.url);
  let body: { value?: unknown; '@iot.count'?: unknown; '@iot.nextLink'?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw liveFailure('sta_invalid_json', { url: res.url, ...jsonErrorPosition(text) });
  }
  if (!body || typeof body !== 'object' || !Array.isArray(body.value)) throw liveFailure('sta_invalid', { url: res.url });
  return {
    things: body.value as StaThing[],
    count: typeof body['@iot.count'] === 'number' ? body['@iot.count'] : undefined,
    next: typeof body['@iot.nextLink'] === 'string' ? new URL(body['@iot.nextLink'], res.url).href : undefined,
  };
}

/**
 * Every Thing of the dataset, page by page along `@iot.nextLink` (each page checked by the guard
 * again). `onPage` gets each page as it arrives (for progress and chunked work). Fails
 * `sta_too_many` past MAX_THINGS and `sta_paging_loop` when a next link repeats an address.
 */
export async function eachThingsPage(
  net: UrlFetcher,
  s: StaSettings,
  query: ThingsQuery,
  ctx: Pick<FunctionRunContext, 'signal' | 'log'>,
  onPage: (page: ThingsPage, read: number) => Promise<void> | void,
): Promise<number> {
  const seen = new Set<string>();
  let url: string | undefined = thingsUrl(s, query);
  let read = 0;
  while (url) {
    ctx.signal.throwIfAborted();
    if (seen.has(url)) throw liveFailure('sta_paging_loop', { url });
    seen.add(url);
    const page = await fetchThingsPage(net, url, ctx.signal);
    read += page.things.length;
    if (read > MAX_THINGS) throw liveFailure('sta_too_many', { origin: s.origin, limit: MAX_THINGS });
    await onPage(page, read);
    url = page.things.length ? page.next : undefined;
  }
  return read;
}
