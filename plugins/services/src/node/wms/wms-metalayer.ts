import { ApiError, inject, injectable, Logger, WorkerPool, type WerkbankContext } from '@werkbank/sdk/node';
import {
  bgcolor,
  featureCount,
  imageFormat,
  infoFormat,
  required,
  transparent,
  wmsSize,
  WmsProblem,
  type ImageFormatName,
  type InfoFormat,
  type WmsRequest,
  type WmsVersion,
} from '../../common/wms-params';
import { conditional } from '../geojson-endpoint';
import type { CompositeInput } from '../external-map-task';
import { ExternalMaps, isExternalMap, type ExternalTileRequest } from '../external-maps';
import { ExternalWmsInfo } from '../external-wms-info';
import { PublishedLayers, type Publication } from '../published-layers';
import { TileCache } from '../tile-cache';
import { drawLegend } from './legend-draw';
import type { LegendStackInput } from './metalayer-task';
import { capabilitiesXml, type CapabilitiesLayer } from './wms-capabilities';
import { crsBoxes } from './wms-area';
import { ServicesServices } from '../services-services';
import type { MapImage, MapView, WmsEndpoint } from './wms-endpoint';
import { layerName, mergeFeatureInfo, type InfoPart } from './feature-info-merge';
import { StyleImages } from './style-images';

type Box = [number, number, number, number];

const COMPOSITE_TASK = { module: new URL('../external-map-task.ts', import.meta.url).href, name: 'compositeImages' };
const STACK_TASK = { module: new URL('./metalayer-task.ts', import.meta.url).href, name: 'stackLegends' };

/** The style's name (the endpoint's STYLE_NAME; repeated here so this module needs the endpoint's type only). */
const STYLE_NAME = 'default';
/** Pixels around a tile whose features are drawn too (as the WMTS's own tiles). */
const TILE_BUFFER = 64;
const PNG: MapImage = { format: 'image/png', transparent: true, bg: '#ffffff' };

/** The layers of a stack in drawing order, bottom first: a metalayer's members from its last to its first, nested ones in place. */
export function drawOrder(node: Publication): Publication[] {
  return node.members ? [...node.members].reverse().flatMap(drawOrder) : [node];
}

