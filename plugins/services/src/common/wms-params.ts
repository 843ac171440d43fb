/**
 * The KVP parameters of the WMS (1.3.0 and 1.1.1; issue 17, decision 0083): names in any case,
 * CRSs with their axis order, BBOX, size, format and colours. Problems are `WmsProblem`s with the
 * OGC exception code, the parameter (locator) and a translation key of `services:wms.errors`.
 */

export type WmsVersion = '1.3.0' | '1.1.1';
export type WmsRequest = 'GetCapabilities' | 'GetMap' | 'GetFeatureInfo' | 'GetLegendGraphic';

/** The CRSs a WMS layer is offered in (1.3.0 `CRS`, 1.1.1 `SRS`). */
export const WMS_CRS = [
  'CRS:84',
  'EPSG:4326',
  'EPSG:3857',
  'EPSG:25832',
  'EPSG:25833',
  'EPSG:31466',
  'EPSG:31467',
  'EPSG:31468',
  'EPSG:31469',
] as const;

/** CRSs whose EPSG axis order is north first (latitude/longitude, northing/easting): WMS 1.3.0 BBOX follows it. */
export const NORTH_FIRST = new Set(['EPSG:4326', 'EPSG:31466', 'EPSG:31467', 'EPSG:31468', 'EPSG:31469']);

/** Degrees and metres per unit of the offered CRSs (the geographic ones count a degree at the equator). */
export const METRES_PER_DEGREE = 111319.49079327357;
export const isGeographic = (crs: string) => crs === 'CRS:84' || crs === 'EPSG:4326';

/** Standard rendering pixel size of OGC WMS (0.28 mm): the scale denominator is ground metres per pixel / 0.00028. */
export const PIXEL_METRES = 0.00028;

export const IMAGE_FORMATS = ['image/png', 'image/jpeg'] as const;
export type ImageFormatName = (typeof IMAGE_FORMATS)[number];
export const INFO_FORMATS = ['application/json', 'text/html', 'application/vnd.ogc.gml', 'text/xml'] as const;
export type InfoFormat = (typeof INFO_FORMATS)[number];

/** A refused request: OGC exception code, locator, and the reason's key (namespace `services:wms.errors`). */
export class WmsProblem extends Error {
  constructor(
    readonly code: string,
    readonly key: string,
    readonly params: Record<string, unknown> = {},
    readonly locator?: string,
    readonly status = 400,
  ) {
    super(`${code}: ${key}`);
    this.name = 'WmsProblem';
  }
}

/** The query with lower-case names, the first value of repeated ones. */
export function kvp(query: Record<string, string | string[] | undefined>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(query)) {
    const value = Array.isArray(v) ? v[0] : v;
    const key = k.toLowerCase();
    if (value !== undefined && !out.has(key)) out.set(key, value);
  }
  return out;
}

/** The version asked for: 1.1.x answers as 1.1.1, anything else (or none) as 1.3.0. */
export function wmsVersion(p: Map<string, string>): WmsVersion {
  const v = (p.get('version') ?? p.get('wmtver') ?? '').trim();
  return v.startsWith('1.1') || v.startsWith('1.0') ? '1.1.1' : '1.3.0';
}

/** SERVICE (WMS, optional except for GetCapabilities) and REQUEST. */
export function wmsRequest(p: Map<string, string>): WmsRequest {
  const service = p.get('service');
  const raw = (p.get('request') ?? '').trim();
  if (service !== undefined && service.trim().toUpperCase() !== 'WMS')
    throw new WmsProblem('InvalidParameterValue', 'service', { value: service }, 'service');
  if (!raw) throw new WmsProblem('MissingParameterValue', 'missing', { name: 'REQUEST' }, 'request');
  const known: WmsRequest[] = ['GetCapabilities', 'GetMap', 'GetFeatureInfo', 'GetLegendGraphic'];
  const found =
    known.find((r) => r.toLowerCase() === raw.toLowerCase()) ??
    (raw.toLowerCase() === 'capabilities' ? 'GetCapabilities' : undefined);
  if (!found) throw new WmsProblem('OperationNotSupported', 'request', { value: raw }, 'request');
  if (found === 'GetCapabilities' && service === undefined)
    throw new WmsProblem('MissingParameterValue', 'missing', { name: 'SERVICE' }, 'service');
  return found;
}

/** A required parameter's text. */
export function required(p: Map<string, string>, name: string): string {
  const v = p.get(name);
  if (v === undefined || v.trim() === '')
    throw new WmsProblem('MissingParameterValue', 'missing', { name: name.toUpperCase() }, name);
  return v.trim();
}

/** The CRS (1.3.0 `CRS`, 1.1.1 `SRS`), as in WMS_CRS. */
export function wmsCrs(p: Map<string, string>, version: WmsVersion): string {
  const name = version === '1.3.0' ? 'crs' : 'srs';
  const raw = required(p, name).toUpperCase();
  const crs = WMS_CRS.find((c) => c === raw);
  if (!crs) throw new WmsProblem(version === '1.3.0' ? 'InvalidCRS' : 'InvalidSRS', 'crs', { crs: raw.slice(0, 60) }, name);
  return crs;
}

