import { ApiError, type WerkbankContext } from '@werkbank/sdk/node';
import { queryParam } from './geojson-endpoint';
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
  return ctx.accepts('application/json', 'application/geo+json', 'text/html') === 'text/html' ? 'html' : 'json';
}

/** The ETag variant of a response: its format, language and query. */
export function variant(ctx: WerkbankContext, f: string): string {
  ctx.vary('Accept');
  ctx.vary('Accept-Language');
  return `${f}.${ctx.state.lang}.${Buffer.from(ctx.querystring).toString('base64url')}`;
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
