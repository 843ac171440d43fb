import type { ResourceDefinition, Row } from '../resources/resource-definition';
import { ApiError } from '../http/api-error';
import { hashPassword } from '../auth/password';

const superuserOnlyWrites = {
  canCreate: (req: { user: { isSuperuser: boolean } }) => req.user.isSuperuser,
  checkWrite: (_row: Row, req: { user: { isSuperuser: boolean } }) =>
    req.user.isSuperuser ? undefined : 'errors.superuser_required',
};

const USERNAME = /^[A-Za-z0-9._-]+$/;

/** Users (spec 002 §3 "User"): every signed-in user may read names; only superusers write. */
export const userResource: ResourceDefinition = {
  id: 'server.user',
  kind: 'user',
  table: 'werkbank_user',
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
    email: { type: 'string', maxLength: 254, search: true, default: '' },
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
    serialize(rows, out, req) {
      out.forEach((o, i) => {
        o.display_name = `${rows[i].first_name ?? ''} ${rows[i].last_name ?? ''}`.trim() || rows[i].username;
        o.name = o.display_name;
        if (!req.user.isSuperuser && rows[i].id !== req.user.id) {
          delete o.email;
          delete o.notes;
          delete o.expiration_date;
          delete o.max_concurrent_sessions;
        }
      });
    },
  },
};

export const groupResource: ResourceDefinition = {
  id: 'server.group',
  kind: 'group',
  table: 'werkbank_group',
  defaultOrder: 'name',
  fields: {
    name: { type: 'string', required: true, maxLength: 150, search: true, order: true },
  },
  hooks: {
    ...superuserOnlyWrites,
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
