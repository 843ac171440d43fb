import {
  ApiError,
  inject,
  injectable,
  Logger,
  multiInject,
  optional,
  requestOf,
  type AuthUser,
  type HttpRouteContribution,
  type RegistrySink,
  type Row,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { layerServiceName, type Layer } from '@werkbank/plugin-layers/api';
import type { FrozenView } from '../common/finalview-fields';
import {
  FINALVIEW_SCENE_PATH,
  VIEW_PREVIEW_PATH,
  VIEW_SCENE_PATH,
  type SceneLayer,
  type SceneLayerGroup,
  type SceneLayerSource,
  type SceneStart,
  type ViewScene,
} from '../common/view-scene';
import { checkConfig, checkHome, checkTrees, layerIdOf, type PoiGroup, type ViewLayerGroup } from '../common/view-tree';
import type { ViewTranslation } from '../common/view-translations';
import { START_MODES_PATH, ViewStartModes, ViewVisits, type ViewStartMode } from '../common/views-api';
import { parsed } from './view-rows';
import { ViewsServices } from './views-services';

/** The fields of a view the preview takes from the editor's draft. */
const DRAFT_FIELDS = ['name', 'subline', 'description', 'image', 'home', 'layergroup', 'poigroup', 'config'];
const pick = (body: Record<string, unknown>) =>
  Object.fromEntries(DRAFT_FIELDS.filter((k) => k in body).map((k) => [k, body[k]]));

const op = (summary: string) => ({
  tags: ['view'],
  summary,
  responses: { 200: { description: 'OK' }, 404: { description: 'Not found, or not readable by the caller' } },
});

/** What a scene is made of: a view's stored row, or a frozen view's copy. */
type SceneParts = Pick<
  FrozenView,
  'name' | 'subline' | 'description' | 'image' | 'home' | 'layergroup' | 'poigroup' | 'config'
> & {
  translations: Pick<ViewTranslation, 'key' | 'values'>[];
};

/**
 * The viewer's reads (decision 0088): `GET …/view/{slug or id}/scene` and `GET …/finalview/{slug}/scene`
 * give the whole scene in one answer. Signed-out callers get public (frozen) views only; a view the
 * caller may not read is a 404, as if it did not exist. Each layer entry carries its layer's source
 * when the caller may read the layer through its services (public layers for signed-out callers);
 * otherwise the entry has none and the viewer shows it as unavailable. Each view scene answered
 * counts as a pageview of the view (ViewVisits, decision 0089); frozen views are not counted.
 */
@injectable()
export class ViewSceneRoutes implements HttpRouteContribution {
  @inject(ViewsServices) protected readonly services!: ViewsServices;
  @inject(ViewVisits) protected readonly visits!: ViewVisits;
  @inject(Logger) protected readonly logger!: Logger;
  @multiInject(ViewStartModes) @optional() protected readonly startModes: ViewStartMode[] = [];

  /** The row of `table` named by `ref` (a short name, or an id where ids are allowed) that the caller may read. */
  protected async readable(ctx: WerkbankContext, kind: 'view' | 'finalview', ref: string): Promise<Row> {
    const table = kind === 'view' ? 'views_view' : 'views_finalview';
    const byId = kind === 'view' && /^\d{1,9}$/.test(ref);
    const [found] = (await this.services.dataSource.query(
      byId ? `SELECT id, public FROM ${table} WHERE id = $1` : `SELECT id, public FROM ${table} WHERE slug = $1`,
      [byId ? Number(ref) : ref],
    )) as { id: number; public: boolean }[];
    if (!found) throw ApiError.notFound();
    if (!ctx.state.user) {
      if (!found.public) throw ApiError.notFound();
      const [row] = (await this.services.dataSource.query(`SELECT * FROM ${table} WHERE id = $1`, [found.id])) as Row[];
      return row;
    }
    const req = requestOf(ctx, this.services);
    const def = req.services.definitions().find((d) => d.kind === kind)!;
    const row = await req.services.loadReadable(def, found.id, req);
    if (!row) throw ApiError.notFound();
    return row;
  }

  /** The layer as its services publish it to the caller, or undefined when they would not. */
  protected async source(caller: AuthUser | undefined, id: number): Promise<SceneLayerSource | undefined> {
    let layer: Layer;
    let extent: [number, number, number, number] | null;
    try {
      ({ layer, extent = null } = await this.services.layers.published(caller, id, { extent: true }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined;
      throw e;
    }
    const name = encodeURIComponent(layerServiceName(layer));
    const address = (kind: string) => {
      const template = this.services.config.serviceUrls[kind];
      return template ? template.replaceAll('{name}', name).replaceAll('{id}', String(layer.id)) : null;
    };
    const wms = address('wms') ?? `/services/wms/${name}`;
    const wmts = address('wmts_kvp');
    return {
      id: layer.id,
      name: layer.name,
      description_title: layer.description_title,
      description: layer.description,
      bbox: extent,
      modified: layer.modified,
      wms: { url: wms.split('?')[0], layers: layerServiceName(layer) },
      wmts:
        layer.type === 'feature' && wmts
          ? { url: wmts.split('?')[0], layer: layerServiceName(layer), tileMatrixSet: 'WebMercatorQuad' }
          : null,
      geojson: layer.type === 'feature' ? address('geojson') : null,
      selection_title: layer.selection_title,
      selection_fields: layer.selection_fields ?? [],
      attribute_filters: layer.attribute_filters ?? [],
    };
  }

  protected async sceneTree(caller: AuthUser | undefined, tree: ViewLayerGroup): Promise<SceneLayerGroup> {
    const sources = new Map<number, SceneLayerSource | undefined>();
    const entry = async (layer: SceneLayer): Promise<SceneLayer> => {
      const id = layerIdOf(layer.layer);
      if (id === undefined) return layer;
      if (!sources.has(id)) sources.set(id, await this.source(caller, id));
      const source = sources.get(id);
      return source ? { ...layer, source } : layer;
    };
    const group = async (g: ViewLayerGroup): Promise<SceneLayerGroup> => {
      const layers: SceneLayer[] = [];
      for (const l of g.layers) layers.push(await entry(l));
      const layergroups: SceneLayerGroup[] = [];
      for (const child of g.layergroups) layergroups.push(await group(child));
      return { ...g, layers, layergroups };
    };
    return group(tree);
  }

  /** Where the view's start mode starts the viewer; null for 'Automatic', an unknown mode or one that finds nothing. */
  private start(name: string, layergroup: SceneLayerGroup, poigroup: PoiGroup): SceneStart | null {
    const mode = name ? this.startModes.find((m) => m.name === name) : undefined;
    try {
      return mode?.start({ layergroup, poigroup }) ?? null;
    } catch (e) {
      this.logger.log(`views: start mode ${name} failed: ${(e as Error).message}`);
      return null;
    }
  }

  protected async scene(
    ctx: WerkbankContext,
    head: Pick<ViewScene, 'kind' | 'id' | 'slug' | 'public' | 'finalview'>,
    parts: SceneParts,
  ): Promise<ViewScene> {
    // Stored trees passed the same check when they were saved; it completes what older rows lack.
    const trees = checkTrees(parsed(parts.layergroup), parsed(parts.poigroup));
    const home = checkHome(parsed(parts.home));
    const config = checkConfig(parsed(parts.config));
    if (trees.problem || config.problem) throw ApiError.notFound();
    const explicit = home.problem ? null : home.home;
    const layergroup = await this.sceneTree(ctx.state.user, trees.layergroup);
    return {
      ...head,
      name: parts.name,
      subline: parts.subline ?? '',
      description: parts.description ?? '',
      image: parts.image ?? '',
      home: explicit,
      layergroup,
      poigroup: trees.poigroup,
      start: explicit ? null : this.start(config.config.viewer.start_state, layergroup, trees.poigroup),
      config: config.config,
      translations: Object.fromEntries(parts.translations.map((t) => [t.key, t.values])),
      base_map_tile_url: this.services.config.baseMapTileUrl,
    };
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'views.scenes',
      realms: ['view'],
      openapi: {
        [START_MODES_PATH]: {
          get: op('The start modes of views that plugins offer besides Automatic: [{name, label}] in the caller’s language'),
        },
        '/api/v2/presenting/view/{ref}/scene': {
          parameters: [{ name: 'ref', in: 'path', required: true, schema: { type: 'string' } }],
          get: op('What the viewer opens: the view (by short name or id) with its layers’ sources and translations'),
        },
        '/api/v2/presenting/view/{ref}/preview': {
          parameters: [{ name: 'ref', in: 'path', required: true, schema: { type: 'string' } }],
          post: {
            ...op('The scene of a view as it would be with the unsaved changes in the body (the view editor’s live preview)'),
            responses: { 200: { description: 'OK' }, 400: { description: 'Invalid changes' }, 404: { description: 'Not found' } },
          },
        },
        '/api/v2/presenting/finalview/{slug}/scene': {
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          get: op('What the viewer opens for a frozen view: its copy, its layers’ sources and translations'),
        },
      },
      mount: (router) => {
        // The start modes the Home view tab offers besides 'Automatic', labelled in the caller's language.
        router.get(START_MODES_PATH, (ctx) => {
          const lang = ctx.state.lang === 'de' ? 'de' : 'en';
          ctx.body = this.startModes.map((m) => ({ name: m.name, label: m.labels[lang] }));
        });
        router.get(VIEW_SCENE_PATH, async (ctx) => {
          const row = await this.readable(ctx, 'view', ctx.params.ref);
          const translations = (await this.services.dataSource.query(
            `SELECT key, "values" FROM views_translation WHERE view_id = $1 ORDER BY key, id`,
            [row.id],
          )) as ViewTranslation[];
          const head = {
            kind: 'view' as const,
            id: Number(row.id),
            slug: String(row.slug ?? ''),
            public: !!row.public,
            finalview: null,
          };
          ctx.set('Cache-Control', 'no-store');
          ctx.body = await this.scene(ctx, head, { ...(row as unknown as FrozenView), translations });
          await this.visits.record(ctx, head.id);
        });
        router.post(VIEW_PREVIEW_PATH, async (ctx) => {
          // Signed-in readers only (the editor's preview); the body's trees pass the view's own check.
          requestOf(ctx, this.services);
          const row = await this.readable(ctx, 'view', ctx.params.ref);
          const body = await this.services.bodies.jsonValue(ctx);
          if (!body || typeof body !== 'object' || Array.isArray(body))
            throw ApiError.badRequest('invalid_body', 'views:errors.object', {});
          const draft = { ...(row as unknown as FrozenView), ...pick(body as Record<string, unknown>) };
          const problem =
            checkTrees(parsed(draft.layergroup), parsed(draft.poigroup)).problem ??
            checkHome(parsed(draft.home)).problem ??
            checkConfig(parsed(draft.config)).problem;
          if (problem) throw ApiError.badRequest('invalid_field', `views:${problem.key}`, problem.params ?? {}, problem.field);
          const head = {
            kind: 'view' as const,
            id: Number(row.id),
            slug: String(row.slug ?? ''),
            public: !!row.public,
            finalview: null,
          };
          const translations = (await this.services.dataSource.query(
            `SELECT key, "values" FROM views_translation WHERE view_id = $1 ORDER BY key, id`,
            [row.id],
          )) as ViewTranslation[];
          ctx.set('Cache-Control', 'no-store');
          ctx.body = await this.scene(ctx, head, { ...draft, translations });
        });
        router.get(FINALVIEW_SCENE_PATH, async (ctx) => {
          const row = await this.readable(ctx, 'finalview', ctx.params.slug);
          const frozen = parsed(row.frozen) as FrozenView;
          const slug = String(row.slug);
          const head = { kind: 'finalview' as const, id: Number(row.id), slug, public: !!row.public, finalview: slug };
          ctx.set('Cache-Control', 'no-store');
          ctx.body = await this.scene(ctx, head, { ...frozen, translations: frozen.translations ?? [] });
        });
      },
    });
  }
}
