import assert from 'node:assert/strict';
import { request } from 'node:http';
import { listenTestApp } from '../blob/blob-test-support';
import { ApiError } from '@werkbank/sdk/node';
import { readJson, readJsonObject, readText } from './body';

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

describe('readJson and readJsonObject', () => {
  it('read any JSON value or only an object; both refuse malformed JSON and NUL characters', async () => {
    const app = await listenTestApp((router) => {
      router.post('/any', async (ctx) => {
        ctx.body = { value: (await readJson(ctx, 1000)) ?? 'empty' };
      });
      router.post('/object', async (ctx) => {
        ctx.body = { value: await readJsonObject(ctx, 1000) };
      });
    });
    const post = async (path: string, body: string) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      const json = (await res.json()) as { value?: unknown; code?: string };
      return { status: res.status, ...json };
    };
    try {
      assert.deepEqual(await post('/any', '[{"key":"a"}]'), { status: 200, value: [{ key: 'a' }] });
      assert.deepEqual(await post('/any', ''), { status: 200, value: 'empty' });
      assert.deepEqual(await post('/object', ''), { status: 200, value: {} });
      assert.equal((await post('/object', '[1]')).code, 'not_an_object');
      assert.equal((await post('/any', '[1,')).code, 'malformed_json');
      assert.equal((await post('/any', '["a\\u0000b"]')).code, 'invalid_text');
      assert.equal((await post('/object', '{"k":"\\u0000"}')).code, 'invalid_text');
    } finally {
      await app.close();
    }
  });
});
