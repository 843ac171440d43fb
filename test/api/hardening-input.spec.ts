import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/sdk/testing/node';
import { assertError, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';

/** Input the database cannot hold is refused at the boundary, with 400 and nothing written (issue 14 item 26). */
describe('hardening: text the database cannot store', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('refuses a NUL byte in a query string with 400 invalid_text, on every kind of list', async () => {
    for (const url of [
      `${GREETINGS}?q=%00`,
      `${GREETINGS}?q=a%00b`,
      `${TAGS}?q=%00`,
      '/api/v1/switchboard/?q=%00',
      '/api/v1/user/?q=x%00',
      `${GREETINGS}?order_by=name%00`,
    ]) {
      assertError(await admin.get(url), 400, 'invalid_text');
    }
  });

  it('refuses a NUL character in any text of a JSON body, nested or as a key, and writes nothing', async () => {
    assertError(await admin.post(GREETINGS, { name: 'a\u0000b' }), 400, 'invalid_text');
    assertError(await admin.post(TAGS, { name: 'x', description: 'nested\u0000' }), 400, 'invalid_text');
    const g = expectStatus(await admin.post(GREETINGS, { name: 'Clean' }), 201);
    assertError(await admin.patch(g.resource_uri, { message: 'a\u0000' }), 400, 'invalid_text');
    assertError(await admin.post('/api/v1/switchboard/', { name: 'S', description: { ['k\u0000']: 1 } }), 400, 'invalid_text');
    assertError(await t.client().post('/accounts/login/', { username: 'ad\u0000min', password: 'x' }), 400, 'invalid_text');
    assert.equal(expectStatus(await admin.get(g.resource_uri), 200).message, '');
    assert.equal(
      expectStatus(await admin.get(`${GREETINGS}?q=a`), 200).objects.filter((o: { name: string }) => o.name.includes('\u0000'))
        .length,
      0,
    );
  });

  it('answers in the caller language', async () => {
    const de = (await t.user()).client;
    de.headers = { 'accept-language': 'de' };
    const en = (await t.user()).client;
    en.headers = { 'accept-language': 'en' };
    assertError(await de.get(`${GREETINGS}?q=%00`), 400, 'invalid_text', /^Text darf das NUL-Zeichen/);
    assertError(await en.get(`${GREETINGS}?q=%00`), 400, 'invalid_text', /^Text must not contain the NUL character/);
  });
});
