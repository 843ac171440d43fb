import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, createGreeting, expectStatus, GREETINGS, type Client, type Greeting } from './api-test-support';

const MISSING = /X-CSRFToken/;

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
});
