import { ApiError } from './api-error';
import type { AuthUser } from './http-context';

/**
 * The named permissions the spec gives a meaning of their own (spec 002 §4, §6; decision 0041).
 * Object permissions of kinds (read_depot, write_layer, ...) are checked by the resource layer.
 */
export const NamedPermission = {
  /** May switch a view (or portal) between PUBLIC and INTERNAL ONLY (spec 002 §4). */
  publishView: 'publish_view',
  /** May call the Werkbank with an API key: the API and the service endpoints (decision 0041). */
  accessConnect: 'access_connect',
} as const;
export type NamedPermission = (typeof NamedPermission)[keyof typeof NamedPermission];

/**
 * Whether `user` holds the named permission `name`: superusers hold every one; others hold their
 * own grants and those of their groups, read with the user on each request (a group's grant counts
 * at once, no new login needed).
 */
export function hasNamedPermission(user: Pick<AuthUser, 'isSuperuser' | 'permissions'> | undefined, name: string): boolean {
  return !!user && (user.isSuperuser || user.permissions.has(name));
}

/**
 * Throws 403 `permission_required` ("… needs the permission “Publish views” …" in the caller's
 * language) unless `user` holds `name`; 401 when nobody is signed in. For plugins' own routes and
 * hooks, e.g. the views plugin before it changes a view's publication status:
 * `requireNamedPermission(req.user, NamedPermission.publishView)`.
 */
export function requireNamedPermission(user: Pick<AuthUser, 'isSuperuser' | 'permissions'> | undefined, name: string): void {
  if (!user) throw ApiError.unauthorized();
  if (!hasNamedPermission(user, name)) {
    throw ApiError.forbidden('permission_required', 'errors.permission_required', { permission: name });
  }
}
