import assert from 'node:assert/strict';
import type { TestClient } from '@werkbank/testing/node';

export type Client = TestClient;
/** A reply as the harness's client gives it; bodies are checked by the tests, so they stay untyped. */
export interface Reply {
  status: number;
  body: any;
}

export const userUri = (id: number) => `/api/v1/user/${id}/`;

/** Asserts the expected status and returns the body. */
export function expectStatus<T = any>(res: Reply, status: number): T {
  assert.equal(res.status, status, `expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** Asserts the shared error reply (DESIGN §3): status, `{status: 'error', code}`, a reason for people. */
export function assertError(res: Reply, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.status, 'error');
  assert.equal(res.body.code, code);
  assert.ok(typeof res.body.reason === 'string' && res.body.reason.length > 0);
}
