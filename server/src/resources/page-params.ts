import { DEFAULT_LIMIT, MAX_LIMIT } from '@werkbank/kernel';
import { ApiError } from '@werkbank/sdk/node';

function intParam(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name });
  return Math.min(Math.max(Number(raw), min), max);
}

/**
 * The page every list answers (spec 000 §3: `meta` with offset, limit, total_count): `offset` from
 * 0, `limit` 1..MAX_LIMIT (DEFAULT_LIMIT when absent; larger values are capped). Throws 400
 * invalid_parameter when either is not a whole number.
 */
export function pageParams(query: Record<string, unknown>): { offset: number; limit: number } {
  return {
    offset: intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: intParam(query, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
  };
}
