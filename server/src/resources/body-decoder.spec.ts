import assert from 'node:assert/strict';
import type { EntityManager } from 'typeorm';
import { ApiError, type ResourceDefinition } from '@werkbank/sdk/node';
import { decodeBody, decodeGrants, MAX_GRANTS } from './body-decoder';

const note: ResourceDefinition = {
  id: 'test.note',
  kind: 'note',
  table: 'test_note',
  objectPermissions: { read: 'read_note', write: 'change_note' },
  fields: {
    name: { type: 'string', required: true },
    body: { type: 'text', column: 'body_text', default: '' },
    style: { type: 'json', default: { colour: 'red' } },
    created: { type: 'datetime', readOnly: true },
    content_type: { type: 'string', createOnly: true, default: 'text' },
    folder: { type: 'ref', refKind: 'folder', nullable: true, virtual: true },
    groups: { type: 'json', virtual: true, validate: (v) => (Array.isArray(v) ? undefined : 'errors.groups_list') },
  },
};

function refused(fn: () => unknown, code: string, field: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, code);
    assert.equal(err.field, field);
    return true;
  });
}

describe('body decoder: request bodies into column values', () => {
  it('ignores the envelope a client read back (id, resource_uri, favored, owner) on create and update', () => {
    for (const name of ['id', 'resource_uri', 'favored', 'owner']) {
      const body = { name: 'n', [name]: name === 'favored' ? true : 7 };
      assert.deepEqual(decodeBody(note, body, 'update'), { name: 'n' }, name);
      assert.equal(decodeBody(note, body, 'create').name, 'n', name);
    }
  });

  it('refuses unknown and read-only fields, and create-only fields on update', () => {
    refused(() => decodeBody(note, { nonsense: 1 }, 'update'), 'unknown_field', 'nonsense');
    refused(() => decodeBody(note, { created: '2026-01-01T00:00:00Z' }, 'update'), 'read_only_field', 'created');
    refused(() => decodeBody(note, { content_type: 'html' }, 'update'), 'locked_field', 'content_type');
    assert.deepEqual(decodeBody(note, { name: 'n', content_type: 'html' }, 'create').content_type, 'html');
  });

  it('on a store takes the writable fields and ignores what cannot be written', () => {
    const stored = decodeBody(note, { name: 'n', body: 'b', nonsense: 1, created: 'x', content_type: 'html' }, 'store');
    assert.deepEqual(stored, { name: 'n', body_text: 'b' });
  });

  it('fills defaults on create (json defaults as stored text) and refuses a missing required field', () => {
    assert.deepEqual(decodeBody(note, { name: 'n' }, 'create'), {
      name: 'n',
      body_text: '',
      style: '{"colour":"red"}',
      content_type: 'text',
    });
    assert.deepEqual(decodeBody(note, { body: 'b' }, 'update'), { body_text: 'b' }, 'no defaults on update');
    refused(() => decodeBody(note, { body: 'b' }, 'create'), 'invalid_field', 'name');
  });

  it('hands virtual fields to the hooks as sent, checked only by their own check', () => {
    const virtuals: Record<string, unknown> = {};
    const values = decodeBody(note, { name: 'n', folder: 'not a folder address', groups: [1] }, 'update', virtuals);
    assert.deepEqual(values, { name: 'n' });
    assert.deepEqual(virtuals, { folder: 'not a folder address', groups: [1] });
    refused(() => decodeBody(note, { groups: 'admins' }, 'update'), 'invalid_field', 'groups');
  });
});

describe('body decoder: grants of an object', () => {
  /** A manager whose database knows these users and groups (the count query decodeGrants runs). */
  const db = (users: number[], groups: number[]) =>
    ({
      query: async (_sql: string, [userIds, groupIds]: [number[], number[]]) => [
        {
          users: userIds.filter((id) => users.includes(id)).length,
          groups: groupIds.filter((id) => groups.includes(id)).length,
        },
      ],
    }) as unknown as EntityManager;
  const m = db([3, 4], [3, 5]);

  async function refusedGrants(value: unknown, manager: EntityManager = m): Promise<void> {
    await assert.rejects(decodeGrants(manager, note, value), (err: unknown) => {
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.status, 400);
      assert.equal(err.key, 'errors.invalid_permissions');
      assert.equal(err.field, 'permissions');
      assert.deepEqual(err.params, { max: MAX_GRANTS });
      return true;
    });
  }

  it('keeps users and groups apart, also with the same id, and merges repeated entries of one holder', async () => {
    const grants = await decodeGrants(m, note, [
      { user: '/api/v1/user/3/', perms: ['read'] },
      { group: '/api/v1/group/3/', perms: ['write'] },
      { user: 4, perms: ['read'] },
      { group: 5, perms: ['read'] },
      { user: '/api/v1/user/3/', perms: ['write'] },
    ]);
    assert.deepEqual(grants, [
      { userId: 3, groupId: undefined, perms: ['read', 'write'] },
      { userId: undefined, groupId: 3, perms: ['write'] },
      { userId: 4, groupId: undefined, perms: ['read'] },
      { userId: undefined, groupId: 5, perms: ['read'] },
    ]);
  });

  it('takes up to MAX_GRANTS entries and refuses more', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ user: i + 1, perms: ['read'] }));
    const everyone = db(
      Array.from({ length: MAX_GRANTS + 1 }, (_, i) => i + 1),
      [],
    );
    assert.equal((await decodeGrants(everyone, note, many(MAX_GRANTS))).length, MAX_GRANTS);
    await refusedGrants(many(MAX_GRANTS + 1), everyone);
  });

  it('refuses what is not a list of one holder with known permissions each', async () => {
    await refusedGrants({ user: 3, perms: ['read'] });
    await refusedGrants([{ user: 3, group: 3, perms: ['read'] }]);
    await refusedGrants([{ perms: ['read'] }]);
    await refusedGrants([{ user: 3, perms: ['execute'] }]);
    await refusedGrants([{ user: 3, perms: ['read', 'read', 'read'] }]);
  });

  it('refuses users and groups that do not exist', async () => {
    await refusedGrants([{ user: 9, perms: ['read'] }]);
    await refusedGrants([{ group: 9, perms: ['read'] }]);
    await refusedGrants([
      { group: 3, perms: ['read'] },
      { group: 9, perms: ['read'] },
    ]);
  });
});
