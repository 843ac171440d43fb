import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type Row,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import {
  EFFECTIVE_STYLE_ACTION,
  LAYER_ATTRIBUTE_VALUES_PATH,
  LAYER_ATTRIBUTES_PATH,
  LAYER_PATH,
  PILE_PATH,
  SAVE_STYLE_ACTION,
} from '../common/layers-api';
import { layerServiceName } from '../common/layer-slug';
import { serviceUrls } from '../common/service-urls';
import { geometryKind, type GeometryKind } from '../common/style-model';
import { styleToSld } from '../common/style-geostyler';
import { styleToMapLibre } from '../common/style-maplibre';
import { effectiveStyleOf } from './layer-style-source';
import { saveStyle } from './layer-style-save';
import { layerIsoXml } from './layer-iso';
import { attributeUnion, attributeValues } from '../common/layer-attributes';
import { parsePiles, pilesJson } from './pile-store';
import { collect, depotItems, layerItems } from './layer-data';
import { LayerTemplatesService, templateSourceOf } from './layer-templates-service';
import { layerFieldsOf } from '../common/layer-template';
import { LayersServices } from './layers-services';
import { layerOpenApi } from './layers-openapi';
import { mountLegendRoutes } from './legend-routes';
import { mountMetadataRoutes } from './metadata-routes';

/** At most this many values per attribute-values reply. */
export const MAX_ATTRIBUTE_VALUES = 1000;

/**
 * Layerpiles (`/api/v1/pile/{id}/`) and the layer attribute calls (spec 000 §7 Version 2,
 * spec 001 §7): each needs read access to the layer.
 */
@injectable()
export class LayerRoutes implements HttpRouteContribution {
  @inject(LayersServices) protected readonly services!: LayersServices;
  @inject(LayerTemplatesService) protected readonly templates!: LayerTemplatesService;

  protected req(ctx: WerkbankContext): ResourceRequest {
    guard(ctx, undefined, undefined, 'layer');
    return requestOf(ctx, this.services);
  }

  /** The id of a layer the caller may read, from `?layer=` (id or address); 400 / 404 otherwise. */
  protected async layerParam(ctx: WerkbankContext, r: ResourceRequest): Promise<number> {
    const raw = typeof ctx.query.layer === 'string' ? ctx.query.layer : '';
    const m = /^(?:\/api\/v1\/layer\/)?(\d{1,9})\/?$/.exec(raw);
    if (!m) throw ApiError.badRequest('invalid_parameter', 'layers:errors.layer_param', {}, 'layer');
    const def = r.services.definitions().find((d) => d.kind === 'layer')!;
    if (!(await r.services.loadReadable(def, Number(m[1]), r))) throw ApiError.notFound();
    return Number(m[1]);
  }

