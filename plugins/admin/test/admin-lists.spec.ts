import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, userUri, type Client } from '@werkbank/testing/node';

const KEYS = '/api/v1/apikey/';

/** Issue 19: the account lists page like every other list, and the session table names people. */
describe('admin: user, group and API key lists page; sessions name their users', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('pages the user list with offset, limit and the total count', async () => {
    for (const n of ['pa', 'pb', 'pc', 'pd']) await t.user({ username: `paging.${n}` });
    const all = expectStatus(await admin.get('/api/v1/user/?q=paging.&order_by=username'), 200);
    assert.equal(all.meta.total_count, 4);
    const page = expectStatus(await admin.get('/api/v1/user/?q=paging.&order_by=username&offset=1&limit=2'), 200);
    assert.deepEqual(page.meta, { offset: 1, limit: 2, total_count: 4, next: page.meta.next });
    assert.deepEqual(
      expectStatus(await admin.get(page.meta.next), 200).objects.map((u: { username: string }) => u.username),
      ['paging.pd'],
      'the next page by cursor',
    );
    assert.deepEqual(
      page.objects.map((u: { username: string }) => u.username),
      ['paging.pb', 'paging.pc'],
    );
  });

  it('filters the user list by active, staff and superuser', async () => {
    await t.user({ username: 'filter.off', is_active: false });
    await t.user({ username: 'filter.boss', is_superuser: true });
    const inactive = expectStatus(await admin.get('/api/v1/user/?q=filter.&is_active=false'), 200);
    assert.deepEqual(
      inactive.objects.map((u: { username: string }) => u.username),
      ['filter.off'],
    );
    const bosses = expectStatus(await admin.get('/api/v1/user/?q=filter.&is_superuser=true'), 200);
    assert.deepEqual(
      bosses.objects.map((u: { username: string }) => u.username),
      ['filter.boss'],
    );
  });

  it('pages the group list with offset, limit and the total count', async () => {
    for (const n of ['A', 'B', 'C']) expectStatus(await admin.post('/api/v1/group/', { name: `Paging ${n}` }), 201);
    const page = expectStatus(await admin.get('/api/v1/group/?q=Paging&offset=2&limit=5'), 200);
    assert.deepEqual(page.meta, { offset: 2, limit: 5, total_count: 3, next: null });
    assert.deepEqual(
      page.objects.map((g: { name: string }) => g.name),
      ['Paging C'],
    );
  });

  it('pages the API key list with offset, limit and the total count, newest first', async () => {
    const owner = await t.user();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(expectStatus(await admin.post(KEYS, { user: userUri(owner.id) }), 201).key_prefix);
    const mine = `${KEYS}?user=${encodeURIComponent(userUri(owner.id))}`;
    const first = expectStatus(await admin.get(`${mine}&limit=2`), 200);
    assert.deepEqual(first.meta, { offset: 0, limit: 2, total_count: 3, next: first.meta.next });
    assert.equal(first.objects.length, 2);
    const rest = expectStatus(await admin.get(`${mine}&offset=2&limit=2`), 200);
    assert.deepEqual(rest.meta, { offset: 2, limit: 2, total_count: 3, next: null });
    const byCursor = expectStatus(await admin.get(first.meta.next), 200);
    assert.deepEqual(byCursor.objects, rest.objects, 'the next page by cursor is the one at offset 2');
    const prefixes = [...first.objects, ...rest.objects].map((k: { key_prefix: string }) => k.key_prefix);
    assert.deepEqual(prefixes, [...made].reverse());
    assert.equal(expectStatus(await admin.get(mine), 200).meta.limit, 20, 'the default page is the default limit');
    assertError(await admin.get(`${mine}&limit=many`), 400, 'invalid_parameter');
  });

  it('names the user of each session in the session list, by full name or username', async () => {
    const u = await t.user({ username: 'sessions.named' });
    expectStatus(await admin.patch(userUri(u.id), { first_name: 'Eva', last_name: 'Kahl' }), 200);
    const plain = await t.user({ username: 'sessions.plain' });
    const named = expectStatus(await admin.get(`/api/v1/session/?user=${encodeURIComponent(userUri(u.id))}`), 200).objects;
    assert.ok(named.length > 0);
    for (const s of named) assert.equal(s.user_name, 'Eva Kahl');
    const other = expectStatus(await admin.get(`/api/v1/session/?user=${encodeURIComponent(userUri(plain.id))}`), 200).objects;
    assert.equal(other[0].user_name, 'sessions.plain');
  });

  it('lists the realms an API key may be limited to, every realm first', async () => {
    const realms = expectStatus(await admin.get('/api/v2/backend/realms'), 200).objects.map((r: { name: string }) => r.name);
    assert.equal(realms[0], '*');
    for (const r of ['apikey', 'user', 'group']) assert.ok(realms.includes(r), r);
  });
});
