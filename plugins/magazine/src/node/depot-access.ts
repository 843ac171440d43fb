import { ApiError, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';

export function depotDefinition(req: ResourceRequest): ResourceDefinition {
  return req.services.definitions().find((d) => d.kind === 'depot')!;
}

/**
 * The depot if the caller may read it (404 otherwise, so unreadable depots stay invisible) and,
 * for 'write', change it (403). Permissions come from the shared resource layer.
 */
export async function depotFor(req: ResourceRequest, depotId: number, need: 'read' | 'write'): Promise<Row> {
  const def = depotDefinition(req);
  req.services.checkRealm(def, req);
  const row = await req.services.loadReadable(def, depotId, req);
  if (!row) throw ApiError.notFound();
  if (need === 'write' && !(await req.services.mayWrite(def, row, req))) {
    throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
  }
  return row;
}

/** Parses a positive id from a path segment or a query value; 404 for a malformed one in a path. */
export function idParam(raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) throw ApiError.notFound();
  return Number(raw);
}

/** An optional `moment_id` from the query or body; 400 when it is not an id. */
export function basedOnMoment(query: Record<string, unknown>, body: Record<string, unknown>): number | undefined {
  const raw = body.moment_id ?? query.moment_id;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const s = String(raw);
  if (!/^\d{1,9}$/.test(s))
    throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name: 'moment_id' }, 'moment_id');
  return Number(s);
}
