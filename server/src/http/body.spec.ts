import assert from 'node:assert/strict';
import { request } from 'node:http';
import { listenTestApp } from '../blob/blob-test-support';
import { ApiError } from '@werkbank/sdk/node';
import { readText } from './body';

/** A body that never completes: the headers promise `declared` bytes, only `sent` arrive. */
function trickle(url: string, declared: number, sent: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': declared } });
    req.on('response', (res) => resolve(`reply ${res.statusCode}`));
    req.on('error', () => resolve('connection closed'));
    req.write(sent);
  });
}

describe('readText', () => {
  it('answers a body that does not arrive in time with 408 body_timeout, then closes the connection', async () => {
    const seen: unknown[] = [];
    const app = await listenTestApp((router) =>
      router.post('/slow', async (ctx) => {
        try {
          ctx.body = await readText(ctx, 1000, 150);
        } catch (e) {
          seen.push(e);
          throw e;
        }
      }),
    );
    try {
      const outcome = await trickle(`${app.url}/slow`, 100, '{"a":');
      assert.equal(outcome, 'reply 408', 'a trickling client gets the documented reply');
      assert.equal(seen.length, 1);
      assert.ok(seen[0] instanceof ApiError);
      assert.equal((seen[0] as ApiError).status, 408);
      assert.equal((seen[0] as ApiError).code, 'body_timeout');
    } finally {
      await app.close();
    }
  });

  it('reads a body that arrives within the time', async () => {
    const app = await listenTestApp((router) =>
      router.post('/ok', async (ctx) => {
        ctx.body = { text: await readText(ctx, 1000, 5000) };
      }),
    );
    try {
      const res = await fetch(`${app.url}/ok`, { method: 'POST', body: '{"a":1}' });
      assert.deepEqual(await res.json(), { text: '{"a":1}' });
    } finally {
      await app.close();
    }
  });
});
