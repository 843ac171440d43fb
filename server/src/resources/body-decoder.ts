import type { EntityManager } from 'typeorm';
import { ApiError } from '../http/api-error';
import type { ResourceDefinition } from './resource-definition';
import { columnOf, decodeField, parseRef } from './field-codec';
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
    const spec = def.fields[name];
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

/** Validates a `permissions` body entry into grants (users and groups must exist). */
export async function decodeGrants(m: EntityManager, def: ResourceDefinition, value: unknown) {
  const bad = () => ApiError.badRequest('invalid_field', 'errors.invalid_permissions', {}, 'permissions');
  if (!Array.isArray(value)) throw bad();
  const allowed: Access[] = def.objectPermissions?.execute ? ['read', 'write', 'execute'] : ['read', 'write'];
  const out: Array<{ userId?: number; groupId?: number; perms: Access[] }> = [];
  for (const e of value as Array<Record<string, unknown>>) {
    if (!e || typeof e !== 'object' || !Array.isArray(e.perms)) throw bad();
    const perms = e.perms as Access[];
    if (!perms.every((p) => allowed.includes(p))) throw bad();
    const userId = e.user !== undefined ? parseRef(e.user, '/api/v1/user/') : undefined;
    const groupId = e.group !== undefined ? parseRef(e.group, '/api/v1/group/') : undefined;
    if ((userId === undefined) === (groupId === undefined)) throw bad();
    const table = userId !== undefined ? 'werkbank_user' : 'werkbank_group';
    const [exists] = (await m.query(`SELECT 1 FROM ${table} WHERE id = $1`, [userId ?? groupId])) as unknown[];
    if (!exists) throw bad();
    out.push({ userId, groupId, perms: [...new Set(perms)] });
  }
  return out;
}
