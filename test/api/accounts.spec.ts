import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { apiKeyClient, assertError, createGreeting, expectStatus, GREETINGS, sameSession, userUri } from './api-test-support';

const WHO_AM_I = '/api/v1/user/';

describe('accounts: login, logout, passwords, sessions', () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer({ examples: true });
  });
  after(async () => {
    await t?.close();
  });

  describe('login', () => {
    it('issues a new session id and a new CSRF token, so a planted session id is never adopted', async () => {
      const u = await t.user();
      const c = t.client();
      await c.get('/api/v2/backend/config');
      const anonymousToken = c.csrfToken;
      assert.ok(anonymousToken, 'an anonymous visitor gets a CSRF token');
      c.cookies.set('sessionid', 'planted-by-an-attacker');

      const res = await c.login(u.username, u.password);

      assert.equal(res.body.user, userUri(u.id));
      const sessionId = c.cookies.get('sessionid');
      assert.ok(sessionId);
      assert.notEqual(sessionId, 'planted-by-an-attacker');
      assert.ok(c.csrfToken);
      assert.notEqual(c.csrfToken, anonymousToken);
      expectStatus(await c.get(WHO_AM_I), 200);
    });

    it('logging in again while signed in replaces the session and ends the previous one', async () => {
      const u = await t.user();
      const previous = sameSession(t, u.client);
      const oldSessionId = u.client.cookies.get('sessionid');
      const oldToken = u.client.csrfToken;

      await u.client.login(u.username, u.password);

      assert.notEqual(u.client.cookies.get('sessionid'), oldSessionId);
      assert.notEqual(u.client.csrfToken, oldToken);
      assertError(await previous.get(WHO_AM_I), 401, 'not_authenticated');
      expectStatus(await u.client.get(WHO_AM_I), 200);
    });

    it('refuses a wrong password with 400 and a reason, and opens no session', async () => {
      const u = await t.user();
      const c = t.client();

      const res = await c.post('/accounts/login/', { username: u.username, password: 'not-the-password' });

      assertError(res, 400, 'invalid_login', 'The username or the password is wrong.');
      assert.equal(c.cookies.get('sessionid'), undefined);
      assertError(await c.get(WHO_AM_I), 401, 'not_authenticated');
    });

    it('refuses an unknown username with the same reply as a wrong password', async () => {
      const res = await t.client().post('/accounts/login/', { username: 'nobody-by-this-name', password: 'whatever-1' });
      assertError(res, 400, 'invalid_login', 'The username or the password is wrong.');
    });

    it('refuses the sixth attempt after five failed logins for one account with 429, even with the right password', async () => {
      const u = await t.user();
      const c = t.client();
      for (let i = 0; i < 5; i++) {
        assertError(await c.post('/accounts/login/', { username: u.username, password: `wrong-${i}` }), 400, 'invalid_login');
      }

      const res = await c.post('/accounts/login/', { username: u.username, password: u.password });

      assertError(res, 429, 'too_many_attempts', /Too many failed logins/);
      assert.equal(c.cookies.get('sessionid'), undefined);
      // Another account from the same address is not locked out by this one's failures.
      const other = await t.user();
      await t.client().login(other.username, other.password);
    });

    it('logs in a user whose name was typed with spaces around it, answering ok with the user', async () => {
      const u = await t.user();
      const res = await u.client.post('/accounts/login/', { username: `  ${u.username} `, password: u.password });
      const body = expectStatus(res, 200);
      assert.deepEqual([body.status, body.user, body.username], ['ok', `/api/v1/user/${u.id}/`, u.username]);
      assert.ok(u.client.cookies.get('sessionid'));
    });

    it('an expired account cannot log in (403 with a reason)', async () => {
      const u = await t.user({ expiration_date: new Date(Date.now() - 24 * 3600 * 1000) });
      const res = await u.client.post('/accounts/login/', { username: u.username, password: u.password });
      assertError(res, 403, 'expired_user', 'This account has expired.');
      assert.equal(u.client.cookies.get('sessionid'), undefined);
    });

    it('an inactive account cannot log in (403 with a reason)', async () => {
      const u = await t.user({ is_active: false });
      const res = await u.client.post('/accounts/login/', { username: u.username, password: u.password });
      assertError(res, 403, 'inactive_user', 'This account is not allowed to log in.');
      assert.equal(u.client.cookies.get('sessionid'), undefined);
    });

    it('an account deactivated or expired while signed in loses access with its next request', async () => {
      const deactivated = await t.user();
      const expiring = await t.user();
      expectStatus(await deactivated.client.get(WHO_AM_I), 200);
      expectStatus(await expiring.client.get(WHO_AM_I), 200);

      const db = t.server.db.dataSource;
      await db.query(`UPDATE werkbank_user SET is_active = false WHERE id = $1`, [deactivated.id]);
      await db.query(`UPDATE werkbank_user SET expiration_date = now() - interval '1 minute' WHERE id = $1`, [expiring.id]);

      assertError(await deactivated.client.get(WHO_AM_I), 401, 'not_authenticated');
      assertError(await expiring.client.get(WHO_AM_I), 401, 'not_authenticated');
    });

    it('lets an account that expires in the future log in and work, and records the login', async () => {
      const u = await t.user({ expiration_date: new Date(Date.now() + 24 * 3600 * 1000) });
      const c = t.client();
      await c.login(u.username, u.password);
      expectStatus(await c.get(WHO_AM_I), 200);
      const admin = await t.admin();
      const lastLogin = expectStatus(await admin.get(userUri(u.id)), 200).last_login as string | null;
      assert.ok(lastLogin && Math.abs(Date.parse(lastLogin) - Date.now()) < 3600_000, `last_login ${lastLogin}`);
    });

    it('accepts usernames up to 150 and passwords up to 1000 characters, and refuses longer ones like a wrong password', async () => {
      const admin = await t.admin();
      const username = `u${'n'.repeat(149)}`;
      const password = 'p'.repeat(1000);
      expectStatus(await admin.post('/api/v1/user/', { username, raw_password: password, is_active: true }), 201);
      const c = t.client();
      await c.login(username, password);
      const changed = { old_password: password, new_password1: 'q'.repeat(1000), new_password2: 'q'.repeat(1000) };
      expectStatus(await c.post('/accounts/password/', changed), 200);
      const wrong = 'The username or the password is wrong.';
      assertError(await t.client().post('/accounts/login/', { username: `${username}x`, password }), 400, 'invalid_login', wrong);
      assertError(
        await t.client().post('/accounts/login/', { username, password: `${'q'.repeat(1000)}q` }),
        400,
        'invalid_login',
        wrong,
      );
    });

    it('refuses every login from an address after 30 failures within the window, whatever the accounts', async () => {
      const u = await t.user();
      const db = t.server.db.dataSource;
      await db.query(`DELETE FROM werkbank_login_attempt`);
      try {
        for (let i = 0; i < 30; i++) {
          const res = await t.client().post('/accounts/login/', { username: `guess-${i % 6}`, password: `wrong-${i}` });
          assertError(res, 400, 'invalid_login');
        }
        const res = await t.client().post('/accounts/login/', { username: u.username, password: u.password });
        assertError(res, 429, 'too_many_attempts', 'Too many failed logins. Try again in 15 minutes.');
      } finally {
        await db.query(`DELETE FROM werkbank_login_attempt`);
      }
    });

    it('keeps the first 1000 characters of a browser’s user agent with its session', async () => {
      const u = await t.user();
      const c = t.client();
      const agent = `Mozilla/5.0 ${'x'.repeat(1500)}`;
      const res = await c.post(
        '/accounts/login/',
        { username: u.username, password: u.password },
        { headers: { 'user-agent': agent } },
      );
      expectStatus(res, 200);
      const admin = await t.admin();
      const sessions = expectStatus(await admin.get(`/api/v1/session/?user=${encodeURIComponent(userUri(u.id))}`), 200)
        .objects as Array<{ user_agent: string }>;
      assert.ok(
        sessions.some((s) => s.user_agent === agent.slice(0, 1000)),
        JSON.stringify(sessions.map((s) => s.user_agent.length)),
      );
    });

    it('gives a signed-in user the rights of their groups', async () => {
      const admin = await t.admin();
      const group = expectStatus(await admin.post('/api/v1/group/', { name: 'session readers' }), 201);
      const member = await t.user();
      expectStatus(await admin.patch(userUri(member.id), { groups: [group.resource_uri] }), 200);
      const outsider = await t.user();
      const g = await createGreeting(outsider.client, {
        name: 'read by a group',
        permissions: [{ group: group.resource_uri, perms: ['read'] }],
      });
      expectStatus(await member.client.get(g.resource_uri), 200);
      const c = t.client();
      await c.login(member.username, member.password);
      expectStatus(await c.get(g.resource_uri), 200);
    });
  });

  describe('logout', () => {
    it('GET /accounts/logout/ redirects to the login page and the old session stops working', async () => {
      const u = await t.user();
      const copied = sameSession(t, u.client);

      const res = await u.client.get('/accounts/logout/');

      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), '/accounts/login/');
      assert.equal(u.client.cookies.get('sessionid'), undefined, 'the session cookie is cleared');
      assertError(await copied.get(WHO_AM_I), 401, 'not_authenticated');
      assertError(await u.client.get(WHO_AM_I), 401, 'not_authenticated');
    });

    it('POST /accounts/logout/ answers ok and ends the session', async () => {
      const u = await t.user();
      const copied = sameSession(t, u.client);
      const res = await u.client.post('/accounts/logout/');
      assert.deepEqual(expectStatus(res, 200), { status: 'ok' });
      assert.equal(u.client.cookies.get('sessionid'), undefined, 'the session cookie is cleared');
      assertError(await copied.get(WHO_AM_I), 401, 'not_authenticated');
    });
  });

  describe('session limit', () => {
    it('a user limited to two sessions who logs in three times loses the oldest session; the two newest work', async () => {
      const u = await t.user({ max_concurrent_sessions: 2 });
      const second = t.client();
      await second.login(u.username, u.password);
      const third = t.client();
      await third.login(u.username, u.password);

      assertError(await u.client.get(WHO_AM_I), 401, 'not_authenticated');
      expectStatus(await second.get(WHO_AM_I), 200);
      expectStatus(await third.get(WHO_AM_I), 200);
    });

    it('a user without a limit keeps every session', async () => {
      const u = await t.user();
      const others = [t.client(), t.client(), t.client()];
      for (const c of others) await c.login(u.username, u.password);
      for (const c of [u.client, ...others]) expectStatus(await c.get(WHO_AM_I), 200);
    });
  });

  describe('password change', () => {
    it('refuses a wrong old password with 400 and keeps the password', async () => {
      const u = await t.user();
      const res = await u.client.post('/accounts/password/', {
        old_password: 'not-the-old-one',
        new_password1: 'brand-new-secret',
        new_password2: 'brand-new-secret',
      });
      assertError(res, 400, 'password_wrong', 'The old password is wrong.');
      await t.client().login(u.username, u.password);
    });

    it('refuses two different new passwords with 400 and keeps the password', async () => {
      const u = await t.user();
      const res = await u.client.post('/accounts/password/', {
        old_password: u.password,
        new_password1: 'brand-new-secret',
        new_password2: 'brand-new-secreT',
      });
      assertError(res, 400, 'password_mismatch', 'The two new passwords differ.');
      await t.client().login(u.username, u.password);
    });

    it('refuses a new password shorter than eight characters', async () => {
      const u = await t.user();
      const res = await u.client.post('/accounts/password/', {
        old_password: u.password,
        new_password1: 'short',
        new_password2: 'short',
      });
      assertError(res, 400, 'password_too_short');
    });

    it('sets the new password, closes the user’s other sessions and keeps the current one', async () => {
      const u = await t.user();
      const elsewhere = t.client();
      await elsewhere.login(u.username, u.password);
      const bystander = await t.user();

      const res = await u.client.post('/accounts/password/', {
        old_password: u.password,
        new_password1: 'brand-new-secret',
        new_password2: 'brand-new-secret',
      });

      expectStatus(res, 200);
      expectStatus(await u.client.get(WHO_AM_I), 200);
      assertError(await elsewhere.get(WHO_AM_I), 401, 'not_authenticated');
      expectStatus(await bystander.client.get(WHO_AM_I), 200);
      assertError(
        await t.client().post('/accounts/login/', { username: u.username, password: u.password }),
        400,
        'invalid_login',
      );
      await t.client().login(u.username, 'brand-new-secret');
    });

    it('names the field of each refusal and says how long a password must be', async () => {
      const u = await t.user();
      const change = (body: Record<string, string>) => u.client.post('/accounts/password/', body);
      const wrong = await change({ old_password: 'not-the-old-one', new_password1: 'brand-new-1', new_password2: 'brand-new-1' });
      assertError(wrong, 400, 'password_wrong');
      assert.equal(wrong.body.field, 'old_password');
      const overlong = await change({
        old_password: 'x'.repeat(1001),
        new_password1: 'brand-new-1',
        new_password2: 'brand-new-1',
      });
      assertError(overlong, 400, 'password_wrong', 'The old password is wrong.');
      assert.equal(overlong.body.field, 'old_password');
      const differ = await change({ old_password: u.password, new_password1: 'brand-new-1', new_password2: 'brand-new-2' });
      assert.equal(differ.body.field, 'new_password2');
      const empty = await change({ old_password: u.password });
      assertError(empty, 400, 'password_too_short', 'The new password must have at least 8 characters.');
      assert.equal(empty.body.field, 'new_password1');
      await t.client().login(u.username, u.password);
    });

    it('accepts a new password of exactly eight characters', async () => {
      const u = await t.user();
      const res = await u.client.post('/accounts/password/', {
        old_password: u.password,
        new_password1: '8chars!!',
        new_password2: '8chars!!',
      });
      assert.deepEqual(expectStatus(res, 200), { status: 'ok' });
      await t.client().login(u.username, '8chars!!');
    });

    it('needs a signed-in user', async () => {
      const res = await t.client().post('/accounts/password/', { old_password: 'a', new_password1: 'b', new_password2: 'b' });
      assertError(res, 401, 'not_authenticated');
    });
  });

  describe('language', () => {
    it('remembers the chosen language for later sessions and answers errors in it', async () => {
      const u = await t.user();
      expectStatus(await u.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);

      const later = t.client();
      await later.login(u.username, u.password);
      const config = expectStatus(await later.get('/api/v2/backend/config'), 200);
      assert.equal(config.auth.language, 'de');
      const profile = expectStatus(await later.get('/api/v2/backend/profile'), 200);
      assert.equal(profile.language, 'de');
      const missing = await later.get('/api/v1/greeting/999999/', { headers: { 'accept-language': 'en' } });
      assertError(missing, 404, 'not_found', 'Das angeforderte Objekt wurde nicht gefunden.');
    });

    it('refuses a language that is not offered and keeps the current one', async () => {
      const u = await t.user();
      assertError(await u.client.patch('/api/v2/backend/profile', { language: 'fr' }), 400, 'invalid_language');
      const theme = await u.client.patch('/api/v2/backend/profile', { language: 'de', theme: 'dark' });
      assertError(theme, 400, 'unknown_field', "'theme' is not a field of this object.");
      assert.equal(theme.body.field, 'theme');
      const french = await u.client.patch('/api/v2/backend/profile', { language: 'fr' });
      assert.equal(french.body.field, 'language');
      const config = expectStatus(await u.client.get('/api/v2/backend/config'), 200);
      assert.equal(config.auth.language, 'en');
    });

    it('shows the profile and answers a change with the chosen language', async () => {
      const u = await t.user();
      const profile = expectStatus(await u.client.get('/api/v2/backend/profile'), 200);
      assert.deepEqual([profile.user, profile.username, profile.is_superuser], [userUri(u.id), u.username, false]);
      assert.deepEqual(expectStatus(await u.client.patch('/api/v2/backend/profile', { language: 'de' }), 200), {
        status: 'ok',
        language: 'de',
      });
    });

    it('keeps the profile and password out of reach of API keys not made for them', async () => {
      const admin = await t.admin();
      const u = await t.user();
      expectStatus(await admin.patch(userUri(u.id), { user_permissions: ['access_connect'] }), 200);
      const { key } = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(u.id), realms: ['greeting'] }), 201);
      const viaKey = apiKeyClient(t, key);
      expectStatus(await viaKey.get(GREETINGS), 200);
      const denied = "This API key may not be used for calls of the realm 'accounts'.";
      assertError(await viaKey.get('/api/v2/backend/profile'), 403, 'realm_denied', denied);
      assertError(
        await viaKey.patch('/api/v2/backend/profile', { language: 'de' }, { csrf: false }),
        403,
        'realm_denied',
        denied,
      );
      assertError(
        await viaKey.post(
          '/accounts/password/',
          { old_password: u.password, new_password1: 'via-a-key', new_password2: 'via-a-key' },
          { csrf: false },
        ),
        403,
        'realm_denied',
        denied,
      );
    });
  });
});
