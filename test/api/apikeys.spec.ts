import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { addDatum, newDepot } from '@werkbank/plugin-magazine/testing';
import { assertError, createGreeting, expectStatus, GREETINGS, TAGS, userUri, type Client } from './api-test-support';

const KEYS = '/api/v1/apikey/';
const ACCESS_CONNECT_EN =
  'This account may not connect with an API key: it lacks the permission “Access with API keys (Connect)”. Ask an administrator to grant it.';
const ACCESS_CONNECT_DE =
  'Dieses Konto darf sich nicht mit einem API-Schlüssel verbinden: Ihm fehlt die Berechtigung „Zugriff mit API-Schlüsseln (Connect)“. Bitten Sie einen Administrator, sie zu erteilen.';

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

  it('takes the key from the X-Api-Key header as well, and from Authorization with spaces around the key', async () => {
    const { key } = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    const viaHeader = t.client();
    viaHeader.headers = { 'x-api-key': key };
    const created = expectStatus(await viaHeader.post(GREETINGS, { name: 'made with X-Api-Key' }, { csrf: false }), 201);
    assert.equal(created.owner, userUri(owner.id));

    const spaced = t.client();
    spaced.headers = { authorization: `ApiKey    ${key}   ` };
    const list = expectStatus(await spaced.get(GREETINGS), 200);
    assert.ok(list.objects.some((g: { id: number }) => g.id === created.id));
    expectStatus(await spaced.patch(created.resource_uri, { message: 'changed with spaces' }, { csrf: false }), 200);
  });

  it('refuses the key of a user without the access_connect permission with 403 in the caller’s language, until it is granted', async () => {
    const u = await t.user();
    const { key } = await createKey({ user: userUri(u.id), realms: ['greeting'] });
    const before = expectStatus(await u.client.get(GREETINGS), 200).meta.total_count;

    assertError(await keyClient(key).get(GREETINGS), 403, 'access_connect_required', ACCESS_CONNECT_EN);
    const res = await keyClient(key).post(
      GREETINGS,
      { name: 'without access_connect' },
      { csrf: false, headers: { 'accept-language': 'de' } },
    );
    assertError(res, 403, 'access_connect_required', ACCESS_CONNECT_DE);
    assert.equal(expectStatus(await u.client.get(GREETINGS), 200).meta.total_count, before, 'the session still works');

    expectStatus(await admin.patch(userUri(u.id), { user_permissions: ['access_connect'] }), 200);
    expectStatus(await keyClient(key).post(GREETINGS, { name: 'with access_connect' }, { csrf: false }), 201);
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

  it('refuses a key whose prefix is right but whose secret is not', async () => {
    const { key } = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    expectStatus(await keyClient(key).get(GREETINGS), 200);
    const last = key.slice(-1) === 'A' ? 'B' : 'A';
    assertError(await keyClient(`${key.slice(0, -1)}${last}`).get(GREETINGS), 401, 'not_authenticated');
    assertError(await keyClient(`${key}x`).get(GREETINGS), 401, 'not_authenticated');
  });

  it('shows one key by its prefix or by the whole key, and answers 404 for others', async () => {
    const created = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    assert.equal(created.resource_uri, `${KEYS}${created.key_prefix}/`);
    const byPrefix = expectStatus(await admin.get(created.resource_uri), 200);
    assert.deepEqual(
      [byPrefix.key_prefix, byPrefix.user, byPrefix.realms, byPrefix.expiration],
      [created.key_prefix, userUri(owner.id), ['greeting'], null],
    );
    assert.equal(byPrefix.key, `wbk_${created.key_prefix}_…`, 'the secret part is never shown again');
    assert.equal(expectStatus(await admin.get(`${KEYS}${created.key}/`), 200).key_prefix, created.key_prefix);
    assertError(await admin.get(`${KEYS}AAAAAAAAAAAA/`), 404, 'apikey_not_found', 'There is no API key with this key.');
    assertError(await owner.client.get(created.resource_uri), 403, 'superuser_required');
    // Only an address that starts with the key names it.
    assertError(await admin.get(`${KEYS}x${created.key}/`), 404, 'apikey_not_found');
    assertError(await admin.delete(`${KEYS}x${created.key}/`), 404, 'apikey_not_found');
    expectStatus(await keyClient(created.key).get(GREETINGS), 200);
  });

  it('lists the keys of one user newest first, page by page behind the cursor of meta.next', async () => {
    const u = await t.user();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await createKey({ user: userUri(u.id), realms: ['greeting'] })).key_prefix);
    const mine = `${KEYS}?user=${encodeURIComponent(userUri(u.id))}`;
    const first = expectStatus(await admin.get(`${mine}&limit=2`), 200);
    assert.deepEqual(
      first.objects.map((k: { key_prefix: string }) => k.key_prefix),
      [made[2], made[1]],
    );
    assert.equal(first.meta.offset, 0);
    assert.equal(first.meta.limit, 2);
    assert.equal(first.meta.total_count, 3);
    assert.ok(first.meta.next?.startsWith(KEYS), first.meta.next);
    const second = expectStatus(await admin.get(first.meta.next), 200);
    assert.deepEqual(
      second.objects.map((k: { key_prefix: string }) => k.key_prefix),
      [made[0]],
    );
    assert.deepEqual([second.meta.offset, second.meta.next, second.meta.total_count], [null, null, 3]);
    const all = expectStatus(await admin.get(`${mine}&limit=3`), 200);
    assert.equal(all.objects.length, 3);
    assert.equal(all.meta.next, null, 'no further page when the last one is full');

    const both = await admin.get(`${first.meta.next}&offset=1`);
    assertError(both, 400, 'invalid_parameter');
    assert.equal(both.body.field, 'offset', 'the refusal names the offset');
    // A cursor of another list, or one with values that are not the list's, is refused.
    const users = expectStatus(await admin.get('/api/v1/user/?limit=1'), 200).meta.next as string;
    const foreign = new URLSearchParams(users.split('?')[1]).get('after')!;
    assertError(await admin.get(`${mine}&after=${foreign}`), 400, 'invalid_cursor');
    const { encodeCursor } = await import('../../server/src/resources/list-cursor');
    const lastKey = second.objects[0];
    const created = lastKey.created.replace('T', ' ').replace('Z', '+00');
    const cases: Array<[string, string[]]> = [
      ['-created,-id', ['yesterday', '1']],
      ['-created,-id', [created, 'one']],
      // Values this list could hold, but behind the cursor of another order.
      ['created,id', [created, '1']],
    ];
    for (const [order, values] of cases) {
      const forged = encodeCursor({ order, values });
      const res = await admin.get(`${mine}&after=${forged}`);
      assertError(res, 400, 'invalid_cursor');
      assert.equal(res.body.field, 'after');
    }
  });

  it('refuses a list filter that is not a user address, naming the field', async () => {
    const res = await admin.get(`${KEYS}?user=bob`);
    assertError(res, 400, 'invalid_field', "The field 'user' must be an address of the form /api/v1/user/{id}/.");
    assert.equal(res.body.field, 'user');
  });

  it('offers every realm a key may be limited to, every realm first', async () => {
    const realms = expectStatus(await admin.get('/api/v2/backend/realms'), 200);
    const list = realms.objects.map((r: { name: string }) => r.name) as string[];
    assert.equal(list[0], '*');
    assert.ok(list.includes('greeting') && list.includes('tag'), list.join());
    assert.deepEqual(realms.meta, { offset: 0, limit: list.length, total_count: list.length });
    const { key } = await createKey({ user: userUri(owner.id), realms: ['greeting'] });
    assertError(
      await keyClient(key).get('/api/v2/backend/realms'),
      403,
      'realm_denied',
      "This API key may not be used for calls of the realm 'apikey'.",
    );
  });

  it('refuses unknown fields, a missing user and a list with any unknown realm, naming the field', async () => {
    const before = await keyCount();
    const unknown = await admin.post(KEYS, { user: userUri(owner.id), realms: ['greeting'], colour: 'red' });
    assertError(unknown, 400, 'unknown_field', "'colour' is not a field of this object.");
    assert.equal(unknown.body.field, 'colour');
    const nobody = await admin.post(KEYS, { realms: ['greeting'] });
    assertError(nobody, 400, 'invalid_user');
    assert.equal(nobody.body.field, 'user');
    const mixed = await admin.post(KEYS, { user: userUri(owner.id), realms: ['greeting', 'nonsense'] });
    assertError(mixed, 400, 'invalid_realms', /^Realms must be a list of known realms: \*, .*greeting/);
    assert.equal(mixed.body.field, 'realms');
    const past = await admin.post(KEYS, { user: userUri(owner.id), expiration: '2001-01-01T00:00:00Z' });
    assert.equal(past.body.field, 'expiration');
    assert.equal(await keyCount(), before);
  });

  it('takes an empty or null expiration as none: the key does not expire', async () => {
    for (const expiration of [null, '', '   ']) {
      const created = await createKey({ user: userUri(owner.id), realms: ['greeting'], expiration });
      assert.equal(created.expiration, null, JSON.stringify(expiration));
      expectStatus(await keyClient(created.key).get(GREETINGS), 200);
    }
  });

  describe('in the address of a layer service (desktop GIS clients, decision 0083)', () => {
    let slug = '';
    let key = '';

    /** Whether `/services/ogc/collections` lists the internal layer to this caller. */
    const seesLayer = async (c: Client, query = '') =>
      (expectStatus(await c.get(`/services/ogc/collections?f=json${query}`), 200).collections as Array<{ id: string }>).some(
        (l) => l.id === slug,
      );

    before(async () => {
      // An internal feature layer readable by the key's owner; its pile counts once a moment is approved.
      const depot = await newDepot(admin, 'feature');
      const point = { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties: {} };
      const { moment_id } = await addDatum(admin, depot, { feature: point });
      expectStatus(await admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
      slug = 'internal_for_the_key';
      expectStatus(
        await admin.post('/api/v1/layer/', {
          name: 'Internal layer',
          slug,
          public: false,
          layerpiles: [depot.resource_uri],
          permissions: [{ user: userUri(owner.id), perms: ['read'] }],
        }),
        201,
      );
      key = (await createKey({ user: userUri(owner.id), realms: ['layer'] })).key;
    });

    it('serves the key’s user when the address carries the key, in any letter case and with spaces around it', async () => {
      assert.equal(await seesLayer(t.client()), false, 'anonymous callers do not see the internal layer');
      assert.equal(await seesLayer(t.client(), `&apikey=${key}`), true);
      assert.equal(await seesLayer(t.client(), `&APIKEY=${encodeURIComponent(`  ${key}  `)}`), true);
      assert.equal(await seesLayer(t.client(), `&ApiKey=${key}`), true);
    });

    it('serves a signed-in browser by its session when the address carries no key', async () => {
      assert.equal(await seesLayer(owner.client), true);
    });

    it('takes a key from the address only on service addresses: an API call with one stays anonymous', async () => {
      assertError(await t.client().get(`${GREETINGS}?apikey=${key}`), 401, 'not_authenticated');
      assertError(await t.client().get(`/api/v2/backend/tags/?APIKEY=${key}`), 401, 'not_authenticated');
    });
  });
});