/**
 * BBOX as [minx, miny, maxx, maxy] with x east and y north: in 1.3.0 a north-first CRS
 * (EPSG:4326, Gauss–Krüger) gives y first. Geographic boxes must lie in the world, all must not be
 * empty or inverted.
 */
export function wmsBbox(p: Map<string, string>, crs: string, version: WmsVersion): [number, number, number, number] {
  const parts = required(p, 'bbox').split(',');
  const n = parts.map((x) => (x.trim() === '' ? NaN : Number(x)));
  if (n.length !== 4 || !n.every(Number.isFinite)) throw new WmsProblem('InvalidParameterValue', 'bbox_invalid', {}, 'bbox');
  const box: [number, number, number, number] =
    version === '1.3.0' && NORTH_FIRST.has(crs) ? [n[1], n[0], n[3], n[2]] : [n[0], n[1], n[2], n[3]];
  if (box[0] >= box[2] || box[1] >= box[3]) throw new WmsProblem('InvalidParameterValue', 'bbox_inverted', {}, 'bbox');
  if (isGeographic(crs) && (box[0] < -180 || box[2] > 180 || box[1] < -90 || box[3] > 90))
    throw new WmsProblem('InvalidParameterValue', 'bbox_range', {}, 'bbox');
  return box;
}

/** WIDTH or HEIGHT: a whole number from 1 to `max`. */
export function wmsSize(p: Map<string, string>, name: 'width' | 'height', max: number): number {
  const raw = required(p, name);
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
    throw new WmsProblem('InvalidParameterValue', 'size_invalid', { name: name.toUpperCase() }, name);
  const v = Number(raw);
  if (v > max) throw new WmsProblem('InvalidParameterValue', 'size_too_large', { name: name.toUpperCase(), max }, name);
  return v;
}

/** FORMAT: PNG or JPEG (`image/png; mode=8bit` and the like count as PNG). */
export function imageFormat(raw: string | undefined, fallback?: ImageFormatName): ImageFormatName {
  const v = (raw ?? '').trim().toLowerCase();
  if (!v && fallback) return fallback;
  if (v === 'image/png' || v.startsWith('image/png;') || v === 'png') return 'image/png';
  if (v === 'image/jpeg' || v === 'image/jpg' || v === 'jpeg' || v === 'jpg') return 'image/jpeg';
  throw new WmsProblem('InvalidFormat', 'format', { format: (raw ?? '').slice(0, 60) }, 'format');
}

/** TRANSPARENT (TRUE/FALSE, default FALSE). */
export function transparent(p: Map<string, string>): boolean {
  const v = (p.get('transparent') ?? 'FALSE').trim().toUpperCase();
  if (v !== 'TRUE' && v !== 'FALSE') throw new WmsProblem('InvalidParameterValue', 'transparent', {}, 'transparent');
  return v === 'TRUE';
}

/** BGCOLOR 0xRRGGBB as #rrggbb (default white). */
export function bgcolor(p: Map<string, string>): string {
  const v = (p.get('bgcolor') ?? '0xFFFFFF').trim();
  const m = /^(?:0x|#)([0-9a-f]{6})$/i.exec(v);
  if (!m) throw new WmsProblem('InvalidParameterValue', 'bgcolor', {}, 'bgcolor');
  return `#${m[1].toLowerCase()}`;
}

/** EXCEPTIONS: how errors of image requests come back. */
export type ExceptionMode = 'xml' | 'inimage' | 'blank';
export function exceptionMode(p: Map<string, string>): ExceptionMode {
  const v = (p.get('exceptions') ?? '').trim().toLowerCase();
  if (v === 'inimage' || v === 'application/vnd.ogc.se_inimage') return 'inimage';
  if (v === 'blank' || v === 'application/vnd.ogc.se_blank') return 'blank';
  return 'xml';
}

/** The scale denominator of a map of `width` px over a box of the CRS (OGC: 0.28 mm pixels). */
export function scaleDenominator(bbox: [number, number, number, number], width: number, crs: string): number {
  const ground = (bbox[2] - bbox[0]) * (isGeographic(crs) ? METRES_PER_DEGREE : 1);
  return ground / width / PIXEL_METRES;
}

/** The EPSG name FeatureReprojection takes for an offered CRS. */
export const epsgName = (crs: string) => (crs === 'CRS:84' ? 'EPSG:4326' : crs);

/** FEATURE_COUNT of GetFeatureInfo (default 1; the WMTS takes it as a vendor parameter too). */
export function featureCount(p: Map<string, string>): number {
  const raw = p.get('feature_count') ?? '1';
  if (!/^\d{1,6}$/.test(raw.trim()) || Number(raw) < 1)
    throw new WmsProblem('InvalidParameterValue', 'feature_count', {}, 'feature_count');
  return Number(raw);
}

/** INFO_FORMAT of GetFeatureInfo (default text/html). */
export function infoFormat(raw: string | undefined): InfoFormat {
  const v = (raw ?? 'text/html').trim().toLowerCase();
  const found =
    INFO_FORMATS.find((f) => f === v) ?? (v === 'application/geo+json' || v === 'json' ? 'application/json' : undefined);
  if (!found) throw new WmsProblem('InvalidFormat', 'info_format', { format: (raw ?? '').slice(0, 60) }, 'info_format');
  return found;
}
