import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { apiKeyClient, assertError, expectStatus, userUri, type Client } from './api-test-support';

const impersonate = (id: number) => `/api/v2/backend/users/${id}/impersonate`;
const STOP = '/api/v2/backend/impersonate/stop';

/**
 * Impersonation (spec 000 §6–§8, issue 19): superusers only, never into another superuser, a new
 * session id on start and on stop, and every step in the activity feed with both users.
 */
describe('impersonation', function () {
  let t: TestServer;

  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  const adminId = async (c: Client) =>
    Number(/(\d+)\/$/.exec(expectStatus(await c.get('/api/v2/backend/config'), 200).auth.user)![1]);

  it('lets a superuser act as a user and return, with a new session id each time and the old ones ended', async () => {
    const admin = await t.admin();
    const me = await adminId(admin);
    const myName = expectStatus(await admin.get('/api/v2/backend/config'), 200).auth.display_name;
    const eva = await t.user({ username: 'eva.acted' });
    const before = admin.cookies.get('sessionid');
    const started = expectStatus(await admin.post(impersonate(eva.id)), 200);
    assert.equal(started.user, userUri(eva.id));
    const during = admin.cookies.get('sessionid');
    assert.ok(during && during !== before, 'a new session id on start');

    const config = expectStatus(await admin.get('/api/v2/backend/config'), 200).auth;
    assert.equal(config.user, userUri(eva.id));
    assert.equal(config.is_superuser, false, 'the user’s rights apply, not the superuser’s');
    assert.deepEqual(config.impersonator, { user: userUri(me), display_name: myName });
    const stale = t.client();
    stale.cookies.set('sessionid', before!);
    assertError(await stale.get('/api/v1/user/'), 401, 'not_authenticated');

    const sb = expectStatus(await admin.post('/api/v1/switchboard/', { name: 'Made while acting' }), 201);

    expectStatus(await admin.post(STOP), 200);
    const after = admin.cookies.get('sessionid');
    assert.ok(after && after !== during && after !== before, 'a new session id on stop');
    const back = expectStatus(await admin.get('/api/v2/backend/config'), 200).auth;
    assert.equal(back.user, userUri(me));
    assert.equal(back.impersonator, null);
    const staleDuring = t.client();
    staleDuring.cookies.set('sessionid', during!);
    assertError(await staleDuring.get('/api/v1/user/'), 401, 'not_authenticated');

    // The feed: start, the action (by the user, with the superuser named), stop.
    const feed = expectStatus(
      await admin.get(`/api/v1/event/?user=${encodeURIComponent(userUri(eva.id))}&order_by=created`),
      200,
    );
    const entries = feed.objects.map((e: any) => [e.content_repr, e.metadata.impersonation ?? null, e.metadata.impersonator]);
    assert.deepEqual(entries, [
      ['eva.acted', 'start', userUri(me)],
      ['Made while acting', null, userUri(me)],
      ['eva.acted', 'stop', userUri(me)],
    ]);
    assert.equal(feed.objects[1].content_object, sb.resource_uri);
    assert.equal(feed.objects[1].metadata.impersonator_name, myName);
  });

  it('refuses non-superusers, other superusers, oneself, unknown users, API keys and nested impersonation', async () => {
    const admin = await t.admin();
    const me = await adminId(admin);
    const plain = await t.user();
    const boss = await t.user({ is_superuser: true });
    const other = await t.user();
    assertError(await plain.client.post(impersonate(other.id)), 403, 'superuser_required');
    assertError(await admin.post(impersonate(boss.id)), 403, 'impersonate_superuser');
    assertError(await admin.post(impersonate(me)), 400, 'invalid_user');
    assertError(await admin.post(impersonate(999999)), 404, 'not_found');
    assertError(await admin.post(STOP), 400, 'not_impersonating');
    const key = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(me) }), 201).key;
    assertError(await apiKeyClient(t, key).post(impersonate(other.id), {}, { csrf: false }), 403, 'session_required');

    expectStatus(await admin.post(impersonate(plain.id)), 200);
    assertError(await admin.post(impersonate(other.id)), 403, 'already_impersonating');
    expectStatus(await admin.post(STOP), 200);
  });

  it('leaves the user’s own sessions and last login alone', async () => {
    const admin = await t.admin();
    const kim = await t.user({ max_concurrent_sessions: 1 });
    const lastLogin = expectStatus(await admin.get(userUri(kim.id)), 200).last_login;
    expectStatus(await admin.post(impersonate(kim.id)), 200);
    expectStatus(await kim.client.get('/api/v1/user/'), 200);
    expectStatus(await admin.post(STOP), 200);
    assert.equal(expectStatus(await admin.get(userUri(kim.id)), 200).last_login, lastLogin);
  });
});
