import { userDisplayName, userDisplayNameSql, type NamedUser } from '@werkbank/kernel';
import { ApiError, parseRef, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { hashPassword } from '../auth/password';

const superuserOnlyWrites = {
  canCreate: (req: { user: { isSuperuser: boolean } }) => req.user.isSuperuser,
  checkWrite: (_row: Row, req: { user: { isSuperuser: boolean } }) =>
    req.user.isSuperuser ? undefined : 'errors.superuser_required',
};

const USERNAME = /^[A-Za-z0-9._-]+$/;

/** spec 002 §6: the named permissions the spec names; object-permission names of kinds are added. */
export const NAMED_PERMISSIONS = [
  'publish_view',
  'access_connect',
  'read_depot',
  'write_depot',
  'read_depotfolder',
  'write_depotfolder',
  'read_switchboard',
  'execute_switchboard',
  'write_switchboard',
  'read_workflow',
  'execute_workflow',
  'write_workflow',
] as const;

const groupList = (v: unknown) =>
  Array.isArray(v) && v.every((x) => parseRef(x, '/api/v1/group/') !== undefined) ? undefined : 'errors.invalid_groups';

function permissionList(known: () => string[]) {
  return (v: unknown) =>
    Array.isArray(v) && v.every((x) => typeof x === 'string' && known().includes(x))
      ? undefined
      : 'errors.invalid_named_permissions';
}

async function replaceRows(
  req: ResourceRequest,
  table: 'werkbank_user_group' | 'werkbank_user_permission' | 'werkbank_group_permission',
  owner: string,
  id: number,
  column: string,
  values: unknown[],
) {
  await req.manager.query(`DELETE FROM ${table} WHERE ${owner} = $1`, [id]);
  for (const v of [...new Set(values)])
    await req.manager.query(`INSERT INTO ${table} (${owner}, ${column}) VALUES ($1, $2)`, [id, v]);
}

/** Users, groups and sessions; `known` lists the named permissions that may be granted. */
export function accountResources(known: () => string[]): ResourceDefinition[] {
  const checkPermissions = permissionList(known);
  return [
    {
      ...userResource,
      fields: {
        ...userResource.fields,
        groups: { type: 'json', virtual: true, validate: groupList },
        user_permissions: { type: 'json', virtual: true, validate: checkPermissions },
      },
    },
    {
      ...groupResource,
      fields: { ...groupResource.fields, group_permissions: { type: 'json', virtual: true, validate: checkPermissions } },
    },
    sessionResource,
  ];
}

/** Users (spec 002 §3 "User"): every signed-in user may read names; only superusers write. */
const userResource: ResourceDefinition = {
  id: 'server.user',
  kind: 'user',
  table: 'werkbank_user',
  label: { de: 'den Benutzer', en: 'user' },
  description: 'Accounts. raw_password sets the password; it is never returned.',
  defaultOrder: 'username',
  fields: {
    username: {
      type: 'string',
      required: true,
      maxLength: 150,
      search: true,
      order: true,
      filter: true,
      validate: (v) => (typeof v === 'string' && USERNAME.test(v) ? undefined : 'errors.field_username'),
    },
    first_name: { type: 'string', maxLength: 150, search: true, order: true, default: '' },
    last_name: { type: 'string', maxLength: 150, search: true, order: true, default: '' },
    // Not searchable: ?q= must not reveal addresses hidden from other users.
    email: { type: 'string', maxLength: 254, default: '' },
    notes: { type: 'text', default: '' },
    raw_password: { type: 'string', column: 'password', hidden: true, default: '' },
    is_active: { type: 'bool', filter: true, default: true },
    is_staff: { type: 'bool', filter: true, default: false },
    is_superuser: { type: 'bool', filter: true, default: false },
    max_concurrent_sessions: { type: 'int', nullable: true, default: null },
    expiration_date: { type: 'datetime', nullable: true, default: null },
    language: { type: 'string', nullable: true, enum: ['de', 'en'], default: null },
    date_joined: { type: 'datetime', readOnly: true, order: true },
    last_login: { type: 'datetime', readOnly: true, order: true, nullable: true },
  },
  repr: (row) => String(row.username),
  hooks: {
    ...superuserOnlyWrites,
    async beforeCreate(values) {
      values.password = values.password ? await hashPassword(String(values.password)) : '';
      // spec 002 §5: max_concurrent_sessions below 1 means no limit.
      if (typeof values.max_concurrent_sessions === 'number' && values.max_concurrent_sessions < 1)
        values.max_concurrent_sessions = null;
    },
    async beforeUpdate(row, changes, req) {
      if ('password' in changes)
        changes.password = changes.password ? await hashPassword(String(changes.password)) : row.password;
      if (typeof changes.max_concurrent_sessions === 'number' && changes.max_concurrent_sessions < 1)
        changes.max_concurrent_sessions = null;
      if (changes.is_active === false || 'password' in changes) {
        await req.manager.query(
          `UPDATE werkbank_session SET is_active = false, closed_at = now() WHERE user_id = $1 AND is_active`,
          [row.id],
        );
      }
    },
    beforeDelete(row, req) {
      if (row.id === req.user.id) throw ApiError.badRequest('invalid_user', 'errors.cannot_delete_self');
    },
    async afterWrite(row, virtuals, req) {
      if (Array.isArray(virtuals.groups)) {
        const ids = virtuals.groups.map((g) => parseRef(g, '/api/v1/group/')!);
        const found = (await req.manager.query(`SELECT id FROM werkbank_group WHERE id = ANY($1)`, [ids])) as unknown[];
        if (found.length !== new Set(ids).size) throw ApiError.badRequest('invalid_field', 'errors.invalid_groups', {}, 'groups');
        await replaceRows(req, 'werkbank_user_group', 'user_id', row.id, 'group_id', ids);
      }
      if (Array.isArray(virtuals.user_permissions)) {
        await replaceRows(req, 'werkbank_user_permission', 'user_id', row.id, 'permission', virtuals.user_permissions);
      }
    },
    async serialize(rows, out, req) {
      const ids = rows.map((r) => r.id);
      const groups = (await req.manager.query(
        `SELECT user_id, group_id FROM werkbank_user_group WHERE user_id = ANY($1) ORDER BY group_id`,
        [ids],
      )) as {
        user_id: number;
        group_id: number;
      }[];
      const perms = (await req.manager.query(
        `SELECT user_id, permission FROM werkbank_user_permission WHERE user_id = ANY($1) ORDER BY permission`,
        [ids],
      )) as {
        user_id: number;
        permission: string;
      }[];
      out.forEach((o, i) => {
        o.display_name = userDisplayName(rows[i] as unknown as NamedUser);
        o.name = o.display_name;
        o.groups = groups.filter((g) => g.user_id === rows[i].id).map((g) => `/api/v1/group/${g.group_id}/`);
        o.user_permissions = perms.filter((p) => p.user_id === rows[i].id).map((p) => p.permission);
        if (!req.user.isSuperuser && rows[i].id !== req.user.id) {
          delete o.email;
          delete o.notes;
          delete o.expiration_date;
          delete o.max_concurrent_sessions;
          delete o.user_permissions;
        }
      });
    },
  },
};

const groupResource: ResourceDefinition = {
  id: 'server.group',
  kind: 'group',
  table: 'werkbank_group',
  label: { de: 'die Gruppe', en: 'group' },
  defaultOrder: 'name',
  fields: {
    name: { type: 'string', required: true, maxLength: 150, search: true, order: true },
  },
  hooks: {
    ...superuserOnlyWrites,
    async afterWrite(row, virtuals, req) {
      if (Array.isArray(virtuals.group_permissions)) {
        await replaceRows(req, 'werkbank_group_permission', 'group_id', row.id, 'permission', virtuals.group_permissions);
      }
    },
    async serialize(rows, out, req) {
      const perms = (await req.manager.query(
        `SELECT group_id, permission FROM werkbank_group_permission WHERE group_id = ANY($1) ORDER BY permission`,
        [rows.map((r) => r.id)],
      )) as { group_id: number; permission: string }[];
      out.forEach((o, i) => (o.group_permissions = perms.filter((p) => p.group_id === rows[i].id).map((p) => p.permission)));
    },
  },
};

/** Sessions (spec 000 §3 "Session"): superusers only, gated by the sessions component. */
export const sessionResource: ResourceDefinition = {
  id: 'server.session',
  kind: 'session',
  table: 'werkbank_session',
  component: 'sessions',
  superuserOnly: true,
  readOnly: true,
  events: false,
  defaultOrder: '-created_at',
  fields: {
    user: { type: 'ref', column: 'user_id', refKind: 'user', filter: true },
    is_active: { type: 'bool', filter: true },
    created_at: { type: 'datetime', order: true },
    closed_at: { type: 'datetime', nullable: true, order: true },
    ip_address: { type: 'string', search: true },
    user_agent: { type: 'string', search: true },
  },
  hooks: {
    // The session table names people, never addresses (issue 19; userDisplayName's rule).
    async serialize(rows, out, req) {
      const names = (await req.manager.query(
        `SELECT u.id, ${userDisplayNameSql('u')} AS name FROM werkbank_user u WHERE u.id = ANY($1)`,
        [[...new Set(rows.map((r) => r.user_id))]],
      )) as { id: number; name: string }[];
      out.forEach((o, i) => (o.user_name = names.find((n) => n.id === rows[i].user_id)?.name ?? null));
    },
  },
  actions: [
    {
      name: 'close',
      method: 'POST',
      detail: true,
      async handler({ row, req }) {
        await req.manager.query(`UPDATE werkbank_session SET is_active = false, closed_at = now() WHERE id = $1 AND is_active`, [
          row!.id,
        ]);
        return { status: 'ok' };
      },
    },
  ],
};
