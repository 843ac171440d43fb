import {
  ApiError,
  Database,
  inject,
  injectable,
  requestOf,
  ResourceServices,
  ServerConfig,
  type AuthUser,
  type DataSource,
  type HttpRouteContribution,
  type RegistrySink,
  type Row,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { LayerReader, layerServiceName, type Layer } from '@werkbank/plugin-layers/api';
import { portalLayerId, portalViewId, type PortalLayer, type PortalView } from '../common/portal-entries';
import { portalPageHtml, type PortalPageLayer, type PortalPageView, type PortalTexts } from './portal-page';

/** The portal page's address (spec 000 §2). */
export const PORTAL_PAGE_PATH = '/portal/:slug/';

/** The services a layer's addresses are offered for on the page, with their labels' keys. */
const SERVICES = [
  ['wms', 'page.wms'],
  ['wfs', 'page.wfs'],
  ['ogcapi', 'page.ogcapi'],
  ['wmts_kvp', 'page.wmts'],
] as const;

const parsed = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

/**
 * `GET /portal/{slug}/` (issue 18): the public landing page of a portal, as HTML in the caller's
 * language. Signed out: public portals only, with their public views and layers; signed in: what
 * the caller may read. What the caller may not read is left out; a portal it may not read is a 404.
 */
@injectable()
export class PortalPageRoute implements HttpRouteContribution {
  @inject(Database) protected readonly dataSource!: DataSource;
  @inject(ResourceServices) protected readonly resources!: ResourceServices;
  @inject(LayerReader) protected readonly layers!: LayerReader;
  @inject(ServerConfig) protected readonly config!: Readonly<ServerConfig>;

  /** The row of `table` with `id` when the caller may read it: signed out only a public one. */
  protected async readable(ctx: WerkbankContext, kind: 'portal' | 'view', id: number): Promise<Row | undefined> {
    const def = this.resources.definitions().find((d) => d.kind === kind);
    if (!def) return undefined;
    if (!ctx.state.user) {
      // Published objects only: the kind's own table and publication column, as the resource layer declares them.
      if (!def.publicColumn) return undefined;
      const [row] = (await this.dataSource.query(`SELECT * FROM ${def.table} WHERE id = $1 AND "${def.publicColumn}" = true`, [
        id,
      ])) as Row[];
      return row;
    }
    const req = requestOf(ctx, { dataSource: this.dataSource, resources: this.resources });
    return req.services.loadReadable(def, id, req);
  }

  protected async layer(caller: AuthUser | undefined, id: number): Promise<Layer | undefined> {
    try {
      return (await this.layers.published(caller, id)).layer;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  protected async views(ctx: WerkbankContext, entries: PortalView[]): Promise<PortalPageView[]> {
    const template = this.config.viewerUrls.view ?? '/viewer/{slug}/';
    const out: PortalPageView[] = [];
    for (const entry of entries) {
      const a = entry.attr;
      if (!entry.view) {
        if (a.external_url) out.push({ ...a, name: entry.name || `(${a.external_url})`, href: a.external_url, external: true });
        continue;
      }
      const id = portalViewId(entry.view);
      const view = id === undefined ? undefined : await this.readable(ctx, 'view', id);
      if (!view) continue;
      const slug = String(view.slug || view.id);
      out.push({
        name: entry.name || String(view.name),
        href: template.replaceAll('{slug}', encodeURIComponent(slug)).replaceAll('{id}', String(view.id)),
        external: false,
        image: text(a.image) ?? text(view.image),
        subline: text(a.subline) ?? text(view.subline),
        description: text(a.description) ?? text(view.description),
        infobox_text: a.infobox_text,
        headline_icon: a.headline_icon,
      });
    }
    return out;
  }

  protected async pageLayers(ctx: WerkbankContext, t: PortalTexts, entries: PortalLayer[]): Promise<PortalPageLayer[]> {
    const out: PortalPageLayer[] = [];
    for (const entry of entries) {
      const id = portalLayerId(entry.layer);
      const layer = id === undefined ? undefined : await this.layer(ctx.state.user, id);
      if (!layer) continue;
      const name = encodeURIComponent(layerServiceName(layer));
      const address = (kind: string) =>
        this.config.serviceUrls[kind]?.replaceAll('{name}', name).replaceAll('{id}', String(layer.id));
      const services = SERVICES.flatMap(([kind, label]) => {
        const href = address(kind);
        return href ? [{ label: t(label), href }] : [];
      });
      const geojson = address('geojson');
      out.push({
        name: entry.name || layer.name,
        description: text(entry.attr.description) ?? text(layer.description),
        image: text(entry.attr.image),
        services,
        download: entry.attr.exportable && geojson ? geojson : undefined,
      });
    }
    return out;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'portals.page',
      openapi: {
        '/portal/{slug}/': {
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            tags: ['portal'],
            summary: 'The public landing page of a portal (HTML): its views as cards and its layers with their service addresses',
            responses: { 200: { description: 'OK' }, 404: { description: 'Not found, or not readable by the caller' } },
          },
        },
      },
      mount: (router) => {
        router.get(PORTAL_PAGE_PATH, async (ctx) => {
          const [found] = (await this.dataSource.query(`SELECT id FROM portals_portal WHERE slug = $1 AND slug <> ''`, [
            ctx.params.slug,
          ])) as { id: number }[];
          const portal = found ? await this.readable(ctx, 'portal', found.id) : undefined;
          if (!portal) throw ApiError.notFound();
          const t: PortalTexts = (key, params) => String(ctx.state.t(key, { ns: 'portals', ...params }));
          const attr = parsed<Record<string, unknown>>(portal.attr) ?? {};
          const page = {
            lang: ctx.state.lang,
            name: String(portal.name),
            description: text(attr.description),
            views: await this.views(ctx, parsed<PortalView[]>(portal.views) ?? []),
            layers: await this.pageLayers(ctx, t, parsed<PortalLayer[]>(portal.layers) ?? []),
          };
          ctx.set('Cache-Control', 'no-store');
          ctx.set('Content-Type', 'text/html; charset=utf-8');
          ctx.body = portalPageHtml(t, page);
        });
      },
    });
  }
}
