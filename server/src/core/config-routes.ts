import type Router from '@koa/router';
import type { BackendConfig, PluginManifest } from '@werkbank/kernel';
import type { ServerConfig, WerkbankState } from '@werkbank/sdk/node';
import type { LicenceService } from '../licence/licence-service';
import type { AccountMailer } from '../auth/account-mailer';

/** GET /api/v2/backend/config (spec 000 §3 "Configuration"). Readable before login. */
export function mountConfigRoute(
  router: Router<WerkbankState>,
  licences: LicenceService,
  plugins: PluginManifest[],
  config: ServerConfig,
  mailer: AccountMailer,
): void {
  router.get('/api/v2/backend/config', async (ctx) => {
    const user = ctx.state.user;
    const body: BackendConfig = {
      default_base_layer: config.defaultBaseLayer,
      base_map_tile_url: config.baseMapTileUrl,
      source_projection: config.sourceProjection,
      layer_types: config.layerTypes,
      auth: {
        is_authenticated: !!user,
        is_superuser: !!user?.isSuperuser,
        user: user ? `/api/v1/user/${user.id}/` : null,
        username: user?.username ?? null,
        display_name: user?.displayName ?? null,
        language: ctx.state.lang,
        impersonator: ctx.state.impersonator
          ? { user: `/api/v1/user/${ctx.state.impersonator.id}/`, display_name: ctx.state.impersonator.displayName }
          : null,
        permissions: user ? [...user.permissions].sort() : [],
      },
      account_mail: mailer.ready,
      components: licences.gate.switches(),
      plugins: plugins.map((p) => p.id),
      licence: licences.summary(),
      documentation: config.documentation,
      // Internal host names of the viewers are for signed-in users only.
      viewer_urls: user ? config.viewerUrls : {},
      analytics_urls: user ? config.analyticsUrls : {},
      service_urls: user ? config.serviceUrls : {},
    };
    ctx.body = body;
  });
}
