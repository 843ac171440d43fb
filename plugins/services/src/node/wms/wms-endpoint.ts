import { createHash } from 'node:crypto';
import {
  inject,
  injectable,
  WorkerPool,
  type RegistrySink,
  type ServiceEndpointContribution,
  type ServiceEndpointDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { acceptsFeature, evaluateStyle, type AttributeFilter, type LayerStyle } from '@werkbank/plugin-layers/api';
import {
  bgcolor,
  epsgName,
  featureCount,
  imageFormat,
  infoFormat,
  kvp,
  required,
  scaleDenominator,
  transparent,
  wmsBbox,
  wmsCrs,
  wmsRequest,
  wmsSize,
  wmsVersion,
  WmsProblem,
  type ExceptionMode,
  type ImageFormatName,
  type WmsVersion,
} from '../../common/wms-params';
import { conditional } from '../geojson-endpoint';
import { ExternalMaps, isExternalMap } from '../external-maps';
import { PublishedLayers, type Publication, type ServedFeature } from '../published-layers';
import { ServicesServices } from '../services-services';
import type { MapRenderInput, MessageRenderInput, RenderFeature } from './map-render-task';
import { capabilitiesXml, exceptionXml } from './wms-capabilities';
import { extentOf, featureInfoGml, featureInfoHtml, hits } from './wms-feature-info';
import { crsBoxes, windowOf } from './wms-area';
import { FeaturePacker, packedProperties, selectWindow, type IndexedFeatures, type PackedFeatures } from './packed-features';
import { MapGeometryCache } from './map-geometry-cache';
import { PublicationMemo } from '../publication-memo';
import { MetalayerWms } from './wms-metalayer';
import { drawLegend } from './legend-draw';
import { StyleImages } from './style-images';
import { attributeFilters, checkLayers, imageExceptions, packedAttributes, problemOf } from './wms-request-parts';

const TASK_MODULE = new URL('./map-render-task.ts', import.meta.url).href;
const MAP_TASK = { module: TASK_MODULE, name: 'renderMap' };
const MESSAGE_TASK = { module: TASK_MODULE, name: 'renderMessage' };

/** Largest WIDTH and HEIGHT of a map (WMS_MAX_SIZE, default 4096). */
export const DEFAULT_MAX_SIZE = 4096;

/** The style's name in STYLES= and the capabilities (besides the empty name, which means it too). */
export const STYLE_NAME = 'default';

type Box = [number, number, number, number];

/** How a map is encoded: format, transparency and the background colour (#rrggbb). */
export interface MapImage {
  format: ImageFormatName;
  transparent: boolean;
  bg: string;
}

/** What GetMap and GetFeatureInfo share (and the WMTS asks the renderer for): the map the client sees. */
export interface MapView {
  crs: string;
  bbox: Box;
  width: number;
  height: number;
}

/**
 * WMS 1.3.0 and 1.1.1 (issue 17, decision 0083) at `/services/wms/{name}`: GetCapabilities,
 * GetMap (PNG, JPEG) drawn with the layer's style in the worker pool, GetFeatureInfo (JSON, HTML
 * with the layer's selection fields, GML) and GetLegendGraphic (all rules or one, RULE=). Every
 * problem is a ServiceExceptionReport (or, for maps asking so, an image) in the caller's language.
 */
@injectable()
export class WmsEndpoint implements ServiceEndpointContribution {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  @inject(WorkerPool) protected readonly pool!: WorkerPool;
  @inject(StyleImages) protected readonly styleImages!: StyleImages;
  @inject(ExternalMaps) protected readonly external!: ExternalMaps;
  @inject(MetalayerWms) protected readonly metalayer!: MetalayerWms;
  @inject(MapGeometryCache) protected readonly geometries!: MapGeometryCache;
  @inject(PublicationMemo) protected readonly memo!: PublicationMemo;

  /** Largest WIDTH/HEIGHT (and legend side). */
  maxSize = Number(process.env.WMS_MAX_SIZE) > 0 ? Math.floor(Number(process.env.WMS_MAX_SIZE)) : DEFAULT_MAX_SIZE;

  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void {
    registry.add({
      id: 'services.wms',
      prefix: '/services/wms/',
      mount: (router) => {
        router.get('/services/wms/:name', (ctx) => this.handle(ctx));
        router.get('/services/wms/:name/', (ctx) => this.handle(ctx));
      },
    });
  }

  private async handle(ctx: WerkbankContext): Promise<void> {
    const p = kvp(ctx.query as Record<string, string | string[] | undefined>);
    const version = wmsVersion(p);
    let image: { mode: ExceptionMode; view: MapView; format: ImageFormatName; transparent: boolean; bg: string } | undefined;
    try {
      const request = wmsRequest(p);
      const memo = request === 'GetMap' && !p.get('moment'); // decision 0083, "Map geometry per publication"
      const publication = await (memo
        ? this.memo.open(ctx, ctx.params.name)
        : this.published.open(ctx, ctx.params.name, p.get('moment')));
      // A metalayer: a group of its members (decision 0084).
      if (publication.members) {
        if (request === 'GetMap') image = imageExceptions(p, version, this.maxSize);
        return await this.metalayer.answer(this, ctx, p, version, request, publication);
      }
      if (request === 'GetCapabilities') return await this.capabilities(ctx, p, version, publication);
      if (request === 'GetLegendGraphic') return await this.legend(ctx, p, publication);
      if (request === 'GetMap') image = imageExceptions(p, version, this.maxSize);
      checkLayers(p, request === 'GetMap' ? 'layers' : 'query_layers', publication, ctx.params.name);
      if (request === 'GetFeatureInfo') checkLayers(p, 'layers', publication, ctx.params.name);
      this.checkStyles(p);
      const view = this.view(p, version);
      if (request === 'GetFeatureInfo') return await this.featureInfo(ctx, p, version, publication, view);
      const format = imageFormat(p.get('format'));
      await this.map(ctx, p, publication, view, { format, transparent: transparent(p), bg: bgcolor(p) });
    } catch (e) {
      const problem = problemOf(ctx, e);
      if (image && image.mode !== 'xml') {
        const input: MessageRenderInput = {
          width: image.view.width,
          height: image.view.height,
          format: image.format,
          transparent: image.transparent,
          background: image.bg,
          text: image.mode === 'inimage' ? problem.text : '',
        };
        ctx.status = 200;
        ctx.set('Content-Type', image.format);
        ctx.body = bytes(await this.pool.run<MessageRenderInput, Uint8Array>(MESSAGE_TASK, input));
        return;
      }
      ctx.status = problem.status;
      ctx.set('Content-Type', version === '1.3.0' ? 'text/xml; charset=utf-8' : 'application/vnd.ogc.se_xml; charset=utf-8');
      ctx.remove('ETag');
      ctx.body = exceptionXml(version, problem.code, problem.locator, problem.text);
    }
  }

  /** STYLES: empty or the layer's one style, per layer. */
  checkStyles(p: Map<string, string>): void {
    for (const style of (p.get('styles') ?? '').split(',')) {
      const s = style.trim();
      if (s && s.toLowerCase() !== STYLE_NAME)
        throw new WmsProblem('StyleNotDefined', 'style', { style: s.slice(0, 80) }, 'styles');
    }
  }

  /** The map a GetMap or GetFeatureInfo asks for: CRS, box and size. */
  view(p: Map<string, string>, version: WmsVersion): MapView {
    const crs = wmsCrs(p, version);
    const bbox = wmsBbox(p, crs, version);
    return { crs, bbox, width: wmsSize(p, 'width', this.maxSize), height: wmsSize(p, 'height', this.maxSize) };
  }

  /** The window in degrees that a box of a CRS covers. */
  window(crs: string, bbox: Box): Promise<Box> {
    return windowOf(this.services.reprojection, crs, bbox);
  }

  /** The publication's features in a window (default: all), reprojected to the map's CRS: [served, projected] pairs. */
  private async *inView(
    publication: Publication,
    view: Pick<MapView, 'crs'>,
    window?: Box,
  ): AsyncGenerator<Array<[ServedFeature, RenderFeature]>> {
    const target = epsgName(view.crs);
    const project = target === 'EPSG:4326' ? undefined : await this.services.reprojection.reprojector('EPSG:4326', target);
    let index = 0;
    for await (const batch of this.published.features(publication, { window })) {
      const out: Array<[ServedFeature, RenderFeature]> = [];
      for (const f of batch) {
        if (!project) {
          out.push([f, { geometry: f.geometry, properties: f.properties }]);
          continue;
        }
        try {
          const p = project({ type: 'Feature', geometry: f.geometry, properties: null }, index++);
          out.push([f, { geometry: p.geometry as RenderFeature['geometry'], properties: f.properties }]);
        } catch {
          // A position the CRS cannot hold (beyond its area) is not drawn.
        }
      }
      yield out;
    }
  }

  /**
   * The ETag: the publication's key and the request's parameters (without apikey and moment, which
   * the key covers), plus what else shapes the answer (`extra`: the address capabilities name).
   */
  etag(ctx: WerkbankContext, publication: Publication, p: Map<string, string>, extra = ''): boolean {
    const skip = new Set(['apikey', 'moment']);
    const params = [...p].filter(([k]) => !skip.has(k)).sort(([a], [b]) => (a < b ? -1 : 1));
    const variant = createHash('sha256')
      .update(JSON.stringify([params, extra]))
      .digest('base64url')
      .slice(0, 22);
    return conditional(ctx, publication, `wms.${variant}`);
  }

  private async map(
    ctx: WerkbankContext,
    p: Map<string, string>,
    publication: Publication,
    view: MapView,
    image: MapImage,
  ): Promise<void> {
    const window = await this.window(view.crs, view.bbox);
    // external_map, mapproxy: the remote map (decision 0083, "External maps").
    const remote = { preview: !!p.get('moment'), conditional: () => this.etag(ctx, publication, p) };
    const request = { ...view, ...image, background: image.bg, window };
    if (isExternalMap(publication.layer)) return await this.external.answerGetMap(ctx, publication, request, remote);
    if (this.etag(ctx, publication, p)) return;
    const out = await this.render(publication, view, image, window, attributeFilters(p, publication));
    ctx.set('Content-Type', image.format);
    ctx.body = out;
  }

  /**
   * The renderer's entry point (GetMap, and the WMTS's tiles): the publication drawn with its style
   * over `view` (a box of an offered CRS at a size) in the worker pool. The features are those whose
   * extent meets `window` (degrees; default the view's own, refused as bbox_range when the CRS cannot
   * hold it); null draws none.
   */
  async render(
    publication: Publication,
    view: MapView,
    image: MapImage,
    window?: Box | null,
    filters: readonly AttributeFilter[] = [],
  ): Promise<Buffer> {
    const w = window === undefined ? await this.window(view.crs, view.bbox) : window;
    const features = w ? await this.featuresIn(publication, view.crs, w, filters) : new FeaturePacker([]).finish();
    const input: MapRenderInput = {
      width: view.width,
      height: view.height,
      bbox: view.bbox,
      scaleDenominator: scaleDenominator(view.bbox, view.width, view.crs),
      style: publication.style.style,
      features,
      format: image.format,
      transparent: image.transparent,
      background: image.bg,
      images: await this.styleImages.of(publication.style.style),
    };
    return bytes(await this.pool.run<MapRenderInput, Uint8Array>(MAP_TASK, input));
  }

  /** The features whose extent meets `window`, packed in `crs`: from MapGeometryCache, or the depot's window for a layer too large to keep. */
  private async featuresIn(
    publication: Publication,
    crs: string,
    window: Box,
    filters: readonly AttributeFilter[] = [],
  ): Promise<PackedFeatures> {
    const target = epsgName(crs);
    const layer = await this.geometries.get(publication, target, () => this.layerGeometry(publication, target));
    const keys = filters.map((f) => f.attribute_key);
    if (layer)
      return selectWindow(
        layer,
        window,
        filters.length ? (packed, i) => acceptsFeature(packedProperties(packed, i, keys), filters) : undefined,
      );
    const packer = new FeaturePacker(packedAttributes(publication));
    for await (const batch of this.inView(publication, { crs }, window))
      for (const [, f] of batch) if (acceptsFeature(f.properties, filters)) packer.add(f.geometry, f.properties);
    return packer.finish();
  }

  /** Every feature of the publication packed in `crs` with its extent in degrees; null when the layer is too large to keep. */
  private async layerGeometry(publication: Publication, crs: string): Promise<IndexedFeatures | null> {
    if ((await this.published.count(publication)) > this.geometries.maxFeatures) return null;
    const packer = new FeaturePacker(packedAttributes(publication));
    for await (const batch of this.inView(publication, { crs }))
      for (const [served, f] of batch) packer.add(f.geometry, f.properties, extentOf(served.geometry));
    return packer.finishIndexed();
  }

  private async featureInfo(
    ctx: WerkbankContext,
    p: Map<string, string>,
    version: WmsVersion,
    publication: Publication,
    view: MapView,
  ) {
    const format = infoFormat(p.get('info_format'));
    const [iName, jName] = version === '1.3.0' ? ['i', 'j'] : ['x', 'y'];
    const pixel = (name: string, max: number) => {
      const raw = required(p, name);
      if (!/^\d{1,9}$/.test(raw) || Number(raw) >= max)
        throw new WmsProblem('InvalidPoint', 'point', { name: name.toUpperCase() }, name);
      return Number(raw) + 0.5;
    };
    const at: [number, number] = [pixel(iName, view.width), pixel(jName, view.height)];
    const count = featureCount(p);
    // external_map, mapproxy: cascaded to the remote WMS (decision 0084).
    if (isExternalMap(publication.layer))
      return this.metalayer.answerExternalInfo(ctx, publication, view, [at[0] - 0.5, at[1] - 0.5], count, format);
    const window = await this.featureWindow(view, at);
    if (this.etag(ctx, publication, p, ctx.state.lang)) return;
    const found = await this.featuresAt(publication, view, at, count, window, attributeFilters(p, publication));
    const layerName = publication.layer.slug || String(publication.layer.id);
    if (format === 'application/json') {
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = { type: 'FeatureCollection', features: found };
    } else if (format === 'text/html') {
      ctx.set('Content-Type', 'text/html; charset=utf-8');
      ctx.body = featureInfoHtml(publication.layer, found, ctx.state.lang);
    } else {
      ctx.set('Content-Type', `${format}; charset=utf-8`);
      ctx.body = featureInfoGml(layerName, found);
    }
  }

  /** The window in degrees that GetFeatureInfo reads around pixel `at` of a view (8 px each way). */
  featureWindow(view: MapView, at: [number, number]): Promise<Box> {
    const [minx, miny, maxx, maxy] = view.bbox;
    const ux = (maxx - minx) / view.width;
    const uy = (maxy - miny) / view.height;
    const tolerance = 8;
    const [i, j] = at;
    return this.window(view.crs, [
      minx + (i - tolerance) * ux,
      maxy - (j + tolerance) * uy,
      minx + (i + tolerance) * ux,
      maxy - (j - tolerance) * uy,
    ]);
  }

  /**
   * The features drawn at pixel `at` of a view (pixel units from the top left corner; a pixel's
   * centre is at +0.5), at most `count`, in the publication's order, read from `window` (see
   * featureWindow, by default): GetFeatureInfo of the WMS and of the WMTS, also of a metalayer's
   * members (decisions 0083, 0084).
   */
  async featuresAt(
    publication: Publication,
    view: MapView,
    at: [number, number],
    count: number,
    window?: Box,
    filters: readonly AttributeFilter[] = [],
  ): Promise<ServedFeature[]> {
    window ??= await this.featureWindow(view, at);
    const [minx, miny, maxx, maxy] = view.bbox;
    const ux = (maxx - minx) / view.width;
    const uy = (maxy - miny) / view.height;
    const scale = scaleDenominator(view.bbox, view.width, view.crs);
    const found: ServedFeature[] = [];
    const toPixel = (x: number, y: number): [number, number] => [(x - minx) / ux, (maxy - y) / uy];
    for await (const batch of this.inView(publication, view, window)) {
      for (const [served, projected] of batch) {
        if (found.length >= count) break;
        if (!acceptsFeature(served.properties, filters)) continue;
        const drawn = safeEvaluate(publication.style.style, projected, scale);
        if (!drawn.length) continue;
        const radius = Math.max(3, ...drawn.map((s) => (s.kind === 'mark' ? s.radius : s.kind === 'icon' ? s.size / 2 : 0)));
        if (hits(projected.geometry, toPixel, at, radius)) found.push(served);
      }
      if (found.length >= count) break;
    }
    return found;
  }

  private async legend(ctx: WerkbankContext, p: Map<string, string>, publication: Publication): Promise<void> {
    const layer = required(p, 'layer');
    if (![publication.layer.slug, String(publication.layer.id), ctx.params.name].includes(layer.trim()))
      throw new WmsProblem('LayerNotDefined', 'layer', { layer: layer.slice(0, 80) }, 'layer');
    const style = (p.get('style') ?? '').trim();
    if (style && style.toLowerCase() !== STYLE_NAME)
      throw new WmsProblem('StyleNotDefined', 'style', { style: style.slice(0, 80) }, 'style');
    const format = imageFormat(p.get('format'), 'image/png');
    const rules = publication.style.style.rules;
    const ruleName = p.get('rule');
    let rule: number | undefined;
    if (ruleName !== undefined && ruleName.trim() !== '') {
      const r = ruleName.trim();
      rule = rules.findIndex((x, i) => (x.name || `#${i + 1}`) === r);
      if (rule < 0) throw new WmsProblem('InvalidParameterValue', 'rule', { rule: r.slice(0, 80) }, 'rule');
    }
    const side = (name: 'width' | 'height', fallback: number) => (p.get(name) ? wmsSize(p, name, this.maxSize) : fallback);
    const width = side('width', rule === undefined ? 200 : 20);
    const height = side('height', rule === undefined ? Math.max(1, rules.length) * 20 : 20);
    // external_map, mapproxy: the remote's legend (decision 0084).
    if (isExternalMap(publication.layer)) return this.metalayer.answerExternalLegend(ctx, p, publication);
    if (this.etag(ctx, publication, p)) return;
    const legend = await drawLegend(this.pool, this.published, this.styleImages, publication, {
      rule,
      width,
      height,
      format,
      transparent: transparent(p),
      background: bgcolor(p),
    });
    ctx.set('Content-Type', format);
    ctx.body = bytes(legend);
  }

  private async capabilities(ctx: WerkbankContext, p: Map<string, string>, version: WmsVersion, publication: Publication) {
    const { layer, style } = publication;
    const keep = [...p].filter(([k]) => k === 'apikey' || k === 'moment');
    const base = `${ctx.protocol}://${ctx.host}${ctx.path}?${keep.map(([k, v]) => `${k}=${encodeURIComponent(v)}&`).join('')}`;
    if (this.etag(ctx, publication, p, base)) return;
    const extent = layer.bbox ?? (await this.extent(publication));
    const boxes = await crsBoxes(this.services.reprojection, extent, version);
    ctx.set('Content-Type', version === '1.3.0' ? 'text/xml; charset=utf-8' : 'application/vnd.ogc.wms_xml; charset=utf-8');
    ctx.body = capabilitiesXml({
      version,
      url: base,
      name: layer.slug || String(layer.id),
      title: layer.name,
      abstract: layer.description_title || '',
      styleName: STYLE_NAME,
      styleTitle: style.name || STYLE_NAME,
      style: style.style,
      extent,
      boxes,
      maxSize: this.maxSize,
      // external_map, mapproxy: queryable and legend as the remote's capabilities say (decision 0084).
      ...(isExternalMap(layer) ? await this.metalayer.externalCapabilities(publication) : {}),
    });
  }

  /** The extent of the published features in degrees (the world when there are none); a metalayer's: its members'. */
  async extent(publication: Publication): Promise<Box> {
    if (publication.members) return this.metalayer.extent(this, publication);
    let box: Box | null = null;
    for await (const batch of this.published.features(publication))
      for (const f of batch) {
        const e = extentOf(f.geometry);
        if (e) box = box ? [Math.min(box[0], e[0]), Math.min(box[1], e[1]), Math.max(box[2], e[2]), Math.max(box[3], e[3])] : e;
      }
    return box ?? [-180, -90, 180, 90];
  }
}

function safeEvaluate(style: LayerStyle, feature: RenderFeature, scale: number) {
  try {
    return evaluateStyle(style, feature, scale);
  } catch {
    return [];
  }
}

/** A worker's image bytes (a Uint8Array after the copy between threads) as a Buffer. */
function bytes(u: Uint8Array): Buffer {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}
