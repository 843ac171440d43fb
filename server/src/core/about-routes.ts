import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Router from '@koa/router';
import type { PluginManifest } from '@werkbank/kernel';
import { guard, type ServerConfig, type WerkbankState } from '@werkbank/sdk/node';
import type { LicenceService } from '../licence/licence-service';
import { thirdPartyLicences, type ThirdPartyPackage } from './third-party-licences';

export const ABOUT_PATH = '/api/v2/backend/about';

/**
 * GET /api/v2/backend/about (the /about/ page, spec 000 §2): Werkbank's version; the installed
 * plugins with their package licence and the licensed components they need; every component
 * with the licence that enables it; the third-party packages with their licences, generated from
 * package-lock.json and node_modules on the first request and kept. Any signed-in user (realm
 * addon, like the Apps screen).
 */
export function mountAboutRoute(
  router: Router<WerkbankState>,
  licences: LicenceService,
  plugins: PluginManifest[],
  config: ServerConfig,
): void {
  let thirdParty: ThirdPartyPackage[] | undefined;
  let version: string | undefined;
  router.get(ABOUT_PATH, (ctx) => {
    guard(ctx, licences.gate, undefined, 'addon');
    version ??= (JSON.parse(readFileSync(join(config.root, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
    thirdParty ??= thirdPartyLicences(config.root);
    const lang = ctx.state.lang;
    ctx.body = {
      product: 'Werkbank',
      version,
      node: process.version,
      plugins: plugins.map((p) => ({
        id: p.id,
        title: p.title?.[lang] ?? p.title?.en ?? p.id,
        package: p.packageName ?? null,
        version: p.version ?? '',
        license: p.license ?? null,
        components: p.components ?? [],
      })),
      components: licences.grants().map((g) => ({
        id: g.component,
        enabled: g.enabled,
        licence: g.licence,
        plugins: plugins
          .filter((p) => p.components?.includes(g.component) || p.implements?.includes(g.component))
          .map((p) => p.id),
      })),
      third_party: thirdParty,
    };
  });
}
