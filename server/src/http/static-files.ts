import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { Middleware } from 'koa';
import type { WerkbankState } from '@werkbank/sdk/node';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.md': 'text/markdown; charset=utf-8',
  '.map': 'application/json',
};

/** Paths the server answers itself; everything else GET is a browser route (deep links work). */
const SERVER_PATHS = /^\/(api|ws)\//;

/**
 * Browser routes of the public viewer (decision 0088): its own page and bundle, not the workbench.
 * `/viewer/{slug or id}/` opens a view, `/finalview/{slug}/` a frozen view.
 */
export const VIEWER_ROUTES = /^\/(viewer|finalview)\//;

/**
 * Serves the built bundle from `dir`, and index.html for every other GET so that a reload on any
 * route of spec 000 §2 opens the app there. Requests outside `dir` are not served.
 */
export function staticFiles(dir: string, mounts: Record<string, string> = {}): Middleware<WerkbankState> {
  const root = resolve(dir);
  const serveFrom = (base: string, rel: string) => {
    const file = resolve(base, '.' + sep + rel);
    if (!file.startsWith(resolve(base) + sep)) return undefined;
    if (!existsSync(file) || !statSync(file).isFile()) return undefined;
    return file;
  };
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;
    if (SERVER_PATHS.test(ctx.path)) return;
    let path: string;
    try {
      path = decodeURIComponent(ctx.path);
    } catch {
      return;
    }
    for (const [prefix, base] of Object.entries(mounts)) {
      if (path.startsWith(prefix)) {
        const file = serveFrom(base, path.slice(prefix.length));
        if (!file) return;
        ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
        ctx.body = createReadStream(file);
        return;
      }
    }
    const file = path !== '/' ? serveFrom(root, path.slice(1)) : undefined;
    if (file) {
      ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
      if (path.startsWith('/assets/')) ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = createReadStream(file);
      return;
    }
    if (extname(path) && !path.endsWith('/')) return;
    const index = join(root, VIEWER_ROUTES.test(path) ? 'viewer.html' : 'index.html');
    if (!existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The browser bundle is not built yet: run `npm run build`.';
      return;
    }
    ctx.type = TYPES['.html'];
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = createReadStream(index);
  };
}
