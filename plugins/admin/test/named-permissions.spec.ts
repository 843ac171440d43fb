import assert from 'node:assert/strict';
import {
  apiKeyClient,
  assertError,
  expectStatus,
  startTestServer,
  userUri,
  type Client,
  type TestServer,
} from '@werkbank/testing/node';

/** Named permissions of the admin plugin (spec 002 §4): access_connect, group grants, labels, the SDK check. */
describe('admin: named permissions — access_connect, group inheritance, labels, the SDK check', function () {
  let t: TestServer;
  let admin: Client;
  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('refuses API keys of users without access_connect, and a group’s grant or withdrawal counts at once', async () => {
    const kim = await t.user({ username: 'connect.kim' });
    const key = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(kim.id) }), 201).key as string;
    const viaKey = apiKeyClient(t, key);
    assertError(await viaKey.get('/api/v1/user/'), 403, 'access_connect_required', /API key/);
    expectStatus(await kim.client.get('/api/v1/user/'), 200);
    assert.deepEqual(expectStatus(await kim.client.get('/api/v2/backend/config'), 200).auth.permissions, []);

    const group = expectStatus(
      await admin.post('/api/v1/group/', { name: 'Connectors', group_permissions: ['access_connect'] }),
      201,
    );
    expectStatus(await admin.patch(userUri(kim.id), { groups: [group.resource_uri] }), 200);
    expectStatus(await viaKey.get('/api/v1/user/'), 200);
    assert.deepEqual(expectStatus(await kim.client.get('/api/v2/backend/config'), 200).auth.permissions, ['access_connect']);

    expectStatus(await admin.patch(group.resource_uri, { group_permissions: [] }), 200);
    assertError(await viaKey.get('/api/v1/user/'), 403, 'access_connect_required');
    expectStatus(await admin.patch(userUri(kim.id), { user_permissions: ['access_connect'] }), 200);
    expectStatus(await viaKey.get('/api/v1/user/'), 200);

    const boss = expectStatus(await admin.post('/api/v1/apikey/', { user: '/api/v1/user/1/' }), 201).key as string;
    expectStatus(await apiKeyClient(t, boss).get('/api/v1/user/'), 200);
  });

  it('labels every named permission in the caller’s language, including those plugins add', async () => {
    const en = expectStatus(await admin.get('/api/v2/backend/permissions'), 200).objects as Array<{
      name: string;
      label: string;
    }>;
    const label = (list: typeof en, name: string) => list.find((p) => p.name === name)?.label;
    assert.equal(label(en, 'publish_view'), 'Publish views');
    assert.equal(label(en, 'read_layer'), 'Layer: read');
    expectStatus(await admin.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    const de = expectStatus(await admin.get('/api/v2/backend/permissions'), 200).objects as typeof en;
    assert.equal(label(de, 'access_connect'), 'Zugriff mit API-Schlüsseln (Connect)');
    assert.equal(label(de, 'write_layer'), 'Layer: bearbeiten');
    for (const p of de) assert.notEqual(p.label, p.name, `${p.name} has a label`);
  });

  it('names the missing permission in the SDK check’s refusal', async () => {
    const { requireNamedPermission, hasNamedPermission, NamedPermission, ApiError } = await import('@werkbank/sdk/node');
    const user = { isSuperuser: false, permissions: new Set(['access_connect']) };
    assert.equal(hasNamedPermission(user, NamedPermission.publishView), false);
    assert.equal(hasNamedPermission({ ...user, isSuperuser: true }, NamedPermission.publishView), true);
    try {
      requireNamedPermission(user, NamedPermission.publishView);
      assert.fail('expected a refusal');
    } catch (e) {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 403);
      const reason = t.server.i18n.getFixedT('de', 'server')(e.key, e.params);
      assert.equal(
        reason,
        'Dafür ist die Berechtigung „Ansichten veröffentlichen“ nötig. Bitten Sie einen Administrator, sie zu erteilen.',
      );
    }
  });
});
