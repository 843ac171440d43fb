import { createHash } from 'node:crypto';
import { ApiError, type WerkbankContext } from '@werkbank/sdk/node';
import { conditional, queryParam } from './geojson-endpoint';
import type { Publication } from './published-layers';
import { JSON_TYPE } from './oapif-documents';

/** The parameters every OGC API resource takes; items take more (OapifItems). */
export const COMMON_PARAMS = ['f', 'moment', 'apikey'];

/** `json` or `html`: `f=` when given (400 otherwise), else by the Accept header (JSON for `* /*`). */
export function format(ctx: WerkbankContext): 'json' | 'html' {
  const f = queryParam(ctx, 'f');
  if (f !== undefined && f !== '') {
    if (/^(json|geojson|application\/(geo\+)?json)$/i.test(f)) return 'json';
    if (/^(html|text\/html)$/i.test(f)) return 'html';
    throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.format_unknown', { f: f.slice(0, 50) }, 'f');
  }
  ctx.vary('Accept');
  return ctx.accepts('application/json', 'application/geo+json', 'text/html') === 'text/html' ? 'html' : 'json';
}

/**
 * Sets the publication's ETag for this variant of the response (format, language, query) and
 * answers 304 when the client holds it (`conditional`); true when answered.
 */
export function unchanged(ctx: WerkbankContext, publication: Publication, f: string): boolean {
  const query = createHash('sha256').update(ctx.querystring).digest('base64url').slice(0, 16);
  const hit = conditional(ctx, publication, `${f}.${ctx.state.lang}.${query}`);
  ctx.vary('Accept');
  ctx.vary('Accept-Language');
  return hit;
}

/** 400 for a query parameter the resource does not take (OGC API Core /req/core/query-param-unknown). */
export function checkParams(ctx: WerkbankContext, allowed: string[]): void {
  for (const name of Object.keys(ctx.query)) {
    if (allowed.includes(name) || /^apikey$/i.test(name)) continue;
    throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.parameter_unknown', { name: name.slice(0, 50) }, name);
  }
}

export function json(ctx: WerkbankContext, doc: unknown, type = JSON_TYPE): void {
  ctx.set('Content-Type', `${type}; charset=utf-8`);
  ctx.body = JSON.stringify(doc);
}

export function html(ctx: WerkbankContext, page: string): void {
  ctx.set('Content-Type', 'text/html; charset=utf-8');
  ctx.body = page;
}