  /** The layer `raw` (an id from the path) when the caller may read it; 404 otherwise. */
  protected async readableLayer(r: ResourceRequest, raw: string): Promise<Row> {
    if (!/^\d{1,9}$/.test(raw)) throw ApiError.notFound();
    const def = r.services.definitions().find((d) => d.kind === 'layer')!;
    const row = await r.services.loadReadable(def, Number(raw), r);
    if (!row) throw ApiError.notFound();
    return row;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'layers.routes',
      realms: ['layer'],
      openapi: layerOpenApi,
      mount: (router) => {
        // spec 000 §7 "Create from template: POST with body and query template or template_layer"
        // (decision 0064): the template gives type, time range, attr and selection fields; the body's
        // own fields (name, layerpiles, …) go over them.
        router.post(`${LAYER_PATH}create_from_template/`, async (ctx) => {
          const r = this.req(ctx);
          const source = templateSourceOf(ctx.query as Record<string, unknown>);
          if (!source)
            throw ApiError.badRequest('invalid_parameter', 'layers:templates.errors.template_required', {}, 'template');
          // A template datum is read from a depot: an API key needs that realm too.
          if (source.template) guard(ctx, undefined, undefined, 'depot');
          const body = await this.services.bodies.json(ctx);
          const { template } = await this.templates.read(r, source);
          // 'Add all attributes' needs the piles' attributes: read before the write's transaction.
          const attributes =
            template.scope.selection_fields === 'all_attributes' && body.layerpiles !== undefined
              ? attributeUnion(
                  await collect(
                    depotItems(
                      r,
                      this.services.depots,
                      parsePiles(body.layerpiles).map((p) => p.depotId),
                    ),
                  ),
                )
              : [];
          const def = r.services.definitions().find((d) => d.kind === 'layer')!;
          const values = { ...layerFieldsOf(template, attributes), ...body };
          ctx.body = await this.services.resources.inTransaction(r, 'layer', (w) => w.services.create(def, values, w));
          ctx.status = 201;
        });
        mountLegendRoutes(router, this.services);
        mountMetadataRoutes(router, this.services);
        router.get(`${PILE_PATH}:id/`, async (ctx) => {
          const r = this.req(ctx);
          if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
          const [row] = (await r.manager.query(`SELECT id, layer_id, depot_id, name, position FROM layers_pile WHERE id = $1`, [
            Number(ctx.params.id),
          ])) as Parameters<typeof pilesJson>[1];
          const def = r.services.definitions().find((d) => d.kind === 'layer')!;
          if (!row || !(await r.services.loadReadable(def, row.layer_id, r))) throw ApiError.notFound();
          const [pile] = await pilesJson(r, [row], this.services.runs);
          if (!pile) throw ApiError.notFound();
          ctx.body = pile;
        });
        // Decision 0061: the layer's saved style as SLD (1.1.0 with SE, or ?version=1.0.0) and as a
        // MapLibre style; symbolizers only for the geometry kinds the layer's features have.
        router.get(`${LAYER_PATH}:id/style.:format`, async (ctx) => {
          const r = this.req(ctx);
          const format = ctx.params.format;
          if ((format !== 'sld' && format !== 'json') || !/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
          const def = r.services.definitions().find((d) => d.kind === 'layer')!;
          const row = await r.services.loadReadable(def, Number(ctx.params.id), r);
          if (!row) throw ApiError.notFound();
          // Decision 0068: the style the layer is drawn with (a linked style datum, or its own).
          const { style } = await effectiveStyleOf(this.services.depots, r, row);
          const items = await collect(layerItems(r, this.services.depots, row.id));
          const features = items.map((i) => i.feature).filter((f): f is { geometry: unknown } => !!f && typeof f === 'object');
          const seen = new Set(features.map((f) => geometryKind(f.geometry as never)).filter((k): k is GeometryKind => !!k));
          const kinds: GeometryKind[] = seen.size ? [...seen] : ['polygon', 'line', 'point'];
          const name = layerServiceName({ id: row.id, slug: String(row.slug ?? '') });
          ctx.set('Content-Disposition', `attachment; filename="${name}.${format === 'sld' ? 'sld' : 'style.json'}"`);
          if (format === 'sld') {
            const version = ctx.query.version === '1.0.0' ? '1.0.0' : '1.1.0';
            ctx.type = 'application/vnd.ogc.sld+xml; charset=utf-8';
            ctx.body = await styleToSld(style, String(row.name), kinds, version);
            return;
          }
          const geojson = serviceUrls(
            { id: row.id, slug: String(row.slug ?? '') },
            this.services.config.serviceUrls,
            `${ctx.protocol}://${ctx.host}`,
          ).find((u) => u.kind === 'geojson')?.url;
          // The source is the layer's GeoJSON service (configured templates, spec 001 §2.2; the
          // server config always has one, SERVICE_URL_GEOJSON or its default).
          ctx.body = styleToMapLibre(style, { name: String(row.name), source: name, data: geojson ?? '', kinds });
        });
        // Decision 0068: the style the layer is drawn with, and writing a style into a style depot.
        router.get(`${LAYER_PATH}:id/${EFFECTIVE_STYLE_ACTION}`, async (ctx) => {
          const r = this.req(ctx);
          const row = await this.readableLayer(r, ctx.params.id);
          ctx.body = await effectiveStyleOf(this.services.depots, r, row);
        });
        router.post(`${LAYER_PATH}:id/${SAVE_STYLE_ACTION}`, async (ctx) => {
          const r = this.req(ctx);
          const row = await this.readableLayer(r, ctx.params.id);
          const body = await this.services.bodies.json(ctx);
          ctx.body = await saveStyle(this.services, r, row, body);
        });
        router.get(LAYER_ATTRIBUTES_PATH, async (ctx) => {
          const r = this.req(ctx);
          const layerId = await this.layerParam(ctx, r);
          ctx.body = { objects: attributeUnion(await collect(layerItems(r, this.services.depots, layerId))) };
        });
        router.get(LAYER_ATTRIBUTE_VALUES_PATH, async (ctx) => {
          const r = this.req(ctx);
          const layerId = await this.layerParam(ctx, r);
          const name = typeof ctx.query.attribute === 'string' ? ctx.query.attribute : '';
          if (!name) throw ApiError.badRequest('invalid_parameter', 'layers:errors.attribute_param', {}, 'attribute');
          const unique = ctx.query.unique === 'true' || ctx.query.unique === '1';
          const items = await collect(layerItems(r, this.services.depots, layerId));
          ctx.body = { objects: attributeValues(items, name, unique, MAX_ATTRIBUTE_VALUES) };
        });
        // spec 001 §2.2: the metadata export is the layer's address plus download.xml (ISO 19139, decision 0066).
        router.get(`${LAYER_PATH}:id/download.xml`, async (ctx) => {
          guard(ctx, this.services.gate, 'metadata', 'layer');
          const r = requestOf(ctx, this.services);
          if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
          const def = r.services.definitions().find((d) => d.kind === 'layer')!;
          const row = await r.services.loadReadable(def, Number(ctx.params.id), r);
          if (!row) throw ApiError.notFound();
          const [layer] = await r.services.serialize(def, [row], r);
          ctx.type = 'application/xml; charset=utf-8';
          ctx.set('Content-Disposition', `attachment; filename="layer-${row.id}.xml"`);
          ctx.body = await layerIsoXml(r, layer, this.services.config.serviceUrls, `${ctx.protocol}://${ctx.host}`);
        });
      },
    });
  }
}
