import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, GREETINGS, type Client } from './api-test-support';

describe('users, groups, named permissions and types', function () {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
  });
  after(async () => t?.close());

  it('lets a superuser create a group with named permissions and a user in it who can then log in', async () => {
    const group = expectStatus(await admin.post('/api/v1/group/', { name: 'Editors', group_permissions: ['publish_view'] }), 201);
    assert.deepEqual(group.group_permissions, ['publish_view']);
    const user = expectStatus(
      await admin.post('/api/v1/user/', {
        username: 'eva.k',
        raw_password: 'a-long-password',
        groups: [group.resource_uri],
        user_permissions: ['access_connect'],
      }),
      201,
    );
    assert.deepEqual(user.groups, [group.resource_uri]);
    assert.deepEqual(user.user_permissions, ['access_connect']);
    assert.equal(user.raw_password, undefined, 'the password never comes back');
    const eva = t.client();
    await eva.login('eva.k', 'a-long-password');
    const me = expectStatus(await eva.get(user.resource_uri), 200);
    assert.deepEqual(me.user_permissions, ['access_connect']);
  });

  it('gives group members the object permissions granted to the group', async () => {
    const owner = await t.user();
    const member = await t.user();
    const group = expectStatus(await admin.post('/api/v1/group/', { name: 'Readers' }), 201);
    expectStatus(await admin.patch(`/api/v1/user/${member.id}/`, { groups: [group.resource_uri] }), 200);
    const greeting = expectStatus(await owner.client.post(GREETINGS, { name: 'For readers' }), 201);
    assertError(await member.client.get(greeting.resource_uri), 404, 'not_found');
    expectStatus(
      await owner.client.patch(greeting.resource_uri, { permissions: [{ group: group.resource_uri, perms: ['read'] }] }),
      200,
    );
    assert.equal(expectStatus(await member.client.get(greeting.resource_uri), 200).name, 'For readers');
  });

  it('refuses unknown permissions, missing groups and taken usernames with 400 and changes nothing', async () => {
    const user = await t.user();
    const before = expectStatus(await admin.get(`/api/v1/user/${user.id}/`), 200);
    assertError(await admin.patch(`/api/v1/user/${user.id}/`, { user_permissions: ['fly_to_the_moon'] }), 400, 'invalid_field');
    assertError(await admin.patch(`/api/v1/user/${user.id}/`, { groups: ['/api/v1/group/99999/'] }), 400, 'invalid_field');
    assertError(
      await admin.post('/api/v1/user/', { username: user.username }),
      400,
      'duplicate',
      'An object with this value already exists.',
    );
    assertError(await admin.post('/api/v1/user/', { username: 'has space' }), 400, 'invalid_field');
    const after = expectStatus(await admin.get(`/api/v1/user/${user.id}/`), 200);
    assert.deepEqual(after, before);
  });

  it('lets only superusers change accounts', async () => {
    const someone = await t.user();
    assertError(await someone.client.post('/api/v1/group/', { name: 'Mine' }), 403, 'permission_denied');
    assertError(await someone.client.patch(`/api/v1/user/${someone.id}/`, { is_superuser: true }), 403, 'permission_denied');
  });

  it('closes the sessions of a user who is deactivated', async () => {
    const user = await t.user();
    expectStatus(await user.client.get(GREETINGS), 200);
    expectStatus(await admin.patch(`/api/v1/user/${user.id}/`, { is_active: false }), 200);
    assertError(await user.client.get(GREETINGS), 401, 'not_authenticated');
  });

  it('lists the named permissions that can be granted, including every kind’s object permissions', async () => {
    const names = expectStatus(await admin.get('/api/v2/backend/permissions'), 200).objects.map((o: { name: string }) => o.name);
    for (const n of ['publish_view', 'access_connect', 'read_greeting', 'write_greeting', 'execute_switchboard'])
      assert.ok(names.includes(n), n);
  });

  it('serves the datum types with their base chains', async () => {
    const list = expectStatus(await admin.get('/api/v1/type/'), 200);
    assert.ok(list.objects.some((o: { name: string }) => o.name === 'color'));
    assert.deepEqual(expectStatus(await admin.get('/api/v1/type/int/'), 200).base_chain, ['int', 'number']);
    assertError(await admin.get('/api/v1/type/nonsense/'), 404, 'not_found');
  });

  it('serves each datum type with its effective schema and template', async () => {
    const bbox = expectStatus(await admin.get('/api/v1/type/bbox/'), 200);
    assert.deepEqual(bbox.template, { value: [0, 0, 0, 0] });
    assert.equal(bbox.schema.additionalProperties, false);
    assert.equal(bbox.schema.properties.value.minItems, 4);
    const label = expectStatus(await admin.get('/api/v1/type/label/'), 200);
    const string = expectStatus(await admin.get('/api/v1/type/string/'), 200);
    assert.deepEqual(label.schema, string.schema, 'label inherits the schema of string');
    assert.deepEqual(label.template, { value: '' });
    const listed = expectStatus(await admin.get('/api/v1/type/?q=color'), 200).objects[0];
    assert.deepEqual(listed.template, { hex: '#000000' });
    assert.deepEqual(listed.schema.required, ['hex']);
  });

  it('answers the example plugin’s own route in the caller’s language', async () => {
    const de = await t.user();
    expectStatus(await de.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    assert.equal(expectStatus(await de.client.get('/api/v1/hello/ping/'), 200).message, 'Hallo vom Hello-Plugin!');
  });
});
