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

  it('answers each step with the user now acting, and hands out an HttpOnly session cookie beside a readable CSRF cookie', async () => {
    const admin = await t.admin();
    const me = await adminId(admin);
    const myName = expectStatus(await admin.get('/api/v2/backend/config'), 200).auth.display_name;
    const lu = await t.user({ username: 'lu.acted' });
    const res = await admin.post(impersonate(lu.id));
    assert.deepEqual(expectStatus(res, 200), { status: 'ok', user: userUri(lu.id), display_name: 'lu.acted' });
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('sessionid='));
    const csrf = cookies.find((c) => c.startsWith('csrftoken='));
    assert.ok(session && /;\s*httponly/i.test(session), session);
    assert.ok(csrf && !/httponly/i.test(csrf), `the workbench reads the CSRF token: ${csrf}`);

    // The session list (read by another superuser) shows where the acting session was opened from.
    const watcher = await t.admin();
    const sessions = expectStatus(
      await watcher.get(`/api/v1/session/?user=${encodeURIComponent(userUri(lu.id))}&is_active=true`),
      200,
    ).objects as Array<{ ip_address: string; user_agent: string }>;
    const agents = sessions.map((s) => s.user_agent);
    assert.equal(sessions.length, 2, JSON.stringify(sessions));
    assert.ok(
      sessions.every((s) => /^(::ffff:)?127\.0\.0\.1$|^::1$/.test(s.ip_address)),
      JSON.stringify(sessions),
    );
    assert.ok(
      agents.every((a) => a.length > 0),
      JSON.stringify(agents),
    );

    const stopped = expectStatus(await admin.post(STOP), 200);
    assert.deepEqual(stopped, { status: 'ok', user: userUri(me), display_name: myName });

    const feed = expectStatus(await admin.get(`/api/v1/event/?user=${encodeURIComponent(userUri(lu.id))}&order_by=created`), 200)
      .objects as Array<{ key: string; content_kind: string; content_object: string; metadata: { impersonation?: string } }>;
    const steps = feed.filter((e) => e.metadata.impersonation);
    assert.deepEqual(
      steps.map((e) => [e.key, e.content_kind, e.content_object, e.metadata.impersonation]),
      [
        ['update', 'user', userUri(lu.id), 'start'],
        ['update', 'user', userUri(lu.id), 'stop'],
      ],
    );
  });

  it('refuses callers who are not signed in, inactive users, and addresses that are not a plain id', async () => {
    const admin = await t.admin();
    const other = await t.user();
    assertError(await t.client().post(impersonate(other.id)), 401, 'not_authenticated');
    const off = await t.user({ is_active: false });
    assertError(
      await admin.post(impersonate(off.id)),
      400,
      'inactive_user',
      'This user may not log in, so you cannot act as them.',
    );
    for (const alias of [`+${other.id}`, `${other.id}e0`, `0${other.id}x`]) {
      assertError(await admin.post(`/api/v2/backend/users/${alias}/impersonate`), 404, 'not_found');
    }
    assert.equal(expectStatus(await admin.get('/api/v2/backend/config'), 200).auth.impersonator, null);
  });

  it('ends none of the user’s own sessions, even when they hold more than their limit allows now', async () => {
    const admin = await t.admin();
    const jo = await t.user();
    const second = t.client();
    await second.login(jo.username, jo.password);
    expectStatus(await admin.patch(userUri(jo.id), { max_concurrent_sessions: 1 }), 200);
    expectStatus(await admin.post(impersonate(jo.id)), 200);
    expectStatus(await jo.client.get('/api/v1/user/'), 200);
    expectStatus(await second.get('/api/v1/user/'), 200);
    expectStatus(await admin.post(STOP), 200);
  });
});
