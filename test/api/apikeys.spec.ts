import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, createGreeting, expectStatus, GREETINGS, TAGS, userUri, type Client } from './api-test-support';

const KEYS = '/api/v1/apikey/';

/** API keys (spec 000 §7, spec 002 §6: superusers only; key shown once; realms limit the calls). */
describe('API keys', () => {
  let t: TestServer;
  let admin: Client;
  let owner: { id: number; client: Client };

  /** A client that sends only the key: no cookies, no CSRF header. */
  const keyClient = (key: string) => {
    const c = t.client();
    c.headers = { authorization: `ApiKey ${key}` };
    return c;
  };
  const createKey = async (body: Record<string, unknown>) => expectStatus(await admin.post(KEYS, body), 201);
  const keyCount = async () => expectStatus(await admin.get(KEYS), 200).meta.total_count as number;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    owner = await t.user();
    // Calling with a key needs access_connect (decision 0041).
    expectStatus(await admin.patch(userUri(owner.id), { user_permissions: ['access_connect'] }), 200);
  });
  after(async () => {
    await t?.close();
  });

  it('lets a superuser create a key, which the reply shows once and lists show only by its prefix', async () => {
    const created = await createKey({ user: userUri(owner.id), realms: ['greeting'] });

    assert.match(created.key, /^wbk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]+$/);
    assert.equal(created.user, userUri(owner.id));
    assert.deepEqual(created.realms, ['greeting']);
    const listed = expectStatus(await admin.get(`${KEYS}?user=${encodeURIComponent(userUri(owner.id))}`), 200).objects;
    const entry = listed.find((k: { key_prefix: string }) => k.key_prefix === created.key_prefix);
    assert.ok(entry);
    assert.equal(JSON.stringify(listed).includes(created.key), false, 'the full key is never listed');
  });

  it('authenticates a call of a listed realm without cookies and without a CSRF token', async () => {
    const { key } = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    const mine = await createGreeting(owner.client, { name: 'read through a key' });
    const c = keyClient(key);

    const list = expectStatus(await c.get(GREETINGS), 200);
    assert.ok(list.objects.some((g: { id: number }) => g.id === mine.id));
    const created = expectStatus(await c.post(GREETINGS, { name: 'made through a key' }, { csrf: false }), 201);
    assert.equal(created.owner, userUri(owner.id), 'the key acts as its user');
    expectStatus(await c.patch(created.resource_uri, { message: 'changed through a key' }, { csrf: false }), 200);
    assert.equal(c.cookies.get('sessionid'), undefined);
    assert.equal(c.cookies.get('csrftoken'), undefined);
  });

  it('refuses a call of a realm the key does not list with 403', async () => {
    const { key } = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    assertError(
      await keyClient(key).get(TAGS),
      403,
      'realm_denied',
      "This API key may not be used for calls of the realm 'tag'.",
    );
    assertError(await keyClient(key).post(TAGS, { name: 'through a key' }, { csrf: false }), 403, 'realm_denied');
  });

  it('refuses a user who is not a superuser to create or list keys, and creates none', async () => {
    const before = await keyCount();
    assertError(
      await owner.client.post(KEYS, { user: userUri(owner.id), realms: ['greeting'] }),
      403,
      'superuser_required',
      'Only administrators may do this.',
    );
    assertError(await owner.client.get(KEYS), 403, 'superuser_required');
    assert.equal(await keyCount(), before);
  });

  it('stops a deleted key from working at once', async () => {
    const { key } = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    const c = keyClient(key);
    expectStatus(await c.get(GREETINGS), 200);

    assert.equal((await admin.delete(`${KEYS}${key}/`)).status, 204);

    assertError(await c.get(GREETINGS), 401, 'not_authenticated');
    assertError(await c.post(GREETINGS, { name: 'with a deleted key' }, { csrf: false }), 401, 'not_authenticated');
    assertError(await admin.delete(`${KEYS}${key}/`), 404, 'apikey_not_found');
  });

  it('does not fall back to the session cookie when the presented key is not valid', async () => {
    const u = await t.user();
    const bogus = 'wbk_AAAAAAAAAAAA_not-a-real-key';
    const before = expectStatus(await u.client.get(GREETINGS), 200).meta.total_count;

    assertError(await u.client.get(GREETINGS, { headers: { authorization: `ApiKey ${bogus}` } }), 401, 'not_authenticated');
    const res = await u.client.post(
      GREETINGS,
      { name: 'bogus key' },
      { csrf: false, headers: { authorization: `ApiKey ${bogus}` } },
    );
    assertError(res, 401, 'not_authenticated');
    assert.equal(expectStatus(await u.client.get(GREETINGS), 200).meta.total_count, before);
  });

  it('refuses an expiration in the past, and creates no key', async () => {
    const before = await keyCount();
    const res = await admin.post(KEYS, {
      user: userUri(owner.id),
      realms: ['greeting'],
      expiration: new Date(Date.now() - 60_000).toISOString(),
    });
    assertError(res, 400, 'invalid_expiration', 'The expiration must be a date-time in the future.');
    assert.equal(await keyCount(), before);
  });

  it('refuses unknown realms and unknown users', async () => {
    assertError(await admin.post(KEYS, { user: userUri(owner.id), realms: ['nonsense'] }), 400, 'invalid_realms');
    assertError(await admin.post(KEYS, { user: userUri(999999), realms: ['greeting'] }), 400, 'invalid_user');
  });

  it('refuses a key once it has expired', async () => {
    const { key } = await createKey({
      user: userUri(owner.id),
      realms: ['*'],
      expiration: new Date(Date.now() + 3600_000).toISOString(),
    });
    expectStatus(await keyClient(key).get(TAGS), 200);
    await t.server.db.dataSource.query(
      `UPDATE werkbank_apikey SET expiration = now() - interval '1 second' WHERE key_prefix = $1`,
      [key.split('_')[1]],
    );
    assertError(await keyClient(key).get(TAGS), 401, 'not_authenticated');
  });

  it('stops working when its user is deactivated', async () => {
    const u = await t.user();
    expectStatus(await admin.patch(userUri(u.id), { user_permissions: ['access_connect'] }), 200);
    const { key } = await createKey({ user: userUri(u.id), realms: ['greeting'] });
    expectStatus(await keyClient(key).get(GREETINGS), 200);
    await t.server.db.dataSource.query(`UPDATE werkbank_user SET is_active = false WHERE id = $1`, [u.id]);
    assertError(await keyClient(key).get(GREETINGS), 401, 'not_authenticated');
  });
});
