import type { EntityManager } from 'typeorm';
import { ApiError, parseRef, type ResourceDefinition } from '@werkbank/sdk/node';
import { columnOf, decodeField } from './field-codec';
import type { Access } from './permission-service';

/** Validates a body into column values. Unknown, read-only and (on update) create-only fields are 400. */
export function decodeBody(
  def: ResourceDefinition,
  body: Record<string, unknown>,
  mode: 'create' | 'update' | 'store',
  virtuals: Record<string, unknown> = {},
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'permissions' && def.objectPermissions) continue;
    if (['id', 'resource_uri', 'favored', 'owner'].includes(name)) continue;
    const spec = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
    // A store (POST on the object) sends the object as read: what cannot be written is ignored.
    if (mode === 'store' && (!spec || spec.readOnly || spec.createOnly)) continue;
    if (!spec) throw ApiError.badRequest('unknown_field', 'errors.unknown_field', { field: name }, name);
    if (spec.readOnly) throw ApiError.badRequest('read_only_field', 'errors.read_only_field', { field: name }, name);
    if (mode === 'update' && spec.createOnly) {
      throw ApiError.badRequest('locked_field', 'errors.locked_field', { field: name }, name);
    }
    if (spec.virtual) {
      if (spec.validate) decodeField(name, spec, value);
      virtuals[name] = value;
      continue;
    }
    values[columnOf(name, spec)] = decodeField(name, spec, value);
  }
  if (mode === 'create') {
    for (const [name, spec] of Object.entries(def.fields)) {
      const col = columnOf(name, spec);
      if (col in values || spec.readOnly || spec.virtual) continue;
      if (spec.default !== undefined) values[col] = spec.type === 'json' ? JSON.stringify(spec.default) : spec.default;
      else if (spec.required) throw ApiError.badRequest('invalid_field', 'errors.field_required', { field: name }, name);
    }
  }
  return values;
}

/** At most this many grant entries per object (one per user or group). */
export const MAX_GRANTS = 200;

/** Validates a `permissions` body entry into grants (users and groups must exist). */
export async function decodeGrants(m: EntityManager, def: ResourceDefinition, value: unknown) {
  const bad = () => ApiError.badRequest('invalid_field', 'errors.invalid_permissions', { max: MAX_GRANTS }, 'permissions');
  if (!Array.isArray(value) || value.length > MAX_GRANTS) throw bad();
  const allowed: Access[] = def.objectPermissions?.execute ? ['read', 'write', 'execute'] : ['read', 'write'];
  const byHolder = new Map<string, { userId?: number; groupId?: number; perms: Access[] }>();
  for (const e of value as Array<Record<string, unknown>>) {
    if (!e || typeof e !== 'object' || !Array.isArray(e.perms) || e.perms.length > allowed.length) throw bad();
    const perms = e.perms as Access[];
    if (!perms.every((p) => allowed.includes(p))) throw bad();
    const userId = e.user !== undefined ? parseRef(e.user, '/api/v1/user/') : undefined;
    const groupId = e.group !== undefined ? parseRef(e.group, '/api/v1/group/') : undefined;
    if ((userId === undefined) === (groupId === undefined)) throw bad();
    const key = userId !== undefined ? `u${userId}` : `g${groupId}`;
    const entry = byHolder.get(key) ?? { userId, groupId, perms: [] };
    entry.perms = [...new Set([...entry.perms, ...perms])];
    byHolder.set(key, entry);
  }
  const out = [...byHolder.values()];
  const userIds = out.flatMap((e) => (e.userId !== undefined ? [e.userId] : []));
  const groupIds = out.flatMap((e) => (e.groupId !== undefined ? [e.groupId] : []));
  const [{ users, groups }] = (await m.query(
    `SELECT (SELECT count(*)::int FROM werkbank_user WHERE id = ANY($1)) AS users, (SELECT count(*)::int FROM werkbank_group WHERE id = ANY($2)) AS groups`,
    [userIds, groupIds],
  )) as { users: number; groups: number }[];
  if (users !== userIds.length || groups !== groupIds.length) throw bad();
  return out;
}
