import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';
import { SB_FOLDERS, SWITCHBOARDS } from '@werkbank/plugin-switchboards/testing';

/** Sends raw bytes and resolves when the server closes or answers. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let got = '';
    socket.on('data', (d) => (got += d));
    socket.on('close', () => resolve(got));
    socket.on('error', () => resolve(got));
    socket.setTimeout(3000, () => socket.destroy());
  });
}

describe('hardening against hostile requests', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('survives websocket upgrades with a broken address or cookie', async () => {
    await raw(
      t.url,
      'GET //[ HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    const origin = t.url;
    await raw(
      t.url,
      `GET /ws/events HTTP/1.1\r\nHost: ${new URL(t.url).host}\r\nOrigin: ${origin}\r\nCookie: sessionid=%E0%A4%A\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    expectStatus(await t.client().get('/api/v2/backend/config'), 200);
  });

  it('asks for the CSRF token on favour links whatever their letter case, and favours nothing without it', async () => {
    const g = expectStatus(await admin.post(GREETINGS, { name: 'Case' }), 201);
    assertError(await admin.get(`${g.resource_uri}FAVOR/`, { csrf: false }), 403, 'csrf_missing');
    assert.equal(expectStatus(await admin.get(g.resource_uri), 200).favored, false);
  });

  it('counts parallel wrong passwords against the login limit', async () => {
    const victim = await t.user();
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () => t.client().post('/accounts/login/', { username: victim.username, password: 'wrong' })),
    );
    const limited = attempts.filter((r) => r.status === 429).length;
    assert.ok(limited >= 12 - 5, `only ${limited} of 12 parallel attempts were limited`);
  });

  it('counts wrong old passwords of a password change like failed logins, so a stolen session cannot guess the password', async () => {
    const victim = await t.user();
    const hash = async () =>
      (await t.server.db.dataSource.query(`SELECT password FROM werkbank_user WHERE id = $1`, [victim.id]))[0].password as string;
    const before = await hash();
    const change = (old: string) =>
      victim.client.post('/accounts/password/', {
        old_password: old,
        new_password1: 'taken-over-1',
        new_password2: 'taken-over-1',
      });
    for (let i = 0; i < 5; i++) assertError(await change(`guess-${i}`), 400, 'password_wrong');
    assertError(await change('guess-5'), 429, 'too_many_attempts');
    assertError(await change(victim.password), 429, 'too_many_attempts');
    assert.equal(await hash(), before, 'the password is unchanged');
    assertError(
      await t.client().post('/accounts/login/', { username: victim.username, password: victim.password }),
      429,
      'too_many_attempts',
    );
  });

  it('files a switchboard only into a folder the caller may change, and names what blocks deleting a folder', async () => {
    const owner = await t.user();
    const other = await t.user();
    const folder = expectStatus(await owner.client.post(SB_FOLDERS, { name: 'Eigener Ordner' }), 201);
    const refused = await other.client.post(SWITCHBOARDS, { name: 'Untergeschoben', folder: folder.resource_uri });
    assertError(refused, 403, 'permission_denied', /Eigener Ordner/);
    assert.equal(refused.body.field, 'folder');
    const theirs = expectStatus(await other.client.post(SWITCHBOARDS, { name: 'Fremd' }), 201);
    assertError(await other.client.patch(theirs.resource_uri, { folder: folder.resource_uri }), 403, 'permission_denied');
    assertError(
      await other.client.get(`/api/v2/switchboard/create/?name=x&folder_uri=${folder.resource_uri}`),
      403,
      'permission_denied',
    );
    assert.equal(expectStatus(await owner.client.get(`${SWITCHBOARDS}?in_folder=${folder.id}`), 200).meta.total_count, 0);

    // Filed before this rule (or by an administrator): someone else's switchboard does not block the owner.
    expectStatus(await admin.patch(theirs.resource_uri, { folder: folder.resource_uri }), 200);
    const mine = expectStatus(await owner.client.post(SWITCHBOARDS, { name: 'Meins', folder: folder.resource_uri }), 201);
    assertError(
      await owner.client.delete(folder.resource_uri),
      409,
      'folder_not_empty',
      /still contains a switchboard you can move or delete: “Meins”/,
    );
    expectStatus(await owner.client.patch(mine.resource_uri, { folder: null }), 200);
    expectStatus(await owner.client.delete(folder.resource_uri), 204);
    assert.equal(expectStatus(await other.client.get(theirs.resource_uri), 200).folder, null, 'it left the folder, nothing else');
  });

  it('refuses more than 200 grant entries with 400 and changes nothing', async () => {
    const g = expectStatus(await admin.post(GREETINGS, { name: 'Many grants' }), 201);
    const grants = Array.from({ length: 201 }, () => ({ user: '/api/v1/user/1/', perms: ['read'] }));
    assertError(await admin.patch(g.resource_uri, { permissions: grants }), 400, 'invalid_field');
    assert.deepEqual(expectStatus(await admin.get(g.resource_uri), 200).permissions, []);
  });

  it('does not let others find a user by the e-mail address hidden from them', async () => {
    const secret = await t.user();
    expectStatus(await admin.patch(`/api/v1/user/${secret.id}/`, { email: 'hidden.person@corp.example' }), 200);
    const other = await t.user();
    assert.equal(expectStatus(await other.client.get('/api/v1/user/?q=corp.example'), 200).meta.total_count, 0);
  });

  it('keeps an API key inside its realms when it tags objects of another kind', async () => {
    const g = expectStatus(await admin.post(GREETINGS, { name: 'Realm' }), 201);
    const tag = expectStatus(await admin.post(TAGS, { name: 'Realm tag' }), 201);
    const key = expectStatus(await admin.post('/api/v1/apikey/', { user: '/api/v1/user/1/', realms: ['tag'] }), 201).key;
    const client = t.client();
    client.headers = { Authorization: `ApiKey ${key}` };
    assertError(await client.patch(`${tag.resource_uri}assign-to/?resource_ids=${g.resource_uri}`), 403, 'realm_denied');
    assert.deepEqual(expectStatus(await admin.get(g.resource_uri), 200).tags, []);
  });

  it('counts in a tag only the objects the caller may read', async () => {
    const owner = await t.user();
    const other = await t.user();
    const tag = expectStatus(await owner.client.post(TAGS, { name: 'Private count' }), 201);
    const g = expectStatus(await owner.client.post(GREETINGS, { name: 'Private' }), 201);
    expectStatus(await owner.client.patch(`${tag.resource_uri}assign-to/?resource_ids=${g.resource_uri}`), 200);
    assert.deepEqual(expectStatus(await owner.client.get(tag.resource_uri), 200).counts, { greeting: 1 });
    assert.deepEqual(expectStatus(await other.client.get(tag.resource_uri), 200).counts, {});
    assert.equal(expectStatus(await other.client.get(`${TAGS}?realm=greeting&q=Private count`), 200).meta.total_count, 0);
  });

  it('answers names of Object.prototype and oversized ids with 400, not 500', async () => {
    assertError(await admin.post(GREETINGS, { constructor: 1, name: 'x' }), 400, 'unknown_field');
    assertError(await admin.get(`${GREETINGS}?hasOwnProperty=1`), 400, 'unknown_filter');
    assertError(await admin.get(`${TAGS}?filter=hasOwnProperty`), 400, 'unknown_filter');
    assertError(await admin.get(`${GREETINGS}?tag=99999999999`), 400, 'invalid_parameter');
    assertError(
      await admin.patch(`${GREETINGS}1/`, { permissions: [{ user: '99999999999', perms: ['read'] }] }),
      400,
      'invalid_field',
    );
    assertError(await t.client().post('/accounts/login/', { username: 'x'.repeat(200), password: 'y' }), 400, 'invalid_login');
  });

  it('ends a session once it is older than the maximum session age', async () => {
    const u = await t.user();
    expectStatus(await u.client.get(GREETINGS), 200);
    await t.server.db.dataSource.query(`UPDATE werkbank_session SET created_at = now() - interval '30 days' WHERE user_id = $1`, [
      u.id,
    ]);
    assertError(await u.client.get(GREETINGS), 401, 'not_authenticated');
  });
});
