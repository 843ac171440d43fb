import { createHash } from 'node:crypto';
import {
  ApiError,
  inject,
  injectable,
  Logger,
  UrlFetcher,
  WorkerPool,
  type UrlFetchResponse,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { wmsImageryOf, wmtsImageryOf, type WmsImagery, type WmtsImagery } from '@werkbank/sdk';
import { NORTH_FIRST } from '../common/wms-params';
import type { CompositeInput } from './external-map-task';
import { PublishedLayers, type Publication } from './published-layers';
import { TileCache, type TileKey } from './tile-cache';

const TASK = { module: new URL('./external-map-task.ts', import.meta.url).href, name: 'compositeImages' };

type Box = [number, number, number, number];
export type ExternalImageFormat = 'image/png' | 'image/jpeg';

/** The layer types whose piles are remote maps (WMS/WMTS datums) that the services fetch and pass on. */
export const EXTERNAL_MAP_TYPES = ['external_map', 'mapproxy'] as const;

/** True for layers whose maps come from remote services (external_map, mapproxy). */
export function isExternalMap(layer: { type: string }): boolean {
  return (EXTERNAL_MAP_TYPES as readonly string[]).includes(layer.type);
}

/** One remote image costs at most this many bytes and this much time (as the map imagery relay, decision 0067). */
export const REMOTE_MAX_BYTES = 16 * 1024 * 1024;
export const REMOTE_TIMEOUT_MS = 30_000;

/** A GetMap as the WMS parsed it: the map's CRS (a WMS_CRS name), its box with x east and y north, size and image. */
export interface ExternalMapRequest {
  crs: string;
  bbox: Box;
  width: number;
  height: number;
  format: ExternalImageFormat;
  transparent: boolean;
  /** #rrggbb */
  background: string;
  /** The box in degrees (west, south, east, north): sources whose bbox misses it are not asked. */
  window?: Box;
}

/**
 * A tile of a tile matrix set: its cache key (`tileset`, e.g. `wmts/WebMercatorQuad/png`, and
 * matrix, row, column), its box in the set's CRS and its size; `mercator` when the set is
 * WebMercatorQuad, whose indices remote WMTS in a web mercator set share.
 */
export interface ExternalTileRequest extends TileKey {
  crs: string;
  bbox: Box;
  size: number;
  mercator: boolean;
}

/** An image as served: its bytes and media type; `cached` when it came from the mapproxy cache. */
export interface ExternalImage {
  bytes: Buffer;
  type: ExternalImageFormat;
  cached: boolean;
}

/** A map source of the publication: a WMS or WMTS datum as imagery, top first. */
export type Source = { kind: 'wms'; imagery: WmsImagery; srs: string[] } | { kind: 'wmts'; imagery: WmtsImagery };

/** Remote tile matrix sets whose indices are WebMercatorQuad's. */
const MERCATOR_SETS = /^(WebMercatorQuad|GoogleMapsCompatible|EPSG:3857|EPSG:900913|google3857|g)$/i;

/**
 * The maps of external_map and mapproxy layers (issue 17, decision 0083): a WMS GetMap or a
 * WebMercatorQuad tile answered by fetching the layer's remote WMS/WMTS sources (the datums of its
 * map piles at the publication's moments) through the server's guarded fetcher (`UrlFetcher`: no
 * private networks unless allowed, limits on bytes and time), several sources stacked bottom-up.
 * The remote address and its credentials never leave the server: every remote problem becomes an
 * ApiError 502/504 `remote_*` (key `services:external.errors.*`) without them, which the calling
 * service turns into its exception format. A mapproxy layer keeps the images in its cache
 * (ExternalMapCache), keyed by the publication's key and the normalized request.
 */
@injectable()
export class ExternalMaps {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(UrlFetcher) protected readonly net!: UrlFetcher;
  @inject(WorkerPool) protected readonly pool!: WorkerPool;
  @inject(TileCache) protected readonly cache!: TileCache;
  @inject(Logger) protected readonly logger!: Logger;

  /**
   * Answers a GetMap of an external_map or mapproxy layer: the hook the WMS calls. `preview` (a
   * draft moment) bypasses the cache; `conditional` sets the publication's ETag and answers 304 when
   * the client holds it (true) — only for a mapproxy, whose images belong to the publication; an
   * external_map's remote may change at any time (no-store). Errors are ApiErrors without the
   * remote's address, for the caller's exception format.
   */
  async answerGetMap(
    ctx: WerkbankContext,
    publication: Publication,
    request: ExternalMapRequest,
    options: { preview?: boolean; conditional?: () => boolean } = {},
  ): Promise<void> {
    if (publication.layer.type === 'mapproxy' && options.conditional?.()) return;
    this.answer(ctx, publication, await this.getMap(publication, request, { cache: !options.preview }));
  }

  /** Answers a tile of an external_map or mapproxy layer: the hook the WMTS calls (options as answerGetMap's). */
  async answerTile(
    ctx: WerkbankContext,
    publication: Publication,
    tile: ExternalTileRequest,
    options: { preview?: boolean; conditional?: () => boolean } = {},
  ): Promise<void> {
    if (publication.layer.type === 'mapproxy' && options.conditional?.()) return;
    const out = await this.tile(publication, tile, { cache: !options.preview });
    ctx.set('X-Tile-Cache', out.cached ? 'hit' : 'miss');
    this.answer(ctx, publication, out);
  }

  private answer(ctx: WerkbankContext, publication: Publication, image: ExternalImage): void {
    if (publication.layer.type !== 'mapproxy') ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Type', image.type);
    ctx.body = image.bytes;
  }

  /**
   * The map of a GetMap from the layer's WMS sources (WMTS sources are not drawn into free boxes).
   * `cache` false (a draft preview) neither reads nor writes the mapproxy cache.
   */
  async getMap(publication: Publication, request: ExternalMapRequest, options: { cache?: boolean } = {}): Promise<ExternalImage> {
    const { crs, bbox, width, height, format, transparent, background } = request;
    // A free box is one "tile" of its own set: the normalized request's hash.
    const tileset = `external/wms/${requestKey([crs, bbox, width, height, format, transparent, background])}`;
    return this.cached(publication, { tileset, z: 0, y: 0, x: 0 }, format, options.cache, async () => {
      const sources = (await this.sources(publication)).filter(
        (s): s is Extract<Source, { kind: 'wms' }> => s.kind === 'wms' && meets(s.imagery.bbox, request.window),
      );
      for (const s of sources)
        if (s.srs.length && !s.srs.some((c) => sameCrs(c, crs)))
          throw new ApiError(400, 'remote_crs', 'services:external.errors.crs', { crs }, 'crs');
      const single = sources.length === 1;
      const images = await Promise.all(
        sources.map((s) =>
          this.image(
            wmsAddress(s.imagery, request, single ? format : 'image/png', single ? transparent : s.imagery.transparent !== false),
            s.imagery.url,
          ),
        ),
      );
      return this.stack(images, request);
    });
  }

  /**
   * A PNG tile from the layer's sources: WMS sources by a GetMap of the tile's box in the set's CRS;
   * in WebMercatorQuad also WMTS sources in a web mercator set, by the same indices.
   */
  async tile(publication: Publication, tile: ExternalTileRequest, options: { cache?: boolean } = {}): Promise<ExternalImage> {
    const { z, x, y } = tile;
    const request: ExternalMapRequest = {
      crs: tile.crs,
      bbox: tile.bbox,
      width: tile.size,
      height: tile.size,
      format: 'image/png',
      transparent: true,
      background: '#ffffff',
      window: tile.mercator ? mercatorWindow(z, x, y) : undefined,
    };
    return this.cached(publication, tile, 'image/png', options.cache, async () => {
      const sources = (await this.sources(publication)).filter(
        (s) =>
          meets(s.imagery.bbox, request.window) &&
          (s.kind === 'wms' || (tile.mercator && MERCATOR_SETS.test(s.imagery.tileMatrixSet))),
      );
      const single = sources.length === 1;
      const images = await Promise.all(
        sources.map((s) =>
          s.kind === 'wms'
            ? this.image(wmsAddress(s.imagery, request, 'image/png', single || s.imagery.transparent !== false), s.imagery.url)
            : this.image(wmtsAddress(s.imagery, z, x, y), s.imagery.url),
        ),
      );
      return this.stack(images, request);
    });
  }

  /**
   * The image from the shared tile cache, else made by `make` — kept there only for a mapproxy
   * layer (and not for a preview): an external_map asks its remote every time.
   */
  async cached(
    publication: Publication,
    key: TileKey,
    type: ExternalImageFormat,
    useCache: boolean | undefined,
    make: () => Promise<Buffer>,
  ): Promise<ExternalImage> {
    if (publication.layer.type !== 'mapproxy') return { bytes: await make(), type, cached: false };
    const { bytes, cached } = await this.cache.tile(publication, key, make, useCache !== false);
    return { bytes: bytes ?? Buffer.alloc(0), type, cached };
  }

  /** The publication's map sources, top first: datums whose address and layers can be read. */
  async sources(publication: Publication): Promise<Source[]> {
    const out: Source[] = [];
    for await (const { source, fields } of this.published.mapDatums(publication)) {
      if (source.kind === 'wms') {
        const imagery = wmsImageryOf(fields);
        const srs = Array.isArray(fields.srs)
          ? fields.srs.filter((c): c is string => typeof c === 'string' && c.trim() !== '')
          : [];
        if (imagery) out.push({ kind: 'wms', imagery, srs });
      } else {
        const imagery = wmtsImageryOf(fields);
        if (imagery) out.push({ kind: 'wmts', imagery });
      }
    }
    return out;
  }

  /** The fetched images stacked bottom-up, in the asked format: one image of that format passes unchanged. */
  private async stack(images: Array<{ bytes: Buffer; type: string }>, request: ExternalMapRequest): Promise<Buffer> {
    if (images.length === 1 && images[0].type === request.format) return images[0].bytes;
    const input: CompositeInput = {
      width: request.width,
      height: request.height,
      format: request.format,
      transparent: request.transparent,
      background: request.background,
      images: [...images].reverse().map((i) => new Uint8Array(i.bytes.buffer, i.bytes.byteOffset, i.bytes.byteLength)),
    };
    let out: Uint8Array;
    try {
      out = await this.pool.run<CompositeInput, Uint8Array>(TASK, input);
    } catch {
      // An image the remote called PNG or JPEG that Skia cannot read.
      throw new ApiError(502, 'remote_not_image', 'services:external.errors.not_image', {});
    }
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }

  /**
   * One remote image through the guarded fetcher. Credentials in the address (user:password@) go
   * as Basic authorization to that origin only. Any failure is an ApiError without the address;
   * the address (without credentials) is logged for administrators.
   */
  async image(address: string, service: string): Promise<{ bytes: Buffer; type: string }> {
    const { url, headers } = withoutCredentials(address);
    let res: UrlFetchResponse;
    try {
      res = await this.net.fetch(url, {
        maxBytes: REMOTE_MAX_BYTES,
        timeoutMs: REMOTE_TIMEOUT_MS,
        headers: { Accept: 'image/png,image/jpeg,image/*;q=0.8', ...headers },
      });
    } catch (e) {
      throw this.remoteError(e, service);
    }
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (type !== 'image/png' && type !== 'image/jpeg') {
      // A service exception (XML) or a page: its text stays on the server.
      res.body.destroy();
      this.logger.log(`external map: ${origin(service)} answered ${type || 'without a type'} instead of an image`);
      throw new ApiError(502, 'remote_not_image', 'services:external.errors.not_image', {});
    }
    try {
      return { bytes: await res.buffer(), type };
    } catch (e) {
      throw this.remoteError(e, service);
    }
  }

  /** A fetch failure as an error without the remote address; the origin goes to the log only. */
  remoteError(e: unknown, service: string): ApiError {
    const reason = e instanceof ApiError ? e.code : 'fetch_failed';
    this.logger.log(`external map: ${origin(service)} failed (${reason})`);
    if (reason === 'timeout') return new ApiError(504, 'remote_timeout', 'services:external.errors.timeout', {});
    if (reason === 'too_large') return new ApiError(502, 'remote_too_large', 'services:external.errors.too_large', {});
    if (reason === 'url_refused' || reason === 'url_invalid')
      return new ApiError(502, 'remote_refused', 'services:external.errors.refused', {});
    if (reason === 'fetch_status') {
      const status = (e as ApiError).params.status;
      return new ApiError(502, 'remote_status', 'services:external.errors.status', {
        status: typeof status === 'number' ? status : '?',
      });
    }
    return new ApiError(502, 'remote_failed', 'services:external.errors.failed', {});
  }
}

/** A short hash of the normalized request (the cache's `request`). */
export function requestKey(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** True when the source's extent (degrees) meets the window; sources without an extent always do. */
function meets(extent: Box | undefined, window: Box | undefined): boolean {
  if (!extent || !window) return true;
  return extent[0] <= window[2] && extent[2] >= window[0] && extent[1] <= window[3] && extent[3] >= window[1];
}

/** CRS names as the WMS offers them and as datums list them (CRS:84 and EPSG:4326 are one area). */
function sameCrs(a: string, b: string): boolean {
  const norm = (c: string) => {
    const u = c.trim().toUpperCase();
    return u === 'CRS:84' || u === 'EPSG:4326' ? 'EPSG:4326' : u;
  };
  return norm(a) === norm(b);
}

/** The remote GetMap address: the source's address (its own parameters kept) with the map's. */
export function wmsAddress(
  imagery: WmsImagery,
  request: ExternalMapRequest,
  format: ExternalImageFormat,
  transparent: boolean,
): string {
  const url = new URL(imagery.url);
  const version = imagery.version ?? '1.3.0';
  const crs = request.crs === 'CRS:84' && version === '1.1.1' ? 'EPSG:4326' : request.crs;
  const [x0, y0, x1, y1] = request.bbox;
  const box = version === '1.3.0' && NORTH_FIRST.has(crs) ? [y0, x0, y1, x1] : [x0, y0, x1, y1];
  const set = (k: string, v: string) => url.searchParams.set(k, v);
  set('SERVICE', 'WMS');
  set('VERSION', version);
  set('REQUEST', 'GetMap');
  set('LAYERS', imagery.layers);
  set('STYLES', imagery.styles ?? '');
  set(version === '1.3.0' ? 'CRS' : 'SRS', crs);
  set('BBOX', box.map((v) => String(v)).join(','));
  set('WIDTH', String(request.width));
  set('HEIGHT', String(request.height));
  set('FORMAT', format);
  set('TRANSPARENT', transparent ? 'TRUE' : 'FALSE');
  set('BGCOLOR', `0x${request.background.replace('#', '').toUpperCase()}`);
  return url.href;
}

/** The remote tile's address: a RESTful template filled in, or a KVP GetTile. */
export function wmtsAddress(imagery: WmtsImagery, z: number, x: number, y: number): string {
  if (/\{TileMatrix\}/i.test(imagery.url)) {
    const values: Record<string, string> = {
      tilematrix: String(z),
      tilerow: String(y),
      tilecol: String(x),
      layer: imagery.layer,
      style: imagery.style ?? 'default',
      tilematrixset: imagery.tileMatrixSet,
    };
    return imagery.url.replace(/\{(\w+)\}/g, (m, name: string) => encodeURIComponent(values[name.toLowerCase()] ?? m));
  }
  const url = new URL(imagery.url);
  const set = (k: string, v: string) => url.searchParams.set(k, v);
  set('SERVICE', 'WMTS');
  set('REQUEST', 'GetTile');
  set('VERSION', '1.0.0');
  set('LAYER', imagery.layer);
  set('STYLE', imagery.style ?? 'default');
  set('FORMAT', imagery.format ?? 'image/png');
  set('TILEMATRIXSET', imagery.tileMatrixSet);
  set('TILEMATRIX', String(z));
  set('TILEROW', String(y));
  set('TILECOL', String(x));
  return url.href;
}

/** The address without user:password, which become a Basic authorization header instead. */
export function withoutCredentials(address: string): { url: string; headers: Record<string, string> } {
  const url = new URL(address);
  if (!url.username && !url.password) return { url: address, headers: {} };
  const token = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  return { url: url.href, headers: { Authorization: `Basic ${token}` } };
}

/** The scheme and host of an address, for the log (never its path, query or credentials). */
function origin(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return '?';
  }
}

/** A WebMercatorQuad tile's box in degrees. */
function mercatorWindow(z: number, x: number, y: number): Box {
  const n = 2 ** z;
  const lon = (i: number) => (i / n) * 360 - 180;
  const lat = (j: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * j) / n))) * 180) / Math.PI;
  return [lon(x), lat(y + 1), lon(x + 1), lat(y)];
}
