import { token, type ErrorBody } from '../common/index';

/** A failed call: the reason to show (already in the user's language) and the status. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export interface ApiRequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

export const ApiClient = token<ApiClient>('ApiClient');
/** Calls the server with JSON, credentials and the CSRF header (spec 000 §7). */
export interface ApiClient {
  get<T = any>(path: string, opts?: ApiRequestOptions): Promise<T>;
  post<T = any>(path: string, body?: unknown, opts?: ApiRequestOptions): Promise<T>;
  patch<T = any>(path: string, body?: unknown, opts?: ApiRequestOptions): Promise<T>;
  delete<T = any>(path: string, opts?: ApiRequestOptions): Promise<T>;
  request<T = any>(method: string, path: string, opts?: ApiRequestOptions): Promise<T>;
}

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * The error mapping of spec 000 §8: a reply whose body has status 'error' is rejected with its
 * reason; otherwise with the status text; a 404 without a JSON body with the not-found message.
 */
export async function errorFromResponse(res: Response, notFoundMessage: string): Promise<ApiCallError> {
  const text = await res.text().catch(() => '');
  let body: Partial<ErrorBody> | undefined;
  try {
    body = text ? (JSON.parse(text) as Partial<ErrorBody>) : undefined;
  } catch {
    body = undefined;
  }
  if (body && body.status === 'error' && body.reason) return new ApiCallError(body.reason, res.status, body.code, body.field);
  if (res.status === 404 && !body) return new ApiCallError(notFoundMessage, 404, 'not_found');
  return new ApiCallError(res.statusText || `HTTP ${res.status}`, res.status);
}

export class FetchApiClient implements ApiClient {
  constructor(
    private readonly notFoundMessage: () => string,
    private readonly baseUrl = '',
  ) {}

  async request<T>(method: string, path: string, opts: ApiRequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path, typeof location !== 'undefined' ? location.origin : 'http://localhost');
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Accept: 'application/json' };
    const csrf = readCookie('csrftoken');
    if (csrf) headers['X-CSRFToken'] = csrf;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
    if (!res.ok) throw await errorFromResponse(res, this.notFoundMessage());
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    const data: unknown = text ? JSON.parse(text) : undefined;
    const maybeError = data as Partial<ErrorBody> | undefined;
    if (maybeError && maybeError.status === 'error') {
      throw new ApiCallError(maybeError.reason ?? res.statusText, res.status, maybeError.code);
    }
    return data as T;
  }

  get<T>(path: string, opts?: ApiRequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T>(path: string, body?: unknown, opts?: ApiRequestOptions) {
    return this.request<T>('POST', path, { ...opts, body: body ?? {} });
  }
  patch<T>(path: string, body?: unknown, opts?: ApiRequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body: body ?? {} });
  }
  delete<T>(path: string, opts?: ApiRequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }
}
