import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { ApiError, type UrlFetcher, type UrlFetchOptions, type UrlFetchResponse } from '@werkbank/sdk/node';
import { FetchAllowList, isBlockedAddress } from './address-policy';

/** Resolves a host name to all its addresses (dns.lookup by default; tests inject their own). */
export type HostResolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface GuardedFetcherOptions {
  /** FETCH_ALLOW_PRIVATE: every address may be fetched. */
  allowPrivate: boolean;
  /** FETCH_ALLOWED_HOSTS: host names, addresses and CIDR ranges that may be fetched although private. */
  allowedHosts: string[];
  /** Default body limit in bytes. */
  maxBytes: number;
  resolve?: HostResolver;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_REDIRECTS = 5;

const fail = (status: number, code: string, params: Record<string, unknown> = {}) =>
  new ApiError(status, code, `errors.${code.startsWith('fetch_') ? code : `fetch_${code}`}`, params);

/**
 * The one failure of a private address (allowed by FETCH_ALLOWED_HOSTS or FETCH_ALLOW_PRIVATE) that
 * gave no HTTP answer: refused, reset, not HTTP, no answer in time. One message for all, so users
 * cannot map which ports of the internal network are open (issue 14 item 31).
 */
const unreachable = (url: string) => new ApiError(502, 'fetch_failed', 'errors.fetch_unreachable', { url });

/** The default UrlFetcher: node's http/https with the checked address pinned by a custom lookup. */
export class GuardedFetcher implements UrlFetcher {
  private readonly allowList: FetchAllowList;
  private readonly resolve: HostResolver;

  constructor(private readonly options: GuardedFetcherOptions) {
    this.allowList = new FetchAllowList(options.allowedHosts);
    this.resolve = options.resolve ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
  }

  async fetch(url: string, opts: UrlFetchOptions = {}): Promise<UrlFetchResponse> {
    const maxBytes = opts.maxBytes ?? this.options.maxBytes;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(fail(504, 'timeout', { seconds: timeoutMs / 1000 })), timeoutMs);
    timeout.unref();
    const signal = opts.signal ? AbortSignal.any([opts.signal, timer.signal]) : timer.signal;
    try {
      let current = this.parse(url);
      const origin = current.origin;
      for (let redirects = 0; ; redirects++) {
        signal.throwIfAborted();
        const address = await abortable(this.check(current), signal);
        const headers = current.origin === origin ? (opts.headers ?? {}) : {};
        const res = await request(current, address, headers, signal).catch((e: unknown) => {
          // A cancelled run keeps its own reason; every other failure before an answer is uniform.
          if (isBlockedAddress(address.address) && !opts.signal?.aborted) throw unreachable(current.href);
          throw e;
        });
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location) {
          res.resume();
          if (redirects >= (opts.maxRedirects ?? DEFAULT_REDIRECTS))
            throw fail(502, 'too_many_redirects', { url: current.href, count: redirects });
          current = this.parse(new URL(res.headers.location, current).href);
          continue;
        }
        if (status < 200 || status > 299) {
          const err = fail(502, 'fetch_status', { url: current.href, status });
          if (!opts.errorBodyBytes) {
            res.resume();
            throw err;
          }
          // The start of the answer, for services that explain a refusal in it (an OGC ExceptionReport).
          throw Object.assign(err, { body: await readStart(res, opts.errorBodyBytes, signal) });
        }
        const length = Number(res.headers['content-length']);
        if (length > maxBytes) {
          res.destroy();
          throw fail(413, 'too_large', { url: current.href, limit: maxBytes });
        }
        const body = limited(res, maxBytes, current.href, signal, () => clearTimeout(timeout));
        return {
          url: current.href,
          status,
          headers: res.headers,
          body,
          buffer: () => readAll(body),
        };
      }
    } catch (e) {
      clearTimeout(timeout);
      if (e instanceof ApiError && e.key === 'errors.fetch_unreachable') throw e;
      throw signal.aborted && signal.reason instanceof ApiError ? signal.reason : e;
    }
  }

  async checkHost(url: string, signal?: AbortSignal): Promise<{ address: string; family: number }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw fail(400, 'url_invalid', { url: url.slice(0, 200) });
    }
    // Credentials never reach a message.
    parsed.username = '';
    parsed.password = '';
    if (!parsed.hostname) throw fail(400, 'url_invalid', { url: parsed.href });
    const check = this.check(parsed);
    return signal ? abortable(check, signal) : check;
  }

  /** The URL, or `url_invalid` when it is not an absolute http(s) URL. */
  private parse(url: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw fail(400, 'url_invalid', { url });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw fail(400, 'url_invalid', { url });
    if (parsed.username || parsed.password) throw fail(400, 'url_invalid', { url: `${parsed.protocol}//${parsed.host}` });
    return parsed;
  }

  /** The one address to connect to: resolved once; refused when any address of the host is blocked. */
  private async check(url: URL): Promise<{ address: string; family: number }> {
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    let addresses: Array<{ address: string; family: number }>;
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        throw fail(502, 'fetch_failed', { url: url.href, detail: `host ${host} not found` });
      }
      if (!addresses.length) throw fail(502, 'fetch_failed', { url: url.href, detail: `host ${host} not found` });
    }
    if (!this.options.allowPrivate) {
      const refused = addresses.find((a) => isBlockedAddress(a.address) && !this.allowList.allows(host, a.address));
      if (refused) throw fail(400, 'url_refused', { url: url.href, address: refused.address });
    }
    return addresses[0];
  }
}

/** `work`, or the signal's reason as soon as it aborts (a resolver that hangs must not outlast the timeout). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** One GET to `address`, keeping the URL's host for Host and TLS server name (SNI, certificate). */
function request(
  url: URL,
  pinned: { address: string; family: number },
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { headers, signal, lookup, agent: false }, resolve);
    req.on('error', (e) =>
      reject(signal.aborted ? signal.reason : fail(502, 'fetch_failed', { url: url.href, detail: e.message })),
    );
  });
}

/** The body, erroring `too_large` past maxBytes and with the signal's reason when it aborts. */
function limited(res: http.IncomingMessage, maxBytes: number, url: string, signal: AbortSignal, done: () => void): Readable {
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(fail(413, 'too_large', { url, limit: maxBytes }));
      else callback(null, chunk);
    },
  });
  const onAbort = () => out.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
  signal.addEventListener('abort', onAbort, { once: true });
  const finish = () => {
    signal.removeEventListener('abort', onAbort);
    done();
  };
  out.on('close', () => {
    finish();
    res.destroy();
  });
  res.on('error', (e) => out.destroy(signal.aborted ? signal.reason : fail(502, 'fetch_failed', { url, detail: e.message })));
  res.pipe(out);
  return out;
}

/** At most `max` bytes from the start of `res` (the rest is dropped), or what came before an abort. */
async function readStart(res: http.IncomingMessage, max: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      if (signal.aborted) break;
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= max) break;
    }
  } catch {
    // A broken error answer still leaves the status to report.
  } finally {
    res.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max);
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
