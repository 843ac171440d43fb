import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import type { PluginManifest } from '@werkbank/kernel';
import { ApiError, guard, type WerkbankState } from '@werkbank/sdk/node';
import { readJsonObject } from '../http/body';
import type { LicenceService } from '../licence/licence-service';

/**
 * The Apps screen's calls (spec 000 §7): /api/v1/addon/ lists every installed plugin and licensed
 * component; {addon}inform/ records interest in an add-on; superusers install licences with
 * POST /api/v1/addon/licence/.
 */
export function mountAddonRoutes(
  router: Router<WerkbankState>,
  db: DataSource,
  licences: LicenceService,
  plugins: PluginManifest[],
  bodyLimit: number,
): void {
  const addons = () => {
    const grants = licences.grants();
    const components = grants.map((g) => ({
      id: g.component,
      name: g.component,
      kind: 'component',
      enabled: g.enabled,
      licence: g.licence,
      expires: g.licence?.expires ?? null,
      plugins: plugins.filter((p) => p.components?.includes(g.component)).map((p) => p.id),
      // Licensed, but only worth anything when a loaded plugin implements it.
      available: plugins.some((p) => p.components?.includes(g.component) || p.implements?.includes(g.component)),
      resource_uri: `/api/v1/addon/${g.component}/`,
    }));
    const installed = plugins.map((p) => {
      const gates = p.components ?? [];
      const enabled = gates.every((c) => licences.gate.isEnabled(c));
      return {
        id: p.id,
        name: p.id,
        kind: 'plugin',
        title: p.title ?? null,
        description: p.description ?? '',
        summary: p.summary ?? null,
        version: p.version ?? '',
        enabled,
        components: gates,
        licence: null,
        expires: null,
        resource_uri: `/api/v1/addon/plugins/${p.id}/`,
      };
    });
    return [...installed, ...components];
  };

  router.get('/api/v1/addon/', async (ctx) => {
    guard(ctx, licences.gate, undefined, 'addon');
    const all = addons();
    ctx.body = {
      objects: all,
      meta: { offset: 0, limit: all.length, total_count: all.length },
      // Refusal reasons and every installed licence: superusers only.
      licences: !ctx.state.user!.isSuperuser
        ? []
        : licences.statusList().map((s) => ({
            state: s.state,
            reason: s.reason ?? null,
            id: s.payload?.id ?? null,
            licensee: s.payload?.licensee ?? null,
            expires: s.payload?.expires ?? null,
            development: !!s.payload?.development,
            components: s.payload?.components ?? [],
          })),
    };
  });

  router.post('/api/v1/addon/licence/', async (ctx) => {
    guard(ctx, licences.gate, undefined, 'addon');
    if (!ctx.state.user!.isSuperuser) throw ApiError.forbidden('superuser_required', 'errors.superuser_required');
    const doc = await readJsonObject(ctx, 64 * 1024 > bodyLimit ? bodyLimit : 64 * 1024);
    const status = await licences.install(doc, ctx.state.user!.id);
    if (status.state !== 'valid')
      throw ApiError.badRequest('licence_invalid', 'errors.licence_invalid', { reason: status.reason });
    ctx.status = 201;
    ctx.body = { status: 'ok', id: status.payload!.id, components: status.payload!.components, expires: status.payload!.expires };
  });

  router.get('/api/v1/addon/plugins/:name/', async (ctx) => {
    guard(ctx, licences.gate, undefined, 'addon');
    const found = addons().find((a) => a.kind === 'plugin' && a.name === ctx.params.name);
    if (!found) throw ApiError.notFound();
    ctx.body = found;
  });

  router.get('/api/v1/addon/:name/', async (ctx, next) => {
    if (ctx.params.name === 'licence' || ctx.params.name === 'plugins') return next();
    guard(ctx, licences.gate, undefined, 'addon');
    const found = addons().find((a) => a.kind === 'component' && a.name === ctx.params.name);
    if (!found) throw ApiError.notFound();
    ctx.body = found;
  });

  // A state-changing GET of the spec (CSRF header needed) and its POST form.
  router.register('/api/v1/addon/:name/inform/', ['GET', 'POST'], async (ctx) => {
    guard(ctx, licences.gate, undefined, 'addon');
    const name = ctx.params.name;
    if (!addons().some((a) => a.kind === 'component' && a.name === name))
      throw new ApiError(404, 'unknown_addon', 'errors.unknown_addon', { name });
    await db.query(`INSERT INTO werkbank_addon_interest (addon, user_id) VALUES ($1, $2)`, [name, ctx.state.user!.id]);
    ctx.body = { status: 'ok' };
  });
}
