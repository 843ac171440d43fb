import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '@werkbank/sdk/testing/node';
import { assertError, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';

/** Input the database cannot hold is refused at the boundary, with 400 and nothing written (issue 14 item 26). */
describe('hardening: text the database cannot store', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('refuses a NUL byte in a query string with 400 invalid_text, on every kind of list', async () => {
    for (const url of [
      `${GREETINGS}?q=%00`,
      `${GREETINGS}?q=a%00b`,
      `${TAGS}?q=%00`,
      '/api/v1/switchboard/?q=%00',
      '/api/v1/user/?q=x%00',
      `${GREETINGS}?order_by=name%00`,
    ]) {
      assertError(await admin.get(url), 400, 'invalid_text');
    }
  });

  it('refuses a NUL character in any text of a JSON body, nested or as a key, and writes nothing', async () => {
    assertError(await admin.post(GREETINGS, { name: 'a\u0000b' }), 400, 'invalid_text');
    assertError(await admin.post(TAGS, { name: 'x', description: 'nested\u0000' }), 400, 'invalid_text');
    const g = expectStatus(await admin.post(GREETINGS, { name: 'Clean' }), 201);
    assertError(await admin.patch(g.resource_uri, { message: 'a\u0000' }), 400, 'invalid_text');
    assertError(await admin.post('/api/v1/switchboard/', { name: 'S', description: { ['k\u0000']: 1 } }), 400, 'invalid_text');
    assertError(await t.client().post('/accounts/login/', { username: 'ad\u0000min', password: 'x' }), 400, 'invalid_text');
    assert.equal(expectStatus(await admin.get(g.resource_uri), 200).message, '');
    assert.equal(
      expectStatus(await admin.get(`${GREETINGS}?q=a`), 200).objects.filter((o: { name: string }) => o.name.includes('\u0000'))
        .length,
      0,
    );
  });

  it('answers in the caller language', async () => {
    const de = (await t.user()).client;
    de.headers = { 'accept-language': 'de' };
    const en = (await t.user()).client;
    en.headers = { 'accept-language': 'en' };
    assertError(await de.get(`${GREETINGS}?q=%00`), 400, 'invalid_text', /^Text darf das NUL-Zeichen/);
    assertError(await en.get(`${GREETINGS}?q=%00`), 400, 'invalid_text', /^Text must not contain the NUL character/);
  });
});

/** Sends the head of a JSON request whose body never completes; resolves with all the server sent once it closes. */
function stalledBody(url: string, cookie: string, csrf: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        `POST ${GREETINGS} HTTP/1.1\r\nHost: ${hostname}\r\nCookie: ${cookie}\r\nX-CSRFToken: ${csrf}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name": "Sl',
      ),
    );
    let got = '';
    socket.on('data', (d) => (got += d));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

describe('hardening: a JSON body that stalls', function () {
  let t: TestServer;

  before(async () => {
    t = await startTestServer({ config: { bodyTimeoutMs: 1000 } });
  });
  after(async () => t?.close());

  it('gets the documented 408 body_timeout reply, then the connection is closed, and nothing is written', async () => {
    const admin = await t.admin();
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const reply = await stalledBody(t.url, cookie, admin.csrfToken ?? '');
    assert.match(reply, /^HTTP\/1\.1 408 /);
    assert.match(reply, /\r\nconnection: close\r\n/i);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    assert.equal(body.code, 'body_timeout');
    assert.match(body.reason, /1 seconds/);
    assert.equal(expectStatus(await admin.get(GREETINGS), 200).meta.total_count, 0);
  });
});
