import { ApiError, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';

export const SWITCHBOARD_PATH = '/api/v1/switchboard/';
export const NODE_PATH = '/api/v1/node/';
export const FRAME_PATH = '/api/v1/frame/';
export const LINK_PATH = '/api/v1/link/';
export const NOTE_PATH = '/api/v1/note/';
export const WORKFLOW_PATH = '/api/v1/workflow/';
export const NODERUN_PATH = '/api/v1/noderun/';
export const EXECUTION_PATH = '/api/v1/execution/';

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
