import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, createGreeting, expectStatus, GREETINGS, type Client, type Greeting } from './api-test-support';

const MISSING = /X-CSRFToken/;
const MISSING_EN = 'The request lacks the CSRF token (X-CSRFToken header). Reload the page and try again.';
const MISSING_DE = 'Der Anfrage fehlt das CSRF-Token (Header X-CSRFToken). Laden Sie die Seite neu und versuchen Sie es erneut.';

/** The csrftoken cookies a reply sets. */
const csrfCookiesSet = (res: { headers: Headers }) => res.headers.getSetCookie().filter((c) => c.startsWith('csrftoken='));

describe('CSRF protection (spec 000 §7: the csrftoken cookie echoed in X-CSRFToken)', () => {
  let t: TestServer;
  let alice: Client;
  let greeting: Greeting;

  const total = async () => expectStatus(await alice.get(GREETINGS), 200).meta.total_count as number;
  const current = async () => expectStatus<Greeting>(await alice.get(greeting.resource_uri), 200);

  before(async () => {
    t = await startTestServer({ examples: true });
    alice = (await t.user()).client;
    greeting = await createGreeting(alice, { name: 'guarded', message: 'untouched' });
  });
  after(async () => {
    await t?.close();
  });

  it('refuses a POST without the X-CSRFToken header with csrf_missing and creates nothing', async () => {
    const before = await total();
    assertError(await alice.post(GREETINGS, { name: 'forged' }, { csrf: false }), 403, 'csrf_missing', MISSING);
    assert.equal(await total(), before);
  });

  it('refuses a PATCH without the header and changes nothing', async () => {
    assertError(await alice.patch(greeting.resource_uri, { message: 'forged' }, { csrf: false }), 403, 'csrf_missing');
    assert.equal((await current()).message, 'untouched');
  });

  it('refuses a DELETE without the header and deletes nothing', async () => {
    assertError(await alice.delete(greeting.resource_uri, { csrf: false }), 403, 'csrf_missing');
    await current();
  });

  it('refuses POST, PATCH and DELETE with a wrong token with csrf_mismatch and changes nothing', async () => {
    const before = await total();
    assertError(await alice.post(GREETINGS, { name: 'forged' }, { csrf: 'wrong' }), 403, 'csrf_mismatch');
    assertError(await alice.patch(greeting.resource_uri, { message: 'forged' }, { csrf: 'wrong' }), 403, 'csrf_mismatch');
    assertError(await alice.delete(greeting.resource_uri, { csrf: 'wrong' }), 403, 'csrf_mismatch');
    assert.equal(await total(), before);
    assert.equal((await current()).message, 'untouched');
  });

  it('refuses favouring and unfavouring through GET without the header, as they change state', async () => {
    assertError(await alice.get(`${greeting.resource_uri}favor/`, { csrf: false }), 403, 'csrf_missing');
    assert.equal((await current()).favored, false);

    expectStatus(await alice.get(`${greeting.resource_uri}favor/`), 200);
    assertError(await alice.get(`${greeting.resource_uri}unfavor/`, { csrf: false }), 403, 'csrf_missing');
    assert.equal((await current()).favored, true);
    expectStatus(await alice.get(`${greeting.resource_uri}unfavor/`), 200);
    assert.equal((await current()).favored, false);
  });

  it('refuses the token of another user’s session', async () => {
    const bob = (await t.user()).client;
    assertError(await alice.patch(greeting.resource_uri, { message: 'forged' }, { csrf: bob.csrfToken }), 403, 'csrf_mismatch');
    assert.equal((await current()).message, 'untouched');
  });

  it('refuses the anonymous token from before login once signed in', async () => {
    const u = await t.user();
    const c = t.client();
    await c.get('/api/v2/backend/config');
    const anonymous = c.csrfToken;
    await c.login(u.username, u.password);
    assertError(await c.post(GREETINGS, { name: 'with an old token' }, { csrf: anonymous }), 403, 'csrf_mismatch');
  });

  it('refuses a login without the header (no login CSRF)', async () => {
    const u = await t.user();
    const c = t.client();
    assertError(
      await c.post('/accounts/login/', { username: u.username, password: u.password }, { csrf: false }),
      403,
      'csrf_missing',
    );
    assert.equal(c.cookies.get('sessionid'), undefined);
  });

  it('accepts a signed-in user’s create, change and delete with the session’s token', async () => {
    const created = await createGreeting(alice, { name: 'with token' });
    const changed = expectStatus<Greeting>(await alice.patch(created.resource_uri, { message: 'changed' }), 200);
    assert.equal(changed.message, 'changed');
    expectStatus(await alice.delete(created.resource_uri), 204);
    assertError(await alice.get(created.resource_uri), 404, 'not_found');
  });

  it('needs no token for reading', async () => {
    expectStatus(await alice.get(GREETINGS, { csrf: false }), 200);
    expectStatus(await alice.get(greeting.resource_uri, { csrf: false }), 200);
  });

  it('needs no token for HEAD and OPTIONS, which change nothing', async () => {
    expectStatus(await alice.request('HEAD', GREETINGS, undefined, { csrf: false }), 200);
    expectStatus(await alice.request('HEAD', greeting.resource_uri, undefined, { csrf: false }), 200);
    const options = await alice.request('OPTIONS', greeting.resource_uri, undefined, { csrf: false });
    assert.notEqual(options.status, 403, `OPTIONS → ${options.status} ${JSON.stringify(options.body)}`);
    assert.equal((await current()).message, 'untouched');
  });

  it('keeps a visitor’s token for the whole visit, so a login form loaded before other requests can still be sent', async () => {
    const u = await t.user();
    const c = t.client();
    const first = await c.get('/api/v2/backend/config');
    assert.equal(csrfCookiesSet(first).length, 1, 'the first reply hands out a token');
    const token = c.csrfToken;
    assert.ok(token);
    for (const path of ['/api/v2/backend/config', GREETINGS]) {
      const res = await c.get(path);
      assert.deepEqual(csrfCookiesSet(res), [], `GET ${path} sends the cookie again`);
    }
    assert.equal(c.csrfToken, token);
    expectStatus(await c.post('/accounts/login/', { username: u.username, password: u.password }, { csrf: token }), 200);
  });

  it('does not send the csrftoken cookie again while a signed-in browser holds its session’s token', async () => {
    const token = alice.csrfToken;
    for (const res of [await alice.get(GREETINGS), await alice.get(greeting.resource_uri)])
      assert.deepEqual(csrfCookiesSet(res), []);
    assert.equal(alice.csrfToken, token);
  });

  it('gives a visitor a csrftoken cookie for the whole site that the workbench can read, and a login sets it once', async () => {
    const visitor = t.client();
    const res = await visitor.get('/api/v2/backend/config');
    const [cookie] = csrfCookiesSet(res);
    assert.ok(cookie, 'an anonymous visitor gets a token');
    const attrs = cookie.split(';').map((a) => a.trim().toLowerCase());
    assert.ok(attrs.includes('path=/'), cookie);
    assert.ok(attrs.includes('samesite=lax'), cookie);
    assert.equal(attrs.includes('httponly'), false, `the workbench reads the token to send it back: ${cookie}`);

    const u = await t.user();
    const login = await visitor.post('/accounts/login/', { username: u.username, password: u.password });
    expectStatus(login, 200);
    assert.equal(csrfCookiesSet(login).length, 1, `one csrftoken cookie, not ${JSON.stringify(login.headers.getSetCookie())}`);
    const session = login.headers.getSetCookie().find((c) => c.startsWith('sessionid='));
    assert.ok(session && /;\s*httponly/i.test(session) && /;\s*path=\//i.test(session), session);

    // A browser that lost its csrftoken cookie and signs out gets one answer about it: the cookie is gone.
    visitor.cookies.delete('csrftoken');
    const logout = await visitor.get('/accounts/logout/');
    assert.equal(logout.status, 302);
    const cleared = csrfCookiesSet(logout);
    assert.equal(cleared.length, 1, JSON.stringify(logout.headers.getSetCookie()));
    assert.match(cleared[0], /expires=Thu, 01 Jan 1970/i);
  });

  describe('the language of the refusals: the user’s, else the werkbank_lang cookie’s, else Accept-Language’s', () => {
    const refusal = (c: Client, headers: Record<string, string> = {}) =>
      c.post(GREETINGS, { name: 'no token' }, { csrf: false, headers });
    const language = async (c: Client, headers: Record<string, string> = {}) =>
      expectStatus(await c.get('/api/v2/backend/config', { headers }), 200).auth.language as string;

    it('answers in English when nothing asks for another language', async () => {
      assertError(await refusal(t.client()), 403, 'csrf_missing', MISSING_EN);
      assert.equal(await language(t.client()), 'en');
    });

    it('answers a visitor in the language of Accept-Language', async () => {
      const headers = { 'accept-language': 'fr;q=0.9, de;q=0.8, en;q=0.5' };
      assertError(await refusal(t.client(), headers), 403, 'csrf_missing', MISSING_DE);
      assert.equal(await language(t.client(), headers), 'de');
    });

    it('prefers the werkbank_lang cookie to Accept-Language', async () => {
      const c = t.client();
      c.cookies.set('werkbank_lang', 'de');
      const headers = { 'accept-language': 'en' };
      assertError(await refusal(c, headers), 403, 'csrf_missing', MISSING_DE);
      assert.equal(await language(c, headers), 'de');
    });

    it('prefers the signed-in user’s own language to the cookie and Accept-Language', async () => {
      const u = await t.user();
      expectStatus(await u.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
      u.client.cookies.set('werkbank_lang', 'en');
      const headers = { 'accept-language': 'en' };
      assertError(await refusal(u.client, headers), 403, 'csrf_missing', MISSING_DE);
      assert.equal(await language(u.client, headers), 'de');
    });

    it('answers refusals found by the database in the same language (a taken username)', async () => {
      const admin = await t.admin();
      const taken = (await t.user()).username;
      const headers = { 'accept-language': 'de' };
      assertError(
        await admin.post('/api/v1/user/', { username: taken }, { headers }),
        400,
        'duplicate',
        'Ein Objekt mit diesem Wert gibt es bereits.',
      );
    });
  });
});
