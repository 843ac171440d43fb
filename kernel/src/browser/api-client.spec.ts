import assert from 'node:assert/strict';
import { ApiCallError, errorFromResponse, FetchApiClient } from './api-client';

const NOT_FOUND = 'Das angegebene Objekt wurde nicht gefunden.';

describe('API client error mapping (spec 000 §8)', () => {
  it('rejects with the reason of an error body', async () => {
    const e = await errorFromResponse(
      new Response(JSON.stringify({ status: 'error', reason: 'Name fehlt', code: 'invalid_field', field: 'name' }), {
        status: 400,
      }),
      NOT_FOUND,
    );
    assert.equal(e.message, 'Name fehlt');
    assert.equal(e.status, 400);
    assert.equal(e.field, 'name');
  });

  it('uses the not-found message for a 404 without a JSON body', async () => {
    const e = await errorFromResponse(new Response('<html>nope</html>', { status: 404, statusText: 'Not Found' }), NOT_FOUND);
    assert.equal(e.message, NOT_FOUND);
  });

  it('falls back to the status text otherwise', async () => {
    const e = await errorFromResponse(new Response('gateway down', { status: 502, statusText: 'Bad Gateway' }), NOT_FOUND);
    assert.equal(e.message, 'Bad Gateway');
  });

  it('treats a 200 reply whose body says status error as a failure, and sends the CSRF header from the cookie', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const original = globalThis.fetch;
    const hadDocument = 'document' in globalThis;
    const previousDocument = (globalThis as { document?: unknown }).document;
    (globalThis as { document?: unknown }).document = { cookie: 'other=1; csrftoken=tok123' };
    globalThis.fetch = (async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), init });
      return new Response(JSON.stringify({ status: 'error', reason: 'already favoured' }), { status: 200 });
    }) as typeof fetch;
    try {
      const client = new FetchApiClient(() => NOT_FOUND, 'http://localhost');
      await assert.rejects(
        client.post('/api/v1/x/1/favor/', {}),
        (e: unknown) => e instanceof ApiCallError && e.message === 'already favoured',
      );
      assert.equal((calls[0].init.headers as Record<string, string>)['X-CSRFToken'], 'tok123');
      assert.equal(calls[0].init.credentials, 'same-origin');
    } finally {
      globalThis.fetch = original;
      if (hadDocument) (globalThis as { document?: unknown }).document = previousDocument;
      else delete (globalThis as { document?: unknown }).document;
    }
  });
});
