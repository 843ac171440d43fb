import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Middleware } from 'koa';
import { marked } from 'marked';
import type { WerkbankState } from '@werkbank/sdk/node';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The documentation under /docs/ (the manual and tutorial links of the user menu, per language):
 * Markdown files from the project's docs folder rendered as HTML pages. Only files inside the
 * folder are served; `?raw` gives the Markdown itself.
 */
export function docsPages(dir: string): Middleware<WerkbankState> {
  const root = resolve(dir);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith('/docs/') || !ctx.path.endsWith('.md'))
      return next();
    let rel: string;
    try {
      rel = decodeURIComponent(ctx.path.slice('/docs/'.length));
    } catch {
      return next();
    }
    const file = resolve(root, '.' + sep + rel);
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return next();
    const text = readFileSync(file, 'utf8');
    if ('raw' in ctx.query) {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = text;
      return;
    }
    const title = /^#\s+(.+)$/m.exec(text)?.[1] ?? 'Werkbank';
    // Links between the Markdown files stay within the rendered pages.
    const body = await marked.parse(text, { async: true });
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = `<!doctype html><html lang="${rel.startsWith('de/') ? 'de' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Werkbank</title>
<style>body{font-family:-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1c2127}code,pre{background:#f1f3f5;border-radius:3px}pre{padding:.75rem;overflow:auto}code{padding:0 .2rem}table{border-collapse:collapse}td,th{border:1px solid #d3d8de;padding:.25rem .5rem;text-align:left}a{color:#215db0}</style></head>
<body><p><a href="/">Werkbank</a></p>${body}</body></html>`;
  };
}
