import {
  ApiError,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  guard,
  requestOf,
  type ResourceRequest,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { MagazineServices } from './magazine-services';
import { windowBoxes, type Extent } from '../common/datum-extent';

/** Paging of the Magazine's own lists, as every list pages: offset, limit (≤ MAX_LIMIT), q. */
export function pageOf(query: WerkbankContext['query']): { offset: number; limit: number; q?: string } {
  const int = (name: string, fallback: number, max: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (typeof raw !== 'string' || !/^\d+$/.test(raw))
      throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name }, name);
    return Math.min(Number(raw), max);
  };
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  return {
    offset: int('offset', 0, Number.MAX_SAFE_INTEGER),
    limit: Math.max(1, int('limit', DEFAULT_LIMIT, MAX_LIMIT)),
    q: q || undefined,
  };
}

/** The signed-in caller's request; 401 without a session, 403 for an API key without the depot realm. */
export function callerOf(ctx: WerkbankContext, services: MagazineServices): ResourceRequest {
  guard(ctx, services.gate, undefined, 'depot');
  return requestOf(ctx, services);
}

/** Runs a write in one transaction; the depot's feed entries are announced after the commit. */
export function writeIn<T>(ctx: WerkbankContext, services: MagazineServices, fn: (r: ResourceRequest) => Promise<T>): Promise<T> {
  return services.resources.inTransaction(callerOf(ctx, services), 'depot', fn);
}

/**
 * `?bbox=west,south,east,north` in degrees (WGS 84) as the boxes to test (two when west > east: a
 * window across the antimeridian); undefined without one, 400 bbox_param for a malformed one.
 */
export function bboxOf(query: WerkbankContext['query']): Extent[] | undefined {
  const raw = query.bbox;
  if (raw === undefined || raw === '') return undefined;
  const parts = typeof raw === 'string' ? raw.split(',') : [];
  const boxes = parts.length === 4 && parts.every((p) => p.trim() !== '') ? windowBoxes(parts.map(Number)) : null;
  if (!boxes) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.bbox_param', {}, 'bbox');
  return boxes;
}
