import assert from 'node:assert/strict';
import { once } from 'node:events';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { connectSocket as connect, cookieHeader, expectStatus, GREETINGS, type Client } from './api-test-support';

describe('websockets: /ws/events', function () {
  let t: TestServer;
  let admin: Client;
  let wsUrl: string;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    wsUrl = t.url.replace('http', 'ws') + '/ws/events';
  });
  after(async () => t?.close());

  it('refuses an upgrade from a foreign origin, even with a valid session', async () => {
    await assert.rejects(connect(wsUrl, { Origin: 'http://evil.example', Cookie: cookieHeader(admin) }), /refused 403/);
  });

  it('refuses an upgrade without a signed-in session', async () => {
    await assert.rejects(connect(wsUrl, { Origin: t.url }), /refused 401/);
  });

  it('closes a socket once its session has ended', async () => {
    const user = await t.user();
    const ws = await connect(wsUrl, { Origin: t.url, Cookie: cookieHeader(user.client) });
    const closed = once(ws, 'close');
    expectStatus(await user.client.post('/accounts/logout/'), 200);
    assert.equal(await t.server.hub!.sweep(), 1);
    const [code] = (await closed) as [number];
    assert.equal(code, 4401);
  });

  it('tells a connected feed when a change was committed', async () => {
    const ws = await connect(wsUrl, { Origin: t.url, Cookie: cookieHeader(admin) });
    try {
      const message = once(ws, 'message');
      expectStatus(await admin.post(GREETINGS, { name: 'Live' }), 201);
      const [data] = (await message) as [Buffer];
      assert.deepEqual(JSON.parse(data.toString()), { type: 'events', kind: 'greeting' });
    } finally {
      ws.close();
    }
  });
});
