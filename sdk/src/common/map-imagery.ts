import { isBbox, type Bbox } from './map-geometry';

/**
 * Imagery a map shows over its base map: a WMS (GetMap per tile) or a WMTS (KVP or RESTful
 * template). Addresses of other origins go through the server's imagery relay
 * (MAP_IMAGERY_RELAY_PATH), which fetches them with its URL guard (decision 0067).
 */
export interface WmsImagery {
  kind: 'wms';
  /** The service address (GetMap parameters are added; parameters already in it are kept). */
  url: string;
  /** Comma-separated layer names. */
  layers: string;
  styles?: string;
  /** Image format (default image/png). */
  format?: string;
  /** Transparent background (default true). */
  transparent?: boolean;
  /** WMS version (default 1.3.0). */
  version?: '1.1.1' | '1.3.0';
  /** Opacity 0–1 (default 1). */
  opacity?: number;
  /** Where the service has data (degrees): tiles are asked for only there, and the map fits to it. */
  bbox?: Bbox;
}

export interface WmtsImagery {
  kind: 'wmts';
  /** A KVP service address, or a RESTful template with {TileMatrix}, {TileRow}, {TileCol}. */
  url: string;
  layer: string;
  /** Default `default`. */
  style?: string;
  /** The tile matrix set; EPSG:4326 / WGS84 sets use the geographic tiling, all others web mercator. */
  tileMatrixSet: string;
  /** Default image/png. */
  format?: string;
  opacity?: number;
  bbox?: Bbox;
}

export type MapImagery = WmsImagery | WmtsImagery;

/** The server's relay for imagery of other origins: `GET ...?url=<absolute address>`, signed-in users. */
export const MAP_IMAGERY_RELAY_PATH = '/api/v2/backend/map-imagery';

/** Query parameters of `url` by upper-cased name (OGC names are case-insensitive). */
function queryOf(url: URL): Map<string, string> {
  const out = new Map<string, string>();
  url.searchParams.forEach((v, k) => out.set(k.toUpperCase(), v));
  return out;
}

function parse(address: string): URL | undefined {
  try {
    return new URL(address.trim());
  } catch {
    return undefined;
  }
}

/** The parameters the map sets itself; a datum's address may carry them from a GetCapabilities or GetMap link. */
const WMS_OWN = [
  'SERVICE',
  'REQUEST',
  'VERSION',
  'LAYERS',
  'STYLES',
  'FORMAT',
  'TRANSPARENT',
  'BBOX',
  'WIDTH',
  'HEIGHT',
  'CRS',
  'SRS',
];
const WMTS_OWN = [
  'SERVICE',
  'REQUEST',
  'VERSION',
  'LAYER',
  'STYLE',
  'FORMAT',
  'TILEMATRIXSET',
  'TILEMATRIX',
  'TILEROW',
  'TILECOL',
];

function without(url: URL, names: string[]): string {
  const out = new URL(url.href);
  for (const k of [...out.searchParams.keys()]) if (names.includes(k.toUpperCase())) out.searchParams.delete(k);
  return out.href.replace(/\?$/, '');
}

/**
 * A WMS datum (`tms_url`, `layers`, `transparent`) as imagery: layers from the datum, else from the
 * address's LAYERS; the address without the parameters the map sets. Undefined without an
 * absolute http(s) address or without layers.
 */
export function wmsImageryOf(datum: {
  tms_url?: unknown;
  layers?: unknown;
  transparent?: unknown;
  bbox?: unknown;
}): WmsImagery | undefined {
  const url = typeof datum.tms_url === 'string' ? parse(datum.tms_url) : undefined;
  if (!url || !/^https?:$/.test(url.protocol)) return undefined;
  const q = queryOf(url);
  const layers = (typeof datum.layers === 'string' && datum.layers.trim()) || q.get('LAYERS') || '';
  if (!layers) return undefined;
  const version = q.get('VERSION') === '1.1.1' ? '1.1.1' : '1.3.0';
  return {
    kind: 'wms',
    url: without(url, WMS_OWN),
    layers,
    styles: q.get('STYLES') ?? '',
    format: q.get('FORMAT') ?? 'image/png',
    transparent: typeof datum.transparent === 'boolean' ? datum.transparent : q.get('TRANSPARENT')?.toUpperCase() !== 'FALSE',
    version,
    ...extentOf(datum.bbox),
  };
}

/**
 * A WMTS datum (`tms_url`) as imagery: a RESTful template ({TileMatrix}/{TileRow}/{TileCol}, with
 * {Layer}/{Style}/{TileMatrixSet} filled from `defaults`), or a KVP address whose LAYER,
 * TILEMATRIXSET, STYLE and FORMAT name the tiles. Undefined when the layer or set is unknown.
 */
export function wmtsImageryOf(
  datum: { tms_url?: unknown; bbox?: unknown },
  defaults: { layer?: string; tileMatrixSet?: string; style?: string } = {},
): WmtsImagery | undefined {
  const raw = typeof datum.tms_url === 'string' ? datum.tms_url.trim() : '';
  const url = parse(raw.replace(/[{}]/g, (c) => (c === '{' ? '%7B' : '%7D')));
  if (!url || !/^https?:$/.test(url.protocol)) return undefined;
  const q = queryOf(url);
  const layer = q.get('LAYER') ?? defaults.layer ?? '';
  const tileMatrixSet =
    q.get('TILEMATRIXSET') ?? defaults.tileMatrixSet ?? (/\{TileMatrixSet\}/i.test(raw) ? '' : 'GoogleMapsCompatible');
  if (/\{TileMatrix\}/i.test(raw)) {
    if (/\{Layer\}/i.test(raw) && !layer) return undefined;
    if (!tileMatrixSet) return undefined;
    return {
      kind: 'wmts',
      url: raw,
      layer,
      style: defaults.style ?? 'default',
      tileMatrixSet,
      format: 'image/png',
      ...extentOf(datum.bbox),
    };
  }
  if (!layer || !tileMatrixSet) return undefined;
  return {
    kind: 'wmts',
    url: without(url, WMTS_OWN),
    layer,
    style: q.get('STYLE') ?? defaults.style ?? 'default',
    tileMatrixSet,
    format: q.get('FORMAT') ?? 'image/png',
    ...extentOf(datum.bbox),
  };
}

/** A datum's bbox as the imagery's extent when it spans an area (the types' template is [0, 0, 0, 0]). */
function extentOf(bbox: unknown): { bbox?: Bbox } {
  if (!isBbox(bbox)) return {};
  return bbox[0] < bbox[2] && bbox[1] < bbox[3] ? { bbox: [...bbox] } : {};
}

/**
 * The address the browser asks for `address`: itself when it is of the page's origin (or relative),
 * else the server's imagery relay (the CSP lets the map fetch only from its own origin, and the
 * server fetches user-given addresses only through its URL guard).
 */
export function relayedImageryUrl(address: string, pageOrigin: string): string {
  let url: URL;
  try {
    url = new URL(address, pageOrigin);
  } catch {
    return address;
  }
  if (url.origin === pageOrigin) return address;
  return `${MAP_IMAGERY_RELAY_PATH}?url=${encodeURIComponent(address)}`;
}
