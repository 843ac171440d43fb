import {
  ApiError,
  inject,
  injectable,
  type RegistrySink,
  type ServiceEndpointContribution,
  type ServiceEndpointDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { featureCount, kvp, WmsProblem } from '../../common/wms-params';
import { TILE_MATRIX_SETS, tileBox, tileMatrixSet, type TileMatrixSet } from '../../common/tile-matrix-sets';
import { conditional } from '../geojson-endpoint';
import { ExternalMaps, isExternalMap } from '../external-maps';
import { PublishedLayers, type Publication } from '../published-layers';
import { PublicationMemo } from '../publication-memo';
import { TileCache } from '../tile-cache';
import { boxIn } from '../wms/wms-area';
import { STYLE_NAME, WmsEndpoint, type MapView } from '../wms/wms-endpoint';
import { MetalayerWms } from '../wms/wms-metalayer';
import { ServicesServices } from '../services-services';
import { featureInfoHtml } from '../wms/wms-feature-info';
import { owsExceptionXml, wmtsCapabilitiesXml } from './wmts-capabilities';
import {
  featureInfoGml32,
  wmtsInfoFormat,
  wmtsInfoFormatOfExtension,
  WMTS_INFO_FORMATS,
  type WmtsInfoFormat,
} from './wmts-feature-info';

type Box = [number, number, number, number];

/** Pixels around a tile whose features are drawn too, so that marks and labels across its edge are not cut. */
const TILE_BUFFER = 64;

/** A refused WMTS request (the class of the WMS's problems; its key is one of `services:wmts.errors`). */
const problem = (code: string, key: string, params: Record<string, unknown>, locator?: string, status = 400) =>
  new WmsProblem(code, key, params, locator, status);

/** A tile asked for: its set, matrix, row and column (checked against the matrix). */
interface TileRequest {
  set: TileMatrixSet;
  matrix: number;
  row: number;
  col: number;
}

/**
 * WMTS 1.0.0 (issue 17, decision 0083 "WMTS") at `/services/wmts/{name}` (KVP: GetCapabilities,
 * GetTile, GetFeatureInfo) and RESTful (`…/1.0.0/WMTSCapabilities.xml`,
 * `…/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png`, `…/{TileCol}/{J}/{I}.{json|html|gml}`):
 * PNG tiles of WebMercatorQuad and DE_EPSG_25832_ADV drawn by the WMS renderer and kept in the tile
 * cache per publication; feature info found as the WMS finds it. Problems are OWS ExceptionReports
 * in the caller's language.
 */
@injectable()
export class WmtsEndpoint implements ServiceEndpointContribution {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(WmsEndpoint) protected readonly wms!: WmsEndpoint;
  @inject(TileCache) protected readonly cache!: TileCache;
  @inject(ExternalMaps) protected readonly external!: ExternalMaps;
  @inject(PublicationMemo) protected readonly memo!: PublicationMemo;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  @inject(MetalayerWms) protected readonly metalayer!: MetalayerWms;

  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void {
    registry.add({
      id: 'services.wmts',
      prefix: '/services/wmts/',
      mount: (router) => {
        router.get('/services/wmts/:name', (ctx) => this.guard(ctx, () => this.kvp(ctx)));
        router.get('/services/wmts/:name/', (ctx) => this.guard(ctx, () => this.kvp(ctx)));
        router.get('/services/wmts/:name/1.0.0/WMTSCapabilities.xml', (ctx) =>
          this.guard(ctx, async () => this.capabilities(ctx, await this.open(ctx))),
        );
        router.get('/services/wmts/:name/:set/:matrix/:row/:col', (ctx) => this.guard(ctx, () => this.rest(ctx)));
        router.get('/services/wmts/:name/:set/:matrix/:row/:col/:j/:i', (ctx) => this.guard(ctx, () => this.restInfo(ctx)));
      },
    });
  }

  /** Runs a request, answering its problems (and unknown layers, refused access) as OWS exception reports. */
  private async guard(ctx: WerkbankContext, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (e) {
      const t = (key: string, params: Record<string, unknown>) => {
        const [ns, k] = key.includes(':') ? key.split(':', 2) : ['server', key];
        return String(ctx.state.t(k, { ns, ...params }));
      };
      let status: number;
      let code: string;
      let locator: string | undefined;
      let text: string;
      if (e instanceof WmsProblem) {
        ({ status, code, locator } = e);
        text = t(`services:wmts.errors.${e.key}`, e.params);
      } else if (e instanceof ApiError) {
        status = e.status;
        code = e.status === 404 ? 'InvalidParameterValue' : e.status === 400 ? 'InvalidParameterValue' : 'NoApplicableCode';
        locator = e.status === 404 ? 'layer' : e.field;
        text = t(e.key, e.params);
      } else throw e;
      ctx.status = status;
      ctx.remove('ETag');
      ctx.remove('Cache-Control');
      ctx.set('Content-Type', 'application/xml; charset=utf-8');
      ctx.body = owsExceptionXml(code, locator, text, String(ctx.state.lang ?? 'en'));
    }
  }

  private open(ctx: WerkbankContext): Promise<Publication> {
    return this.published.open(ctx, ctx.params.name, queryValue(ctx, 'moment'));
  }

  /**
   * The publication a tile is drawn from: tiles come in dozens per map view, so the caller's
   * resolution is kept briefly as for the vector tiles (PublicationMemo: forgotten on every
   * approval); a preview is resolved every time.
   */
  private openForTile(ctx: WerkbankContext): Promise<Publication> {
    return queryValue(ctx, 'moment') ? this.open(ctx) : this.memo.open(ctx, ctx.params.name);
  }

  private async kvp(ctx: WerkbankContext): Promise<void> {
    const p = kvp(ctx.query as Record<string, string | string[] | undefined>);
    const service = p.get('service');
    const request = p.get('request');
    if (service === undefined || service.trim() === '')
      throw problem('MissingParameterValue', 'missing', { name: 'SERVICE' }, 'service');
    if (service.trim().toUpperCase() !== 'WMTS')
      throw problem('InvalidParameterValue', 'service', { value: service.slice(0, 40) }, 'service');
    if (request === undefined || request.trim() === '')
      throw problem('MissingParameterValue', 'missing', { name: 'REQUEST' }, 'request');
    const r = request.trim().toLowerCase();
    if (r === 'getcapabilities') return this.capabilities(ctx, await this.open(ctx));
    if (r !== 'gettile' && r !== 'getfeatureinfo')
      throw problem('InvalidParameterValue', 'request', { value: request.slice(0, 40) }, 'request');
    const version = p.get('version');
    if (version !== undefined && version.trim() !== '1.0.0')
      throw problem('InvalidParameterValue', 'version', { value: version.slice(0, 20) }, 'version');
    const required = (name: string) => {
      const v = p.get(name);
      if (v === undefined || v.trim() === '')
        throw problem('MissingParameterValue', 'missing', { name: name.toUpperCase() }, name);
      return v.trim();
    };
    const layer = required('layer');
    const style = (p.get('style') ?? '').trim();
    const format = (p.get('format') ?? 'image/png').trim().toLowerCase();
    const tile = this.tileRequest(required('tilematrixset'), required('tilematrix'), required('tilerow'), required('tilecol'));
    if (style && style.toLowerCase() !== STYLE_NAME)
      throw problem('InvalidParameterValue', 'style', { style: style.slice(0, 80) }, 'style');
    if (format !== 'image/png') throw problem('InvalidParameterValue', 'format', { format: format.slice(0, 40) }, 'format');
    // GetFeatureInfo: the GetTile parameters and the pixel in the tile (WMTS 1.0.0 §7.3.1).
    const info =
      r === 'getfeatureinfo'
        ? {
            format: wmtsInfoFormat(required('infoformat')),
            at: this.pixel(tile, required('i'), required('j')),
            count: featureCount(p),
          }
        : undefined;
    const publication = info ? await this.open(ctx) : await this.openForTile(ctx);
    if (![publication.layer.slug, String(publication.layer.id), ctx.params.name].includes(layer))
      throw problem('InvalidParameterValue', 'layer', { layer: layer.slice(0, 80) }, 'layer');
    if (info) return this.featureInfo(ctx, publication, tile, info.at, info.format, info.count);
    await this.tile(ctx, publication, tile);
  }

  private async rest(ctx: WerkbankContext): Promise<void> {
    const { set, matrix, row } = ctx.params;
    const m = /^(.*)\.([A-Za-z]+)$/.exec(ctx.params.col);
    if (!m || m[2].toLowerCase() !== 'png')
      throw problem('InvalidParameterValue', 'format', { format: (m?.[2] ?? '').slice(0, 20) }, 'format');
    const tile = this.tileRequest(set, matrix, row, m[1]);
    await this.tile(ctx, await this.openForTile(ctx), tile);
  }

  /** RESTful GetFeatureInfo (WMTS 1.0.0 §10.2.2): `…/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}/{J}/{I}.{ext}`. */
  private async restInfo(ctx: WerkbankContext): Promise<void> {
    const { set, matrix, row, col, j } = ctx.params;
    const m = /^(.*)\.([A-Za-z]+)$/.exec(ctx.params.i);
    const format = wmtsInfoFormatOfExtension(m?.[2] ?? '');
    const tile = this.tileRequest(set, matrix, row, col);
    const at = this.pixel(tile, m![1], j);
    const count = featureCount(kvp(ctx.query as Record<string, string | string[] | undefined>));
    await this.featureInfo(ctx, await this.open(ctx), tile, at, format, count);
  }

  /**
   * The pixel I (column), J (row) of a tile, as pixel units from its top left corner with the
   * pixel's centre (+0.5); InvalidParameterValue when not a whole number, PointIJOutOfRange (WMTS
   * 1.0.0 Table 29) beyond the tile.
   */
  private pixel({ set }: TileRequest, iText: string, jText: string): [number, number] {
    const index = (text: string, name: string) => {
      if (!/^\d{1,10}$/.test(text)) throw problem('InvalidParameterValue', 'index', { name: name.toUpperCase() }, name);
      const v = Number(text);
      if (v >= set.tileSize)
        throw problem('PointIJOutOfRange', 'point', { name: name.toUpperCase(), max: set.tileSize - 1 }, name);
      return v + 0.5;
    };
    return [index(iText, 'i'), index(jText, 'j')];
  }

  /**
   * The features drawn at a pixel of a tile, found as WMS GetFeatureInfo finds them on a map of the
   * tile's box (points within their symbol, lines within 3 px, polygons containing it), at most
   * `count`: GeoJSON in EPSG:4326, HTML with the layer's selection fields, or GML 3.2 as the WFS
   * writes it. The ETag covers the publication and the request's answer.
   */
  private async featureInfo(
    ctx: WerkbankContext,
    publication: Publication,
    { set, matrix, row, col }: TileRequest,
    at: [number, number],
    format: WmtsInfoFormat,
    count: number,
  ): Promise<void> {
    const m = set.matrices[matrix];
    const view: MapView = { crs: set.crs, bbox: tileBox(set, m, row, col), width: set.tileSize, height: set.tileSize };
    let window: Box | null;
    try {
      window = await this.wms.featureWindow(view, at);
    } catch (e) {
      // A pixel the CRS cannot reach into degrees (beyond its area) has no features.
      if (!(e instanceof WmsProblem)) throw e;
      window = null;
    }
    const lang = String(ctx.state.lang ?? 'en');
    const variant = `wmts.info.${set.id}.${m.id}.${row}.${col}.${at[0] - 0.5}.${at[1] - 0.5}.${count}.${format.extension}.${lang}`;
    if (conditional(ctx, publication, variant)) return;
    const found = window ? await this.wms.featuresAt(publication, view, at, count, window) : [];
    if (format.extension === 'json') {
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = { type: 'FeatureCollection', features: found };
    } else if (format.extension === 'html') {
      ctx.set('Content-Type', 'text/html; charset=utf-8');
      ctx.body = featureInfoHtml(publication.layer, found, lang);
    } else {
      const wfsUrl = `${ctx.protocol}://${ctx.host}/services/wfs/${encodeURIComponent(ctx.params.name)}`;
      ctx.set('Content-Type', `${format.mime}; charset=utf-8`);
      ctx.body = featureInfoGml32(publication.layer, wfsUrl, found);
    }
  }

  /** The tile asked for, or InvalidParameterValue for an unknown set or matrix, TileOutOfRange beyond the matrix. */
  private tileRequest(setId: string, matrixId: string, rowText: string, colText: string): TileRequest {
    const set = tileMatrixSet(setId);
    if (!set) throw problem('InvalidParameterValue', 'tilematrixset', { value: setId.slice(0, 60) }, 'tilematrixset');
    const matrix = set.matrices.findIndex((m) => m.id === matrixId);
    if (matrix < 0) throw problem('InvalidParameterValue', 'tilematrix', { value: matrixId.slice(0, 20) }, 'tilematrix');
    const index = (text: string, name: string, size: number) => {
      if (!/^\d{1,10}$/.test(text)) throw problem('InvalidParameterValue', 'index', { name: name.toUpperCase() }, name);
      const v = Number(text);
      if (v >= size) throw problem('TileOutOfRange', 'out_of_range', { name: name.toUpperCase(), max: size - 1 }, name);
      return v;
    };
    const { matrixWidth, matrixHeight } = set.matrices[matrix];
    return { set, matrix, row: index(rowText, 'tilerow', matrixHeight), col: index(colText, 'tilecol', matrixWidth) };
  }

  /** A tile as PNG: from the cache, or drawn by the WMS renderer (and cached); 304 when the client holds it. */
  private async tile(ctx: WerkbankContext, publication: Publication, { set, matrix, row, col }: TileRequest): Promise<void> {
    const m = set.matrices[matrix];
    const etag = () => conditional(ctx, publication, `wmts.${set.id}.${m.id}.${row}.${col}`);
    const preview = !!queryValue(ctx, 'moment');
    // external_map, mapproxy: the remote's tile (decision 0083, "External maps").
    if (isExternalMap(publication.layer)) {
      const at = { tileset: `wmts/${set.id}/png`, z: matrix, y: row, x: col, crs: set.crs, size: set.tileSize };
      const tile = { ...at, bbox: tileBox(set, m, row, col), mercator: set.id === 'WebMercatorQuad' };
      return this.external.answerTile(ctx, publication, tile, { preview, conditional: etag });
    }
    // A metalayer: its members' tiles stacked (decision 0084).
    if (publication.members) {
      const at = { tileset: `wmts/${set.id}/png`, z: matrix, y: row, x: col, crs: set.crs, size: set.tileSize };
      const tile = { ...at, bbox: tileBox(set, m, row, col), mercator: set.id === 'WebMercatorQuad' };
      return this.metalayer.answerTile(this.wms, ctx, publication, tile, {
        preview,
        etag: `wmts.${set.id}.${m.id}.${row}.${col}`,
      });
    }
    if (etag()) return;
    const { bytes, cached } = await this.cache.tile(
      publication,
      { tileset: `wmts/${set.id}/png`, z: matrix, y: row, x: col },
      async () => this.draw(publication, set, tileBox(set, m, row, col)),
      !preview,
    );
    ctx.set('X-Tile-Cache', cached ? 'hit' : 'miss');
    ctx.set('Content-Type', 'image/png');
    ctx.body = bytes;
  }

  /** Draws a tile's box of the set's CRS at 256 × 256 px, transparent where no feature is. */
  private async draw(publication: Publication, set: TileMatrixSet, bbox: Box): Promise<Buffer> {
    const view: MapView = { crs: set.crs, bbox, width: set.tileSize, height: set.tileSize };
    const grow = ((bbox[2] - bbox[0]) / set.tileSize) * TILE_BUFFER;
    let window: Box | null;
    try {
      window = await this.wms.window(set.crs, [bbox[0] - grow, bbox[1] - grow, bbox[2] + grow, bbox[3] + grow]);
    } catch (e) {
      // A tile the CRS cannot reach into degrees (beyond its area) has no features.
      if (!(e instanceof WmsProblem)) throw e;
      window = null;
    }
    return this.wms.render(publication, view, { format: 'image/png', transparent: true, bg: '#ffffff' }, window);
  }

  private async capabilities(ctx: WerkbankContext, publication: Publication): Promise<void> {
    const { layer, style } = publication;
    if (conditional(ctx, publication, 'wmts.capabilities')) return;
    const keep = Object.entries(ctx.query)
      .filter(([k]) => ['apikey', 'moment'].includes(k.toLowerCase()))
      .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as [string, string]);
    const query = keep.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const origin = `${ctx.protocol}://${ctx.host}`;
    const name = encodeURIComponent(ctx.params.name);
    const extent = (layer.bbox as Box | null) ?? (await this.wms.extent(publication));
    const sets: Array<{ set: TileMatrixSet; box: Box | null }> = [];
    for (const set of TILE_MATRIX_SETS) {
      let box: Box | null = null;
      try {
        box = await this.boxIn(extent, set);
      } catch {
        // Limits unknown: the whole set is linked.
      }
      sets.push({ set, box });
    }
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = wmtsCapabilitiesXml({
      kvpUrl: `${origin}/services/wmts/${name}?${query ? `${query}&` : ''}`,
      restBase: `${origin}/services/wmts/${name}`,
      restQuery: query ? `?${query}` : '',
      name: layer.slug || String(layer.id),
      title: layer.name,
      abstract: layer.description_title || '',
      styleName: STYLE_NAME,
      styleTitle: style.name || STYLE_NAME,
      extent,
      sets,
      infoFormats: WMTS_INFO_FORMATS,
    });
  }

  /** A box in degrees in a set's CRS, clipped to the set (the world's poles do not reach Web Mercator). */
  private async boxIn(extent: Box, set: TileMatrixSet): Promise<Box> {
    const clipped: Box = [extent[0], Math.max(extent[1], -85.05112878), extent[2], Math.min(extent[3], 85.05112878)];
    const b = await boxIn(this.services.reprojection, clipped, set.crs);
    return [
      Math.max(b[0], set.bounds[0]),
      Math.max(b[1], set.bounds[1]),
      Math.min(b[2], set.bounds[2]),
      Math.min(b[3], set.bounds[3]),
    ];
  }
}

function queryValue(ctx: WerkbankContext, name: string): string | undefined {
  for (const [k, v] of Object.entries(ctx.query)) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
}
