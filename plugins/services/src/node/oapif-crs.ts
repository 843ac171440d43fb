import { ApiError } from '@werkbank/sdk/node';
import type { FeatureReprojection } from '@werkbank/plugin-geodata/api';
import { parseBbox, type Window } from '../common/service-params';
import { valueOf } from './geojson-endpoint';
import type { ServedFeature } from './published-layers';

/** OGC API Features Part 2: WGS 84 in longitude, latitude order, the default CRS of every collection. */
export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';

/** The EPSG codes a collection can be served in besides CRS84 (issue 17): as the reprojection functions do. */
export const OAPIF_EPSG = [4326, 3857, 25832, 25833, 31466, 31467, 31468, 31469];

/**
 * Codes whose EPSG axis order is north, east (latitude, longitude; Gauss-Krüger's X, Y): Part 2
 * serves and reads coordinates in the CRS's own axis order, so these are swapped on the way out
 * and in (GeoJSON's own order stays east, north).
 */
const NORTH_EAST = new Set([4326, 31466, 31467, 31468, 31469]);

/** A CRS of a collection: CRS84 (code undefined) or one of OAPIF_EPSG. */
export interface OapifCrs {
  uri: string;
  /** EPSG code; undefined for CRS84. */
  code?: number;
}

/** The CRS URIs a collection lists (`crs`), CRS84 first. */
export function crsList(): string[] {
  return [CRS84, ...OAPIF_EPSG.map(epsgUri)];
}

export function epsgUri(code: number): string {
  return `http://www.opengis.net/def/crs/EPSG/0/${code}`;
}

const CRS84_NAME = /^(?:urn:ogc:def:crs:OGC:(?:1\.3)?:CRS84|CRS84|https?:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84)$/i;

/**
 * `crs=` / `bbox-crs=`: a CRS URI (or `EPSG:n`, `urn:ogc:def:crs:EPSG::n`) among the collection's;
 * CRS84 when absent. Anything else is a 400 naming the parameter.
 */
export function parseCrs(raw: string | undefined, field: string, reprojection: FeatureReprojection): OapifCrs {
  if (raw === undefined || raw.trim() === '') return { uri: CRS84 };
  const text = raw.trim().replace(/^<(.*)>$/, '$1');
  if (CRS84_NAME.test(text)) return { uri: CRS84 };
  const code = reprojection.epsgCode(text);
  if (code === undefined || !OAPIF_EPSG.includes(code))
    throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.crs_unknown', { crs: raw.slice(0, 200) }, field);
  return { uri: epsgUri(code), code };
}

/** Swaps the first two values of every position of a geometry (nested collections included). */
function swapAxes(geometry: ServedFeature['geometry']): ServedFeature['geometry'] {
  if (!geometry) return geometry;
  if (geometry.type === 'GeometryCollection' && Array.isArray(geometry.geometries))
    return { ...geometry, geometries: (geometry.geometries as ServedFeature['geometry'][]).map(swapAxes) };
  const walk = (c: unknown): unknown =>
    Array.isArray(c) && typeof c[0] === 'number' ? [c[1], c[0], ...c.slice(2)] : Array.isArray(c) ? c.map(walk) : c;
  return { ...geometry, coordinates: walk(geometry.coordinates) };
}

/**
 * A function giving a served feature in `crs` (in the CRS's axis order, without a `crs` member);
 * the feature itself for CRS84. Rejects with a 400 when the CRS cannot be resolved.
 */
export async function featuresIn(
  crs: OapifCrs,
  reprojection: FeatureReprojection,
): Promise<(feature: ServedFeature, index: number) => ServedFeature> {
  if (crs.code === undefined) return (f) => f;
  const code = crs.code;
  const reproject = code === 4326 ? undefined : await reprojection.reprojector('EPSG:4326', `EPSG:${code}`);
  return (feature, index) => {
    const out = (reproject ? reproject(feature, index) : { ...feature }) as ServedFeature;
    delete out.crs;
    delete out.bbox;
    return NORTH_EAST.has(code) ? { ...out, geometry: swapAxes(out.geometry) } : out;
  };
}

/** Points along a box's edges (8 per edge), so a projected box's degrees take in its curved sides. */
function edgePoints([x0, y0, x1, y1]: number[]): number[][] {
  const points: number[][] = [];
  for (let i = 0; i <= 8; i++) {
    const fx = x0 + ((x1 - x0) * i) / 8;
    const fy = y0 + ((y1 - y0) * i) / 8;
    points.push([fx, y0], [fx, y1], [x0, fy], [x1, fy]);
  }
  return points;
}

/**
 * `bbox=` in `bbox-crs` as a window in degrees (WGS 84): CRS84 as the shared parser reads it; in
 * another CRS (its axis order) the box's edges reprojected and their extent taken. 400 for a
 * malformed or inverted box or one the CRS cannot reach.
 */
export async function parseBboxIn(
  raw: string | undefined,
  crs: OapifCrs,
  reprojection: FeatureReprojection,
): Promise<Window | undefined> {
  if (crs.code === undefined || raw === undefined || raw.trim() === '') return valueOf(parseBbox(raw), 'bbox');
  const parts = raw.split(',').map((p) => p.trim());
  if ((parts.length !== 4 && parts.length !== 6) || parts.some((p) => p === '' || !Number.isFinite(Number(p))))
    valueOf({ problem: 'bbox_invalid' }, 'bbox');
  const n = parts.map(Number);
  let [x0, y0, x1, y1] = n.length === 6 ? [n[0], n[1], n[3], n[4]] : n;
  if (NORTH_EAST.has(crs.code)) [x0, y0, x1, y1] = [y0, x0, y1, x1];
  if (y0 > y1 || (crs.code !== 4326 && x0 > x1)) valueOf({ problem: 'bbox_inverted' }, 'bbox');
  if (crs.code === 4326) return valueOf(parseBbox([x0, y0, x1, y1].join(',')), 'bbox');
  const toDegrees = await reprojection.reprojector(`EPSG:${crs.code}`, 'EPSG:4326');
  let geometry: { coordinates: number[][] };
  try {
    const feature = {
      type: 'Feature',
      properties: null,
      geometry: { type: 'MultiPoint', coordinates: edgePoints([x0, y0, x1, y1]) },
    };
    geometry = toDegrees(feature, 0).geometry as { coordinates: number[][] };
  } catch {
    throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.bbox_unreachable', {}, 'bbox');
  }
  const xs = geometry.coordinates.map((p) => p[0]);
  const ys = geometry.coordinates.map((p) => p[1]);
  const window: Window = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  if (!window.every(Number.isFinite) || window[1] < -90 || window[3] > 90 || window[0] < -180 || window[2] > 180)
    throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.bbox_unreachable', {}, 'bbox');
  return window;
}
