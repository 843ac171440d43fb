import assert from 'node:assert/strict';
import type { TestServer } from './node-harness';

/** The harness's HTTP client (cookie jar, CSRF header). */
export type Client = ReturnType<TestServer['client']>;
/** A reply as the client gives it; bodies are checked by the tests, so they stay untyped. */
export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** The address of a user as the API writes it. */
export const userUri = (id: number) => `/api/v1/user/${id}/`;

/**
 * Asserts the error reply every failure shares (DESIGN §3): the status, `{status: 'error', code}`
 * and a non-empty reason for people, optionally the exact reason or a pattern it must match.
 */
export function assertError(res: Reply, status: number, code: string, reason?: string | RegExp): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.status, 'error');
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.reason, 'string');
  assert.ok(res.body.reason.length > 0, 'the reason is empty');
  if (reason instanceof RegExp) assert.match(res.body.reason, reason);
  else if (reason !== undefined) assert.equal(res.body.reason, reason);
}

/** Asserts a 2xx-or-other expected status and returns the body. */
export function expectStatus<T = any>(res: Reply, status: number): T {
  assert.equal(res.status, status, `expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** A client that sends only an API key (`Authorization: ApiKey …`): no cookies, no CSRF header. */
export function apiKeyClient(t: TestServer, key: string): Client {
  const c = t.client();
  c.headers = { authorization: `ApiKey ${key}` };
  return c;
}

/** A second client that presents the same cookies (the same browser session, e.g. a copied cookie). */
export function sameSession(t: TestServer, from: Client): Client {
  const c = t.client();
  for (const [k, v] of from.cookies) c.cookies.set(k, v);
  return c;
}

/** Names of a list reply's objects, in order. */
export const names = (res: Reply): string[] => (res.body.objects as Array<{ name: string }>).map((o) => o.name);

/** Addresses of the core plugins' lists that many suites use. */
export const TAGS = '/api/v2/backend/tags/';
export const EVENTS = '/api/v1/event/';
