import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, EVENTS, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';
import { addDatum, newDepot } from '@werkbank/plugin-magazine/testing';
import { uploadFile } from '@werkbank/plugin-magazine/testing';
import { FRAMES, SWITCHBOARDS } from '@werkbank/plugin-switchboards/testing';

/** Input the database cannot hold is refused at the boundary, with 400 and nothing written (issue 14 item 26). */
describe('hardening: text the database cannot store', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ examples: true });
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

  it('refuses a NUL character in a field of a multipart upload and records nothing', async () => {
    const depot = await newDepot(admin, 'file');
    const id = expectStatus(await admin.post('/magazine/upload-reset/', { depot: depot.resource_uri }), 200).upload_id;
    assertError(await uploadFile(admin, id, 'plan\u0000.txt', Buffer.from('x')), 400, 'invalid_text');
    assert.deepEqual(expectStatus(await admin.get(`/magazine/upload-status/${id}/`), 200).files, []);
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
    t = await startTestServer({ examples: true, config: { bodyTimeoutMs: 1000 } });
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

/** One rule per thing across the API (issue 14 item 22). */
describe('hardening: consistent input and replies', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('refuses unknown query parameters on create, detail, change, store and delete with 400, as lists do', async () => {
    const before = expectStatus(await admin.get(SWITCHBOARDS), 200).meta.total_count;
    assertError(await admin.post(`${SWITCHBOARDS}?template=1`, { name: 'Vorlage' }), 400, 'unknown_parameter', /template/);
    assert.equal(expectStatus(await admin.get(SWITCHBOARDS), 200).meta.total_count, before, 'nothing was created');
    const g = expectStatus(await admin.post(GREETINGS, { name: 'Strict' }), 201);
    assertError(await admin.get(`${g.resource_uri}?expand=1`), 400, 'unknown_parameter');
    assertError(await admin.patch(`${g.resource_uri}?force=1`, { message: 'x' }), 400, 'unknown_parameter');
    assertError(await admin.post(`${g.resource_uri}?force=1`, { name: 'Strict', message: 'x' }), 400, 'unknown_parameter');
    assertError(await admin.delete(`${g.resource_uri}?cascade=1`), 400, 'unknown_parameter');
    assert.equal(expectStatus(await admin.get(g.resource_uri), 200).message, '');
    assertError(await admin.get(`${GREETINGS}?template=1`), 400, 'unknown_filter');
  });

  it('accepts only Blueprint icon names for tags', async () => {
    const refused = await admin.post(TAGS, { name: 'Hochwasser', icon: 'flood' });
    assertError(refused, 400, 'invalid_field', /Blueprint/);
    assert.equal(refused.body.field, 'icon');
    const tag = expectStatus(await admin.post(TAGS, { name: 'Flug', icon: 'airplane' }), 201);
    assert.equal(tag.icon, 'airplane');
    assertError(await admin.patch(tag.resource_uri, { icon: 'flood' }), 400, 'invalid_field');
    assert.equal(expectStatus(await admin.get(tag.resource_uri), 200).icon, 'airplane');
  });

  it('takes an empty expiration date as no expiry (spec 002 §5)', async () => {
    const u = await t.user();
    expectStatus(await admin.patch(`/api/v1/user/${u.id}/`, { expiration_date: '2099-01-01T00:00:00Z' }), 200);
    const cleared = expectStatus(await admin.patch(`/api/v1/user/${u.id}/`, { expiration_date: '' }), 200);
    assert.equal(cleared.expiration_date, null);
    const key = expectStatus(
      await admin.post('/api/v1/apikey/', { user: `/api/v1/user/${u.id}/`, realms: ['tag'], expiration: '' }),
      201,
    );
    assert.equal(key.expiration, null);
  });

  it('shows a tag datum by the tag’s name', async () => {
    const tag = expectStatus(await admin.post(TAGS, { name: 'Überschwemmung' }), 201);
    const sb = expectStatus(await admin.post(SWITCHBOARDS, { name: 'Tags' }), 201);
    const frame = expectStatus(
      await admin.post(FRAMES, {
        switchboard: sb.resource_uri,
        content_type: 'tag',
        content: [{ value: { id: tag.id, name: tag.name } }],
      }),
      201,
    );
    assert.equal(frame.text_repr, 'Überschwemmung');
  });

  it('gives events numeric ids like every other kind', async () => {
    expectStatus(await admin.post(GREETINGS, { name: 'Event source' }), 201);
    const events = expectStatus(await admin.get(`${EVENTS}?limit=5`), 200).objects as Array<{
      id: unknown;
      resource_uri: string;
    }>;
    assert.ok(events.length > 0);
    for (const e of events) {
      assert.equal(typeof e.id, 'number');
      assert.equal(e.resource_uri, `${EVENTS}${String(e.id)}/`);
      assert.equal(typeof expectStatus(await admin.get(e.resource_uri), 200).id, 'number');
    }
  });

  it('names people by one rule everywhere: full name, else username', async () => {
    const named = await t.user();
    expectStatus(await admin.patch(`/api/v1/user/${named.id}/`, { first_name: 'Grete', last_name: 'Weiß' }), 200);
    const plain = await t.user();
    for (const [u, name] of [
      [named, 'Grete Weiß'],
      [plain, plain.username],
    ] as const) {
      expectStatus(await u.client.post(GREETINGS, { name: `by ${u.username}` }), 201);
      const event = expectStatus(await admin.get(`${EVENTS}?user=/api/v1/user/${u.id}/&limit=1`), 200).objects[0];
      assert.equal(event.user_name, name, 'event feed');
      assert.equal(expectStatus(await admin.get(`/api/v1/user/${u.id}/`), 200).display_name, name, 'user list');
      const depot = await newDepot(u.client, 'string');
      await addDatum(u.client, depot, { value: 'x' });
      const moments = expectStatus(await u.client.get(`/api/v1/moment/?depot_id=${depot.id}`), 200).objects;
      assert.equal(moments[0].user_name, name, 'moments');
      assert.equal(expectStatus(await u.client.get('/api/v2/backend/profile'), 200).display_name, name, 'profile');
    }
  });
});
