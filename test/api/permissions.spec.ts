import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, createGreeting, expectStatus, GREETINGS, userUri, type Client, type Greeting } from './api-test-support';

type Grant = { user?: string; group?: string; perms: string[] };

/** Object permissions on greetings (DESIGN §3, spec 002 §6): owner, user and group grants, superusers. */
describe('object permissions on /api/v1/greeting/', () => {
  let t: TestServer;
  let admin: Client;
  let owner: { id: number; client: Client };
  let other: { id: number; client: Client };
  let seq = 0;

  const newGreeting = () => createGreeting(owner.client, { name: `greeting ${++seq}`, message: 'original' });
  const grant = async (g: Greeting, permissions: Grant[]) =>
    expectStatus<Greeting>(await owner.client.patch(g.resource_uri, { permissions }), 200);
  const listed = async (c: Client, g: Greeting) =>
    (expectStatus(await c.get(`${GREETINGS}?limit=1000`), 200).objects as Greeting[]).some((o) => o.id === g.id);
  const asOwner = async (g: Greeting) => expectStatus<Greeting>(await owner.client.get(g.resource_uri), 200);

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    owner = await t.user();
    other = await t.user();
  });
  after(async () => {
    await t?.close();
  });

  it('lets the owner read, change and delete their greeting', async () => {
    const g = await newGreeting();
    assert.equal(g.owner, userUri(owner.id));
    assert.equal(expectStatus<Greeting>(await owner.client.get(g.resource_uri), 200).name, g.name);
    assert.ok(await listed(owner.client, g));
    assert.equal(
      expectStatus<Greeting>(await owner.client.patch(g.resource_uri, { message: 'changed' }), 200).message,
      'changed',
    );
    expectStatus(await owner.client.delete(g.resource_uri), 204);
    assertError(await owner.client.get(g.resource_uri), 404, 'not_found');
  });

  it('answers another user without a grant with 404 on GET, PATCH and DELETE, exactly as for a missing id', async () => {
    const g = await newGreeting();
    const missing = `${GREETINGS}999999/`;
    for (const [mine, absent] of [
      [await other.client.get(g.resource_uri), await other.client.get(missing)],
      [await other.client.patch(g.resource_uri, { message: 'taken over' }), await other.client.patch(missing, { message: 'x' })],
      [await other.client.delete(g.resource_uri), await other.client.delete(missing)],
    ]) {
      assertError(mine, 404, 'not_found');
      assert.deepEqual(mine.body, absent.body);
    }
    const now = await asOwner(g);
    assert.equal(now.message, 'original');
  });

  it('does not list a greeting to another user without a grant', async () => {
    const g = await newGreeting();
    assert.equal(await listed(other.client, g), false);
    const res = expectStatus(await other.client.get(`${GREETINGS}?q=${encodeURIComponent(g.name)}`), 200);
    assert.equal(res.meta.total_count, 0);
  });

  it('lets a user with a read grant read and list the greeting, but refuses changes with 403', async () => {
    const g = await newGreeting();
    const granted = await grant(g, [{ user: userUri(other.id), perms: ['read'] }]);
    assert.deepEqual(granted.permissions, [{ user: userUri(other.id), perms: ['read'] }]);

    assert.equal(expectStatus<Greeting>(await other.client.get(g.resource_uri), 200).name, g.name);
    assert.ok(await listed(other.client, g));
    assertError(await other.client.patch(g.resource_uri, { message: 'changed' }), 403, 'permission_denied');
    assertError(await other.client.delete(g.resource_uri), 403, 'permission_denied');
    assert.equal((await asOwner(g)).message, 'original');
  });

  it('lets a user with read and write grants change the greeting', async () => {
    const g = await newGreeting();
    await grant(g, [{ user: userUri(other.id), perms: ['read', 'write'] }]);
    const changed = expectStatus<Greeting>(await other.client.patch(g.resource_uri, { message: 'changed by a grantee' }), 200);
    assert.equal(changed.message, 'changed by a grantee');
    assert.equal(changed.owner, userUri(owner.id), 'a change by a grantee keeps the owner');
    assert.equal((await asOwner(g)).message, 'changed by a grantee');
  });

  it('gives every member of a granted group the access, and nobody else', async () => {
    const group = expectStatus(await admin.post('/api/v1/group/', { name: 'greeting readers' }), 201);
    const member = await t.user();
    const outsider = await t.user();
    await t.server.db.dataSource.query(`INSERT INTO werkbank_user_group (user_id, group_id) VALUES ($1, $2)`, [
      member.id,
      group.id,
    ]);
    const g = await newGreeting();
    const granted = await grant(g, [{ group: group.resource_uri, perms: ['read', 'write'] }]);
    assert.deepEqual(granted.permissions, [{ group: group.resource_uri, perms: ['read', 'write'] }]);

    assert.ok(await listed(member.client, g));
    expectStatus(await member.client.patch(g.resource_uri, { message: 'changed by a member' }), 200);
    assertError(await outsider.client.get(g.resource_uri), 404, 'not_found');
    assert.equal(await listed(outsider.client, g), false);
  });

  it('tells each caller in `access` what they may do with the object', async () => {
    const g = await newGreeting();
    const accessOf = async (c: Client) => (expectStatus(await c.get(g.resource_uri), 200) as { access: string[] }).access;
    assert.deepEqual(await accessOf(owner.client), ['read', 'write']);
    await grant(g, [{ user: userUri(other.id), perms: ['read'] }]);
    assert.deepEqual(await accessOf(other.client), ['read']);
    const inList = (
      expectStatus(await other.client.get(`${GREETINGS}?limit=1000`), 200).objects as Array<Greeting & { access: string[] }>
    ).find((o) => o.id === g.id)!;
    assert.deepEqual(inList.access, ['read']);
    await grant(g, [{ user: userUri(other.id), perms: ['read', 'write'] }]);
    assert.deepEqual(await accessOf(other.client), ['read', 'write']);
    assert.deepEqual(await accessOf(admin), ['read', 'write']);
  });

  it('takes the access away again when the owner removes the grant', async () => {
    const g = await newGreeting();
    await grant(g, [{ user: userUri(other.id), perms: ['read'] }]);
    expectStatus(await other.client.get(g.resource_uri), 200);
    await grant(g, []);
    assertError(await other.client.get(g.resource_uri), 404, 'not_found');
  });

  it('refuses a permission change by a non-owner with write (403) and changes nothing of the request', async () => {
    const g = await newGreeting();
    await grant(g, [{ user: userUri(other.id), perms: ['read', 'write'] }]);
    const stranger = await t.user();

    const res = await other.client.patch(g.resource_uri, {
      message: 'changed together with the grants',
      permissions: [
        { user: userUri(other.id), perms: ['read', 'write'] },
        { user: userUri(stranger.id), perms: ['read', 'write'] },
      ],
    });

    assertError(res, 403, 'permission_denied', 'Only the owner or an administrator may change the permissions of this object.');
    const now = await asOwner(g);
    assert.equal(now.message, 'original');
    assert.deepEqual(now.permissions, [{ user: userUri(other.id), perms: ['read', 'write'] }]);
    assertError(await stranger.client.get(g.resource_uri), 404, 'not_found');
  });

  it('refuses grants to users that do not exist', async () => {
    const g = await newGreeting();
    const res = await owner.client.patch(g.resource_uri, { permissions: [{ user: userUri(999999), perms: ['read'] }] });
    assertError(res, 400, 'invalid_field');
    assert.deepEqual((await asOwner(g)).permissions, []);
  });

  it('refuses malformed grants with 400 naming the permissions field, and keeps the grants as they were', async () => {
    const g = await newGreeting();
    await grant(g, [{ user: userUri(other.id), perms: ['read'] }]);
    const user = userUri(other.id);
    const cases: Array<{ why: string; permissions: unknown }> = [
      { why: 'an entry that is null', permissions: [null] },
      { why: 'an entry that is a number', permissions: [5] },
      { why: 'a permission greetings do not have beside one they have', permissions: [{ user, perms: ['read', 'delete'] }] },
      { why: 'perms that are not a list', permissions: [{ user, perms: 'read' }] },
      { why: 'an entry for nobody', permissions: [{ perms: ['read'] }] },
      { why: 'an entry for a user and a group at once', permissions: [{ user, group: '/api/v1/group/1/', perms: ['read'] }] },
    ];
    for (const c of cases) {
      const res = await owner.client.patch(g.resource_uri, { permissions: c.permissions, message: 'changed' });
      assert.equal(res.status, 400, `${c.why}: ${JSON.stringify(res.body)}`);
      assertError(res, 400, 'invalid_field');
      assert.equal(res.body.field, 'permissions', c.why);
    }
    const now = await asOwner(g);
    assert.deepEqual(now.permissions, [{ user, perms: ['read'] }]);
    assert.equal(now.message, 'original');
  });

  it('lets a superuser see, list, change and delete every greeting', async () => {
    const g = await newGreeting();
    expectStatus(await admin.get(g.resource_uri), 200);
    assert.ok(await listed(admin, g));
    expectStatus(await admin.patch(g.resource_uri, { message: 'changed by the admin' }), 200);
    assert.equal((await asOwner(g)).message, 'changed by the admin');
    expectStatus(await admin.delete(g.resource_uri), 204);
    assertError(await owner.client.get(g.resource_uri), 404, 'not_found');
  });

  it('refuses every call without a session with 401', async () => {
    const g = await newGreeting();
    const anonymous = t.client();
    assertError(await anonymous.get(GREETINGS), 401, 'not_authenticated');
    assertError(await anonymous.get(g.resource_uri), 401, 'not_authenticated');
    assertError(await anonymous.patch(g.resource_uri, { message: 'x' }), 401, 'not_authenticated');
  });
});
