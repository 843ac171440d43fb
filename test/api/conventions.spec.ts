import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';

describe('API conventions beyond the generic calls', function () {
  let t: TestServer;
  let admin: Client;
  let user: Client;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    user = (await t.user()).client;
  });
  after(async () => t?.close());

  it('answers the spec’s addresses without a trailing slash like those with one', async () => {
    const tag = expectStatus(await admin.post(TAGS.slice(0, -1), { name: 'No slash' }), 201);
    const greeting = expectStatus(await admin.post(GREETINGS, { name: 'Tag me' }), 201);
    expectStatus(await admin.patch(`${tag.resource_uri}assign-to?resource_ids=${greeting.resource_uri}`), 200);
    assert.equal(expectStatus(await admin.get('/api/v2/backend/tags'), 200).meta.total_count, 1);
    assert.deepEqual(
      expectStatus(await admin.get(greeting.resource_uri.slice(0, -1)), 200).tags.map((x: { name: string }) => x.name),
      ['No slash'],
    );
  });

  it('stores an object sent back as it was read with POST, ignoring what cannot be written', async () => {
    const greeting = expectStatus(await user.post(GREETINGS, { name: 'Before', message: 'm' }), 201);
    const stored = expectStatus(
      await user.post(greeting.resource_uri, { ...greeting, name: 'After', created: '2000-01-01T00:00:00Z' }),
      200,
    );
    assert.equal(stored.name, 'After');
    assert.equal(stored.created, greeting.created, 'read-only fields keep their value');
    const events = expectStatus(await user.get('/api/v1/event/?key=store'), 200);
    assert.equal(events.objects[0].content_repr, 'After');
  });

  it('lets a writer who is not the owner store an object as read, keeping its grants unchanged', async () => {
    const owner = await t.user();
    const writer = await t.user();
    const greeting = expectStatus(await owner.client.post(GREETINGS, { name: 'Shared' }), 201);
    const grants = [{ user: `/api/v1/user/${writer.id}/`, perms: ['read', 'write'] }];
    expectStatus(await owner.client.patch(greeting.resource_uri, { permissions: grants }), 200);
    const read = expectStatus(await writer.client.get(greeting.resource_uri), 200);
    const stored = expectStatus(
      await writer.client.post(greeting.resource_uri, { ...read, name: 'Shared and stored', permissions: [] }),
      200,
    );
    assert.equal(stored.name, 'Shared and stored');
    assert.deepEqual(stored.permissions, grants);
    assertError(await writer.client.patch(greeting.resource_uri, { permissions: [] }), 403, 'permission_denied');
  });

  it('pages the datum types like every list and refuses unknown parameters', async () => {
    const page = expectStatus(await user.get('/api/v1/type/?limit=5&offset=5'), 200);
    assert.equal(page.objects.length, 5);
    assert.deepEqual(page.meta, { offset: 5, limit: 5, total_count: page.meta.total_count });
    assert.ok(page.meta.total_count >= 29);
    assertError(await user.get('/api/v1/type/?colour=red'), 400, 'unknown_filter');
  });

  it('shows an API key’s record (never its secret) at its address', async () => {
    const created = expectStatus(await admin.post('/api/v1/apikey/', { user: '/api/v1/user/1/', realms: ['greeting'] }), 201);
    const read = expectStatus(await admin.get(created.resource_uri), 200);
    assert.deepEqual(read.realms, ['greeting']);
    assert.ok(!JSON.stringify(read).includes(created.key), 'the secret is not shown again');
    assertError(await user.get(created.resource_uri), 403, 'superuser_required');
  });

  it('gives plugins and licensed components separate addresses, and shows licence details to superusers only', async () => {
    const asUser = expectStatus(await user.get('/api/v1/addon/'), 200);
    const plugin = asUser.objects.find((a: { kind: string; name: string }) => a.kind === 'plugin' && a.name === 'tags');
    const component = asUser.objects.find((a: { kind: string; name: string }) => a.kind === 'component' && a.name === 'tags');
    assert.equal(plugin.resource_uri, '/api/v1/addon/plugins/tags/');
    assert.equal(component.resource_uri, '/api/v1/addon/tags/');
    assert.equal(expectStatus(await user.get(plugin.resource_uri), 200).kind, 'plugin');
    assert.equal(expectStatus(await user.get(component.resource_uri), 200).kind, 'component');
    assert.deepEqual(asUser.licences, []);
    assert.ok(expectStatus(await admin.get('/api/v1/addon/'), 200).licences.length >= 1);
  });

  it('describes the calls outside the resource layer in /api/openapi.json', async () => {
    const spec = expectStatus(await user.get('/api/openapi.json'), 200);
    for (const path of [
      '/accounts/login/',
      '/api/v2/backend/config',
      '/api/v1/apikey/',
      '/api/v1/addon/{name}/inform/',
      '/api/v1/type/',
      '/api/v1/hello/ping/',
    ]) {
      assert.ok(spec.paths[path], path);
    }
  });

  it('is the document the browser specs check their fake replies against (testing/openapi.snapshot.json)', async () => {
    const spec = expectStatus(await user.get('/api/openapi.json'), 200);
    const snapshot = JSON.parse(readFileSync(new URL('../../testing/openapi.snapshot.json', import.meta.url), 'utf8'));
    assert.deepEqual(snapshot, spec, 'the API changed: write the snapshot anew with `npm run openapi:snapshot`');
  });

  it('serves the manual per language as an HTML page, and nothing outside the docs folder', async () => {
    const de = await t.client().get('/docs/de/manual.md');
    assert.equal(de.status, 200);
    assert.match(de.headers.get('content-type') ?? '', /text\/html/);
    assert.match(String(de.body), /<html lang="de">/);
    assert.match(String(de.body), /<h1[^>]*>/);
    const raw = await t.client().get('/docs/en/manual.md?raw');
    assert.match(raw.headers.get('content-type') ?? '', /text\/markdown/);
    assert.equal((await t.client().get('/docs/%2e%2e/package.json')).status, 404);
    assert.equal((await t.client().get('/docs/../server/src/config.ts')).status, 404);
  });

  it('lets only superusers open /backend/', async () => {
    const res = await user.get('/backend/');
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/');
    const page = await admin.get('/backend/');
    assert.equal(page.status, 200);
    assert.match(String(page.body), /Werkbank Backend/);
  });

  it('names no internal references in the functions’ titles and descriptions, in German and English (issue 14 item 19)', async () => {
    for (const lang of ['de', 'en']) {
      const list = expectStatus(await user.get('/api/v1/function/?limit=1000', { headers: { 'Accept-Language': lang } }), 200);
      assert.ok(list.objects.length > 20, 'every plugin’s functions');
      const internal = (list.objects as Array<{ name: string; verbose_name: string; doc: string }>)
        .filter((f) => /§|\b(spec|Spezifikation) 00\d|\/(home|work|tmp|usr)\//.test(`${f.verbose_name} ${f.doc}`))
        .map((f) => f.name);
      assert.deepEqual(internal, [], lang);
    }
  });
});
