import type { Middleware } from 'koa';
import type { WerkbankState } from '@werkbank/sdk/node';
import { ApiError } from '@werkbank/sdk/node';

/** 400 `invalid_text`: PostgreSQL text and jsonb cannot hold the NUL character (U+0000). */
export function nulRefused(field?: string): ApiError {
  return ApiError.badRequest('invalid_text', 'errors.invalid_text', {}, field);
}

/** Whether a parsed JSON value holds U+0000 in any string or key, at any depth. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (!value || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(containsNul);
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || containsNul(v)) return true;
  return false;
}

/**
 * Refuses a NUL byte in the address (path or query string, raw or percent-encoded) with 400
 * `invalid_text` before any handler reads it (issue 14 item 26). Bodies are checked where they are
 * read (readJsonObject, readForm, readMultipartUpload's fields).
 */
export function refuseNulInAddress(): Middleware<WerkbankState> {
  return async (ctx, next) => {
    const url = ctx.originalUrl;
    if (url.includes('\u0000') || /%00/i.test(url)) throw nulRefused();
    await next();
  };
}
