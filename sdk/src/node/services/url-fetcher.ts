import { token } from '@werkbank/kernel';
import type { Readable } from 'node:stream';

/** Options of one fetch of a user-given URL. */
export interface UrlFetchOptions {
  /** Aborts the fetch (connecting, redirects and reading the body). */
  signal?: AbortSignal;
  /** Largest accepted body in bytes (default: the server's UPLOAD_MAX_BYTES); more fails `too_large`. */
  maxBytes?: number;
  /** Time for the whole fetch, redirects and body included (default 5 minutes); more fails `timeout`. */
  timeoutMs?: number;
  /** Request headers; sent to the URL's origin only, not to another origin a redirect leads to. */
  headers?: Record<string, string>;
  /** Redirects followed at most (default 5); more fails `too_many_redirects`. */
  maxRedirects?: number;
  /**
   * Keep up to this many bytes of an error answer (non-2xx) as `body` (a Buffer) on the
   * `fetch_status` error, for services that explain a refusal in it; default 0 (not read).
   */
  errorBodyBytes?: number;
}

/** A successful (2xx) response whose body has not been read yet. */
export interface UrlFetchResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /**
   * The body. It errors with ApiError `too_large` past maxBytes and `timeout` past timeoutMs, and
   * with the signal's reason when aborted. Read it or call `body.destroy()`.
   */
  body: Readable;
  /** Reads the whole body (within the limits). */
  buffer(): Promise<Buffer>;
}

/**
 * Fetches URLs that users give (switchboard functions, imports) without letting them reach the
 * server's own networks (SSRF): http and https only; every host is resolved once, refused when an
 * address is loopback, private, link-local, CGNAT, multicast or unspecified (unless FETCH_ALLOW_PRIVATE
 * or FETCH_ALLOWED_HOSTS allow it), and the connection goes to exactly the address checked; every
 * redirect target is checked the same way. Failures are ApiErrors with a reason: `url_invalid`,
 * `url_refused`, `too_large`, `timeout`, `too_many_redirects`, `fetch_status`, `fetch_failed`.
 */
export interface UrlFetcher {
  fetch(url: string, options?: UrlFetchOptions): Promise<UrlFetchResponse>;
  /**
   * The one address a connection to the host of `url` (any scheme, e.g. `mqtt://broker:1883`) may
   * go to, checked by the same rules as fetches: resolved once, refused (`url_refused`) when any
   * address of the host is blocked and not allowed. For protocols other than http (MQTT), whose
   * clients must connect to exactly this address. `url_invalid` without a host, `fetch_failed`
   * for an unknown host.
   */
  checkHost(url: string, signal?: AbortSignal): Promise<{ address: string; family: number }>;
}
export const UrlFetcher = token<UrlFetcher>('UrlFetcher');