/** The layer of the stack called `name` (the metalayer also by its id or the name in the address), or undefined. */
export function findLayer(root: Publication, name: string, requested: string): Publication | undefined {
  if ([root.layer.slug, String(root.layer.id), requested].includes(name)) return root;
  const walk = (node: Publication): Publication | undefined => {
    for (const m of node.members ?? []) {
      if (m.layer.slug === name || String(m.layer.id) === name) return m;
      const inner = walk(m);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(root);
}

/** A composite tile drawn without a member whose remote failed: served, never cached. */
class PartialTile extends Error {
  constructor(readonly bytes: Buffer) {
    super('a member of the metalayer failed');
  }
}

/** True when a layer of the stack is an external_map, whose remote may change at any time (nothing is kept). */
const hasRemote = (node: Publication) => drawOrder(node).some((l) => l.layer.type === 'external_map');

/**
 * Metalayers in the WMS and WMTS (decision 0084): a metalayer is a named group whose children are
 * its members (those the caller may read, in the stack's order, the first on top). GetMap draws the
 * members bottom to top into one image, each with its own style and scale ranges (external maps
 * through the proxy path), GetFeatureInfo asks every member, GetLegendGraphic stacks the members'
 * legends, and every member can also be asked for by its own name at the metalayer's address.
 * The publication holds the moments of the metalayer's piles and of every member's, pinned when
 * the request started.
 */
@injectable()
export class MetalayerWms {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(ExternalMaps) protected readonly external!: ExternalMaps;
  @inject(ExternalWmsInfo) protected readonly remote!: ExternalWmsInfo;
  @inject(WorkerPool) protected readonly pool!: WorkerPool;
  @inject(StyleImages) protected readonly styleImages!: StyleImages;
  @inject(TileCache) protected readonly cache!: TileCache;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  @inject(Logger) protected readonly log!: Logger;

  /** Answers a WMS request on a metalayer's address (errors are thrown for the endpoint's exception report). */
  async answer(
    wms: WmsEndpoint,
    ctx: WerkbankContext,
    p: Map<string, string>,
    version: WmsVersion,
    request: WmsRequest,
    publication: Publication,
  ): Promise<void> {
    if (request === 'GetCapabilities') return this.capabilities(wms, ctx, p, version, publication);
    if (request === 'GetLegendGraphic') return this.legend(wms, ctx, p, publication);
    const layers = this.named(p, request === 'GetMap' ? 'layers' : 'query_layers', publication, ctx.params.name);
    if (request === 'GetFeatureInfo') this.named(p, 'layers', publication, ctx.params.name);
    wms.checkStyles(p);
    const view = wms.view(p, version);
    if (request === 'GetFeatureInfo') return this.featureInfo(wms, ctx, p, version, publication, layers, view);
    const image: MapImage = { format: imageFormat(p.get('format')), transparent: transparent(p), bg: bgcolor(p) };
    const window = await wms.window(view.crs, view.bbox);
    const leaves = layers.flatMap(drawOrder);
    if (leaves.some((l) => l.layer.type === 'external_map')) ctx.set('Cache-Control', 'no-store');
    else if (wms.etag(ctx, publication, p)) return;
    const preview = !!p.get('moment');
    const failed: string[] = [];
    const images = await Promise.all(
      leaves.map(async (leaf) => {
        if (isExternalMap(leaf.layer)) {
          const request = { ...view, format: 'image/png' as const, transparent: true, background: image.bg, window };
          return this.remoteImage(
            leaf,
            failed,
            async () => (await this.external.getMap(leaf, request, { cache: !preview })).bytes,
          );
        }
        return leaf.sources.length ? await wms.render(leaf, view, PNG, window) : null;
      }),
    );
    // A map without a member whose remote failed is drawn, but not kept by anyone.
    if (failed.length) ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Type', image.format);
    ctx.body = await this.compose(images, view.width, view.height, image);
  }

  /**
   * A remote member's image, or null when its remote service fails (answers an error, cannot be
   * reached, times out): the others are drawn without it rather than the whole map failing, as a
   * portal's map should stay usable when one remote source is down. The member's name goes to
   * `failed` and to the log; the caller keeps the composite nowhere.
   */
  private async remoteImage(leaf: Publication, failed: string[], image: () => Promise<Buffer>): Promise<Buffer | null> {
    try {
      return await image();
    } catch (e) {
      if (!(e instanceof ApiError) || e.status < 500) throw e;
      failed.push(leaf.layer.name);
      this.log.log(`Metalayer member ${leaf.layer.name}: its remote map service failed (${e.code}); drawn without it`);
      return null;
    }
  }

  /** The layers a list parameter names (LAYERS, QUERY_LAYERS): the metalayer or any layer of its stack. */
  private named(p: Map<string, string>, param: string, publication: Publication, requested: string): Publication[] {
    return required(p, param)
      .split(',')
      .map((raw) => {
        const found = findLayer(publication, raw.trim(), requested);
        if (!found) throw new WmsProblem('LayerNotDefined', 'layer', { layer: raw.slice(0, 80) }, param);
        return found;
      });
  }

  /** Images drawn bottom first into one of the asked format (a single transparent PNG passes unchanged). */
  private async compose(images: Array<Buffer | null>, width: number, height: number, image: MapImage): Promise<Buffer> {
    const drawn = images.filter((i): i is Buffer => !!i && i.length > 0);
    if (drawn.length === 1 && image.format === 'image/png' && image.transparent) return drawn[0];
    const input: CompositeInput = {
      width,
      height,
      format: image.format,
      transparent: image.transparent,
      background: image.bg,
      images: drawn.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)),
    };
    const out = await this.pool.run<CompositeInput, Uint8Array>(COMPOSITE_TASK, input);
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }

  /**
   * A WMTS tile of a metalayer: the members' tiles of the same box stacked (feature layers drawn by
   * the WMS renderer, external maps through the proxy path), kept in the tile cache under the
   * metalayer's publication unless a member is an external_map.
   */
  async answerTile(
    wms: WmsEndpoint,
    ctx: WerkbankContext,
    publication: Publication,
    tile: ExternalTileRequest,
    options: { preview: boolean; etag: string },
  ): Promise<void> {
    const remote = hasRemote(publication);
    if (remote) ctx.set('Cache-Control', 'no-store');
    else if (conditional(ctx, publication, options.etag)) return;
    const draw = async (): Promise<Buffer> => {
      const view: MapView = { crs: tile.crs, bbox: tile.bbox, width: tile.size, height: tile.size };
      const grow = ((tile.bbox[2] - tile.bbox[0]) / tile.size) * TILE_BUFFER;
      const [x0, y0, x1, y1] = tile.bbox;
      let window: Box | null;
      try {
        window = await wms.window(tile.crs, [x0 - grow, y0 - grow, x1 + grow, y1 + grow]);
      } catch (e) {
        // A tile the CRS cannot reach into degrees has no features.
        if (!(e instanceof WmsProblem)) throw e;
        window = null;
      }
      const images = await Promise.all(
        drawOrder(publication).map(async (leaf) => {
          if (isExternalMap(leaf.layer))
            return this.remoteImage(
              leaf,
              failed,
              async () => (await this.external.tile(leaf, tile, { cache: !options.preview })).bytes,
            );
          return leaf.sources.length ? await wms.render(leaf, view, PNG, window) : null;
        }),
      );
      const composite = await this.compose(images, tile.size, tile.size, PNG);
      // A tile without a failed member is served but not cached: the next request asks the remote again.
      if (failed.length) throw new PartialTile(composite);
      return composite;
    };
    const failed: string[] = [];
    let bytes: Buffer;
    let cached = false;
    try {
      if (remote) bytes = await draw();
      else {
        const out = await this.cache.tile(publication, tile, draw, !options.preview);
        bytes = out.bytes ?? Buffer.alloc(0);
        cached = out.cached;
      }
    } catch (e) {
      if (!(e instanceof PartialTile)) throw e;
      bytes = e.bytes;
      ctx.set('Cache-Control', 'no-store');
    }
    ctx.set('X-Tile-Cache', cached ? 'hit' : 'miss');
    ctx.set('Content-Type', 'image/png');
    ctx.body = bytes;
  }

  /** The union of the members' extents (each its bbox, else its features'); the world when there is none. */
  async extent(wms: WmsEndpoint, publication: Publication): Promise<Box> {
    let box: Box | null = null;
    for (const m of publication.members ?? []) {
      const e = (m.layer.bbox as Box | null) ?? (await wms.extent(m));
      if (isWorld(e) && !m.members && isExternalMap(m.layer)) continue;
      box = box ? [Math.min(box[0], e[0]), Math.min(box[1], e[1]), Math.max(box[2], e[2]), Math.max(box[3], e[3])] : e;
    }
    return box ?? [-180, -90, 180, 90];
  }

  private async capabilities(
    wms: WmsEndpoint,
    ctx: WerkbankContext,
    p: Map<string, string>,
    version: WmsVersion,
    publication: Publication,
  ): Promise<void> {
    const keep = [...p].filter(([k]) => k === 'apikey' || k === 'moment');
    const base = `${ctx.protocol}://${ctx.host}${ctx.path}?${keep.map(([k, v]) => `${k}=${encodeURIComponent(v)}&`).join('')}`;
    const remote = hasRemote(publication);
    if (!remote && wms.etag(ctx, publication, p, base)) return;
    const describe = async (node: Publication): Promise<CapabilitiesLayer> => {
      const children = node.members ? await Promise.all(node.members.map(describe)) : undefined;
      let extent: Box;
      if (node.layer.bbox) extent = node.layer.bbox as Box;
      else if (children) {
        const boxes = children.filter((c) => !isWorld(c.extent)).map((c) => c.extent);
        extent = boxes.length
          ? [
              Math.min(...boxes.map((b) => b[0])),
              Math.min(...boxes.map((b) => b[1])),
              Math.max(...boxes.map((b) => b[2])),
              Math.max(...boxes.map((b) => b[3])),
            ]
          : [-180, -90, 180, 90];
      } else extent = await wms.extent(node);
      const external = isExternalMap(node.layer);
      const queryable = children
        ? children.some((c) => c.queryable !== false)
        : external
          ? await this.remote.queryable(node)
          : true;
      const rows = drawOrder(node).reduce((n, l) => n + 1 + Math.max(1, l.style.style.rules.length), 0);
      const legend = children
        ? { width: 200, height: rows * 20 }
        : external
          ? (await this.remote.hasLegend(node))
            ? { width: 200, height: 20 }
            : null
          : undefined;
      return {
        name: layerName(node),
        title: node.layer.name,
        abstract: node.layer.description_title || '',
        styleName: STYLE_NAME,
        styleTitle: node.style.name || STYLE_NAME,
        style: node.style.style,
        extent,
        boxes: await crsBoxes(this.services.reprojection, extent, version),
        queryable,
        legend,
        children,
      };
    };
    const root = await describe(publication);
    ctx.set('Content-Type', version === '1.3.0' ? 'text/xml; charset=utf-8' : 'application/vnd.ogc.wms_xml; charset=utf-8');
    ctx.body = capabilitiesXml({ ...root, version, url: base, maxSize: wms.maxSize });
  }

  /**
   * GetLegendGraphic of a layer of the stack: the metalayer (or a member that is one) gives its
   * members' legends one below the other, each under its title; a single member its own legend.
   */
  private async legend(wms: WmsEndpoint, ctx: WerkbankContext, p: Map<string, string>, publication: Publication): Promise<void> {
    const name = required(p, 'layer').trim();
    const node = findLayer(publication, name, ctx.params.name);
    if (!node) throw new WmsProblem('LayerNotDefined', 'layer', { layer: name.slice(0, 80) }, 'layer');
    const style = (p.get('style') ?? '').trim();
    if (style && style.toLowerCase() !== STYLE_NAME)
      throw new WmsProblem('StyleNotDefined', 'style', { style: style.slice(0, 80) }, 'style');
    const format = imageFormat(p.get('format'), 'image/png');
    const image: MapImage = { format, transparent: transparent(p), bg: bgcolor(p) };
    const remote = hasRemote(node);
    if (remote) ctx.set('Cache-Control', 'no-store');
    else if (wms.etag(ctx, publication, p)) return;
    const preview = !!p.get('moment');
    if (!node.members) {
      const width = p.get('width') ? wmsSize(p, 'width', wms.maxSize) : undefined;
      const height = p.get('height') ? wmsSize(p, 'height', wms.maxSize) : undefined;
      const one = await this.legendOf(node, image, preview, width, height);
      if (!one) throw new WmsProblem('LayerNotDefined', 'layer', { layer: name.slice(0, 80) }, 'layer');
      ctx.set('Content-Type', one.type);
      ctx.body = one.bytes;
      return;
    }
    const leaves = drawOrder(node).reverse();
    const entries = await Promise.all(
      leaves.map(async (leaf) => {
        const legend = await this.legendOf(leaf, { ...image, format: 'image/png', transparent: true }, preview);
        return { title: leaf.layer.name, image: legend ? new Uint8Array(legend.bytes) : null };
      }),
    );
    const input: LegendStackInput = { entries, format, transparent: image.transparent, background: image.bg, minWidth: 200 };
    const out = await this.pool.run<LegendStackInput, Uint8Array>(STACK_TASK, input);
    ctx.set('Content-Type', format);
    ctx.body = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }

  /** One layer's legend: its style's rules drawn here, or an external map's remote legend (null: it has none). */
  private async legendOf(
    leaf: Publication,
    image: MapImage,
    preview: boolean,
    width?: number,
    height?: number,
  ): Promise<{ bytes: Buffer; type: string } | null> {
    if (isExternalMap(leaf.layer)) {
      const remote = await this.remote.legends(leaf, { cache: !preview });
      if (remote.length <= 1) return remote[0] ?? null;
      // Several remote layers: their legends one below the other, each under its remote name.
      const entries = remote.map((r) => ({ title: r.title, image: new Uint8Array(r.bytes) }));
      const input: LegendStackInput = { entries, format: 'image/png', transparent: true, background: image.bg, minWidth: 1 };
      const out = await this.pool.run<LegendStackInput, Uint8Array>(STACK_TASK, input);
      return { bytes: Buffer.from(out.buffer, out.byteOffset, out.byteLength), type: 'image/png' };
    }
    const out = await drawLegend(this.pool, this.published, this.styleImages, leaf, {
      width: width ?? 200,
      height: height ?? Math.max(1, leaf.style.style.rules.length) * 20,
      format: image.format as ImageFormatName,
      transparent: image.transparent,
      background: image.bg,
    });
    return { bytes: Buffer.from(out.buffer, out.byteOffset, out.byteLength), type: image.format };
  }

  /**
   * GetFeatureInfo of an external_map or mapproxy layer at its own address: cascaded to its remote
   * WMS sources that call their layers queryable. One remote answer of the asked format passes
   * unchanged, several are merged; an HTML answer may not run scripts or load anything (CSP).
   */
  async answerExternalInfo(
    ctx: WerkbankContext,
    publication: Publication,
    view: MapView,
    [i, j]: [number, number],
    count: number,
    format: InfoFormat,
  ): Promise<void> {
    const answers = await this.remote.featureInfo(publication, { ...view, i, j, count, format });
    ctx.set('Cache-Control', 'no-store');
    if (format === 'text/html') ctx.set('Content-Security-Policy', HTML_CSP);
    if (answers.length === 1 && answers[0].type === format) {
      ctx.set('Content-Type', `${format}; charset=utf-8`);
      ctx.body = answers[0].body;
      return;
    }
    const merged = mergeFeatureInfo(format, [{ leaf: publication, remote: answers }], String(ctx.state.lang ?? 'en'));
    ctx.set('Content-Type', merged.type);
    ctx.body = merged.body;
  }

  /** What the capabilities say of an external_map or mapproxy layer: queryable and legend as its remote's capabilities tell. */
  async externalCapabilities(
    publication: Publication,
  ): Promise<{ queryable: boolean; legend: { width: number; height: number } | null }> {
    const legend = (await this.remote.hasLegend(publication)) ? { width: 200, height: 20 } : null;
    return { queryable: await this.remote.queryable(publication), legend };
  }

  /** GetLegendGraphic of an external_map or mapproxy layer at its own address: the remote legend (LayerNotDefined when there is none). */
  async answerExternalLegend(ctx: WerkbankContext, p: Map<string, string>, publication: Publication): Promise<void> {
    const image: MapImage = { format: 'image/png', transparent: transparent(p), bg: bgcolor(p) };
    const legend = await this.legendOf(publication, image, !!p.get('moment'));
    if (!legend) throw new WmsProblem('LayerNotDefined', 'layer', { layer: layerName(publication) }, 'layer');
    if (publication.layer.type !== 'mapproxy') ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Type', legend.type);
    ctx.body = legend.bytes;
  }

  /** GetFeatureInfo over the layers QUERY_LAYERS names: each member asked, top first, up to FEATURE_COUNT per layer. */
  private async featureInfo(
    wms: WmsEndpoint,
    ctx: WerkbankContext,
    p: Map<string, string>,
    version: WmsVersion,
    publication: Publication,
    layers: Publication[],
    view: MapView,
  ): Promise<void> {
    const format = infoFormat(p.get('info_format'));
    const [iName, jName] = version === '1.3.0' ? ['i', 'j'] : ['x', 'y'];
    const pixel = (name: string, max: number) => {
      const raw = required(p, name);
      if (!/^\d{1,9}$/.test(raw) || Number(raw) >= max)
        throw new WmsProblem('InvalidPoint', 'point', { name: name.toUpperCase() }, name);
      return Number(raw);
    };
    const i = pixel(iName, view.width);
    const j = pixel(jName, view.height);
    const count = featureCount(p);
    // Top first: the reverse of the drawing order.
    const leaves = layers.flatMap(drawOrder).reverse();
    if (leaves.some((l) => isExternalMap(l.layer))) ctx.set('Cache-Control', 'no-store');
    else if (wms.etag(ctx, publication, p, ctx.state.lang)) return;
    const parts: InfoPart[] = [];
    for (const leaf of leaves) {
      if (isExternalMap(leaf.layer)) {
        const answers = await this.remote.featureInfo(leaf, { ...view, i, j, count, format });
        parts.push({ leaf, remote: answers });
      } else if (leaf.sources.length) parts.push({ leaf, features: await wms.featuresAt(leaf, view, [i + 0.5, j + 0.5], count) });
    }
    const merged = mergeFeatureInfo(format, parts, String(ctx.state.lang ?? 'en'));
    if (format === 'text/html') ctx.set('Content-Security-Policy', HTML_CSP);
    ctx.set('Content-Type', merged.type);
    ctx.body = merged.body;
  }
}

/** Feature info pages (which may hold a remote's HTML) run no scripts and load nothing. */
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const isWorld = (b: Box) => b[0] <= -180 && b[1] <= -90 && b[2] >= 180 && b[3] >= 90;
