import type Router from '@koa/router';
import type { WerkbankState } from '@werkbank/sdk/node';
import type { WerkbankServer } from '../werkbank-server';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * /backend/ (spec 000 §2: a full page load): the server's own page for administrators — database,
 * plugins, licences and the API reference. Others are sent to the login page.
 */
export function mountBackendPage(router: Router<WerkbankState>, server: WerkbankServer): void {
  router.get('/backend/', (ctx) => {
    const user = ctx.state.user;
    if (!user) return ctx.redirect('/accounts/login/?next=/backend/');
    if (!user.isSuperuser) return ctx.redirect('/');
    const de = ctx.state.lang === 'de';
    const rows = server.kernel.plugins
      .map(
        (p) =>
          `<tr><td>${escapeHtml(p.id)}</td><td>${escapeHtml(p.version ?? '')}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
      )
      .join('');
    const lic = server.licences.summary();
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = `<!doctype html><html lang="${ctx.state.lang}"><head><meta charset="utf-8"><title>Werkbank Backend</title>
<style>body{font-family:sans-serif;margin:2rem;max-width:60rem}td,th{padding:.25rem .75rem;text-align:left;border-bottom:1px solid #ddd}</style></head>
<body><h1>Werkbank Backend</h1>
<p><a href="/">${de ? 'Zurück zur Werkbank' : 'Back to the workbench'}</a> · <a href="/api/openapi.json">OpenAPI</a> · <a href="/docs/api.md">${de ? 'API-Referenz' : 'API reference'}</a></p>
<h2>${de ? 'Datenbank' : 'Database'}</h2><p>${server.db.kind === 'embedded' ? (de ? 'Eingebettet (PGlite)' : 'Embedded (PGlite)') : 'PostgreSQL'}</p>
<h2>${de ? 'Lizenz' : 'Licence'}</h2><p>${escapeHtml(lic.licensee ?? '-')} ${lic.development ? (de ? '(Entwicklungslizenz)' : '(development licence)') : ''} ${lic.expires ? escapeHtml(lic.expires) : ''}</p>
<h2>Plugins</h2><table><tr><th>Id</th><th>Version</th><th>${de ? 'Beschreibung' : 'Description'}</th></tr>${rows}</table>
</body></html>`;
  });
}
