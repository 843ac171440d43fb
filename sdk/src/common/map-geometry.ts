import turfBbox from '@turf/bbox';

/** A GeoJSON geometry as it arrives from the API (not trusted: any field may be missing). */
export interface LooseGeometry {
  type?: unknown;
  coordinates?: unknown;
  geometries?: unknown;
}

/** A GeoJSON feature as the map takes it. */
export interface MapFeature {
  type?: 'Feature';
  id?: string | number;
  geometry: LooseGeometry | null;
  properties?: Record<string, unknown> | null;
}

/** [west, south, east, north] in degrees (WGS 84). */
export type Bbox = [number, number, number, number];

/** spec 000 §2, §9: the map never zooms in past level 19 … */
export const MAP_MAX_ZOOM = 19;
/** … and keeps 7 px between fitted geometries and the map's edge. */
export const MAP_FIT_PADDING = 7;

const isPosition = (p: unknown): boolean =>
  Array.isArray(p) && p.length >= 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));
const isLine = (l: unknown): boolean => Array.isArray(l) && l.length >= 1 && l.every(isPosition);
const isPolygon = (p: unknown): boolean => Array.isArray(p) && isRing(p[0]) && p.every(isRing);
const isRing = (r: unknown): boolean => Array.isArray(r) && r.length > 2 && r.every(isPosition);
const some = (a: unknown, test: (x: unknown) => boolean): boolean => Array.isArray(a) && a.length > 0 && a.every(test);

/**
 * spec 001 §5.2: a geometry is shown only with a type and coordinates — a Point needs at least 2
 * coordinates, a line at least 1 point, a polygon a ring of more than 2 points. Collections need
 * members that pass. Everything else shows 'No coordinates available'.
 */
export function hasCoordinates(geometry: LooseGeometry | null | undefined): boolean {
  if (!geometry || typeof geometry !== 'object') return false;
  const c = geometry.coordinates;
  switch (geometry.type) {
    case 'Point':
      return isPosition(c);
    case 'MultiPoint':
      return some(c, isPosition);
    case 'LineString':
      return isLine(c);
    case 'MultiLineString':
      return some(c, isLine);
    case 'Polygon':
      return isPolygon(c);
    case 'MultiPolygon':
      return some(c, isPolygon);
    case 'GeometryCollection':
      return some(geometry.geometries, (g) => hasCoordinates(g as LooseGeometry));
    default:
      return false;
  }
}

/** The features the map can show (spec 001 §5.2), as a FeatureCollection. */
export function mappableFeatures(features: readonly MapFeature[]): { type: 'FeatureCollection'; features: MapFeature[] } {
  return {
    type: 'FeatureCollection',
    features: features
      .filter((f) => hasCoordinates(f.geometry))
      .map((f) => ({ type: 'Feature', id: f.id, geometry: f.geometry, properties: f.properties ?? {} })),
  };
}

/** A bbox is usable when it has four finite numbers with west ≤ east and south ≤ north, inside WGS 84. */
export function isBbox(b: unknown): b is Bbox {
  if (!Array.isArray(b) || b.length !== 4 || !b.every((n) => typeof n === 'number' && Number.isFinite(n))) return false;
  const [w, s, e, n] = b as number[];
  return w <= e && s <= n && w >= -180 && e <= 180 && s >= -90 && n <= 90;
}

/** The bbox around the mappable features (and an extra bbox), or undefined when there is nothing. */
export function featuresBbox(features: readonly MapFeature[], extra?: Bbox | null): Bbox | undefined {
  const fc = mappableFeatures(features);
  const boxes: Bbox[] = [];
  if (fc.features.length) boxes.push(turfBbox(fc as never).slice(0, 4) as Bbox);
  if (extra && isBbox(extra)) boxes.push(extra);
  if (!boxes.length) return undefined;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** Metres per pixel at the equator on zoom level 0 of the web tile pyramid (256 px tiles). */
const METRES_PER_PIXEL_Z0 = 156543.03392804097;

/**
 * The bbox to fit so that `bbox` sits `padding` px inside a `width`×`height` px map and the view
 * is never closer than zoom level `maxZoom` (a point is shown at level 19, not at 0 m).
 */
export function fitBbox(bbox: Bbox, width: number, height: number, padding = MAP_FIT_PADDING, maxZoom = MAP_MAX_ZOOM): Bbox {
  const [w, s, e, n] = bbox;
  const cx = (w + e) / 2;
  const cy = (s + n) / 2;
  // Degrees per pixel at the deepest zoom, at this latitude.
  const metresPerPixel = (METRES_PER_PIXEL_Z0 * Math.cos((cy * Math.PI) / 180)) / 2 ** maxZoom;
  const minLon = (Math.max(width, 1) * metresPerPixel) / (111320 * Math.max(Math.cos((cy * Math.PI) / 180), 1e-6));
  const minLat = (Math.max(height, 1) * metresPerPixel) / 110574;
  const inner = (px: number) => Math.max(px - 2 * padding, 1);
  const spanX = Math.max(((e - w) * width) / inner(width), minLon);
  const spanY = Math.max(((n - s) * height) / inner(height), minLat);
  return [
    Math.max(cx - spanX / 2, -180),
    Math.max(cy - spanY / 2, -90),
    Math.min(cx + spanX / 2, 180),
    Math.min(cy + spanY / 2, 90),
  ];
}

/**
 * spec 000 §2: a configured tile address is a z/x/y template; a bare address gets `{z}/{x}/{y}.png`
 * (the extension defaults to png). Empty gives undefined (the bundled Natural Earth imagery).
 */
export function tileUrlTemplate(address: string | null | undefined): string | undefined {
  const a = address?.trim();
  if (!a) return undefined;
  if (a.includes('{z}')) return a;
  return `${a.replace(/\/+$/, '')}/{z}/{x}/{y}.png`;
}
