import type { Middleware } from 'koa';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * One spelling per address, so the CSRF check and the router never see two different paths
 * (issue 14 item 24): percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2, other
 * escapes kept with upper-case hex: `%2F` stays a character of a segment), runs of slashes
 * collapsed, dot segments removed (RFC 3986 §5.2.4), and API addresses ending in a slash
 * (spec 000 §7 writes some without it: `/api/v2/backend/tags`).
 */
export function normalisePath(path: string): string {
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : escape.toUpperCase();
  });
  const segments = decoded
    .replace(/\/{2,}/g, '/')
    .split('/')
    .slice(1);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..') out.pop();
      if (last) out.push('');
    } else out.push(segment);
  });
  let normal = `/${out.join('/')}`;
  if (/^\/api\/[^.]*[^/]$/.test(normal)) normal = `${normal}/`;
  return normal;
}

/** Normalises `ctx.path` (normalisePath) before anything else reads it; the query string is kept. */
export function normalisePathMiddleware(): Middleware {
  return async (ctx, next) => {
    const normal = normalisePath(ctx.path);
    if (normal !== ctx.path) ctx.path = normal;
    await next();
  };
}
