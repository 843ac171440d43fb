import { ApiError, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';

// The addresses are the plugin's contract with its browser side: declared once, in common code.
export {
  EXECUTION_PATH,
  FRAME_PATH,
  LINK_PATH,
  NODE_PATH,
  NODERUN_PATH,
  NOTE_PATH,
  SWITCHBOARD_PATH,
  WORKFLOW_PATH,
} from '../common/switchboard-types';

export type SwitchboardAccess = 'read' | 'write' | 'execute';

export function definitionOf(req: Pick<ResourceRequest, 'services'>, kind: string): ResourceDefinition {
  return req.services.definitions().find((d) => d.kind === kind)!;
}

/**
 * The switchboard if the caller may read it (404 otherwise) and, for 'write' or 'execute', has
 * that permission too (403). Permissions come from the shared resource layer.
 */
export async function switchboardFor(req: ResourceRequest, id: number, need: SwitchboardAccess): Promise<Row> {
  const def = definitionOf(req, 'switchboard');
  req.services.checkRealm(def, req);
  const row = await req.services.loadReadable(def, id, req);
  if (!row) throw ApiError.notFound();
  if (need !== 'read' && !(await req.services.mayAccess(def, row, req, need))) {
    throw ApiError.forbidden(
      'permission_denied',
      need === 'execute' ? 'switchboards:errors.execute_denied' : 'errors.permission_denied',
    );
  }
  return row;
}

/** Parses a positive id from a path segment; 404 for a malformed one. */
export function idParam(raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) throw ApiError.notFound();
  return Number(raw);
}

/** An id or resource address of `path` in a body or query field; 400 naming the field otherwise. */
export function refParam(value: unknown, path: string, field: string): number {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = new RegExp(`^(?:${path.replace(/\//g, '\\/')})?(\\d{1,9})\\/?$`).exec(s);
  if (!m) throw ApiError.badRequest('invalid_field', 'switchboards:errors.bad_reference', { field }, field);
  return Number(m[1]);
}

/**
 * The switchboard for a change of its canvas (nodes, frames, links, notes, frame content): write
 * permission, and while it is scheduled (automatic or periodic) only the user it runs as — or a
 * superuser — may change what it does (409 otherwise), so nobody makes it run their changes as
 * someone else.
 */
export async function canvasFor(req: ResourceRequest, id: number): Promise<Row> {
  const row = await onceInBulk(req, `canvas:${id}`, () => switchboardFor(req, id, 'write'));
  const scheduled = !!row.automatic || !!row.periodic_execution;
  if (scheduled && row.scheduled_by !== req.user.id && !req.user.isSuperuser) {
    throw new ApiError(409, 'switchboard_scheduled', 'switchboards:errors.switchboard_scheduled');
  }
  return row;
}

/**
 * Requests that create a whole switchboard at once (import, duplicate): link checks skip the
 * per-link cycle check (one check at the end) and the outdated marks, and the switchboard's access
 * is looked up once.
 */
export const bulkRequests = new WeakSet<ResourceRequest>();
const bulkCache = new WeakMap<ResourceRequest, Map<string, Promise<unknown>>>();

/** `fn()` once per key within a bulk request; every time otherwise. */
export function onceInBulk<T>(req: ResourceRequest, key: string, fn: () => Promise<T>): Promise<T> {
  if (!bulkRequests.has(req)) return fn();
  let cache = bulkCache.get(req);
  if (!cache) bulkCache.set(req, (cache = new Map()));
  if (!cache.has(key)) cache.set(key, fn());
  return cache.get(key) as Promise<T>;
}
