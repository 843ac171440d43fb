import { failure } from './reproject-errors';
import { CrsTransform } from './crs-transform';
import { resolveCrs } from './crs-resolver';
import { labelled } from './feature-crs';

/**
 * A GeoJSON feature with its geometry reprojected (bbox recomputed) and labelled with the target
 * CRS (its `crs` member, none for EPSG:4326); id, properties and other members kept. Throws `feature_expected` when it is no feature, else like reprojectGeometry.
 */
export function reprojectFeature(feature: unknown, transform: CrsTransform, index: number): Record<string, unknown> {
  const f = feature as Record<string, unknown> | undefined;
  if (!f || typeof f !== 'object' || f.type !== 'Feature') throw failure('feature_expected', { index });
  const geometry = reprojectGeometry(f.geometry, transform, index);
  // The feature now says the CRS it is in (decision 0035).
  const result: Record<string, unknown> = labelled({ ...f, geometry }, transform.to.name);
  if (Array.isArray(f.bbox)) {
    const box = boundingBox(geometry, f.bbox);
    if (box) result.bbox = box;
    else delete result.bbox;
  }
  return result;
}

/**
 * For other functions that reproject while they read (a vector import's auto_transform and crs
 * settings, spec 001 §3.4): resolves both CRS names (throwing like geometry.reproject) and
 * returns a reprojectFeature bound to them.
 */
export async function featureReprojector(
  from: string,
  to: string,
): Promise<(feature: unknown, index: number) => Record<string, unknown>> {
  const transform = new CrsTransform(await resolveCrs(from), await resolveCrs(to));
  return (feature, index) => reprojectFeature(feature, transform, index);
}

type Geometry = { type: string; coordinates?: unknown; geometries?: unknown; bbox?: unknown } & Record<string, unknown>;

/** The nesting depth of positions in each geometry type's coordinates (RFC 7946 §3.1). */
const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

/**
 * The geometry with every position transformed (nested GeometryCollections included); null stays
 * null. Values after x and y (heights, measures) are kept unchanged; a bbox is recomputed from the
 * new positions. Throws a failure naming the feature `index` for a malformed geometry, a position
 * that is not two finite numbers, a longitude/latitude out of range in a geographic source CRS and
 * a position the transformation cannot reach.
 */
export function reprojectGeometry(geometry: unknown, transform: CrsTransform, index: number): unknown {
  if (geometry === null || geometry === undefined) return null;
  if (typeof geometry !== 'object' || Array.isArray(geometry))
    throw failure('geometry_invalid', { index, type: typeof geometry });
  const g = geometry as Geometry;
  let result: Geometry;
  if (g.type === 'GeometryCollection') {
    if (!Array.isArray(g.geometries)) throw failure('geometry_invalid', { index, type: g.type });
    result = { ...g, geometries: g.geometries.map((part) => reprojectGeometry(part, transform, index)) };
  } else if (typeof g.type === 'string' && g.type in DEPTH) {
    result = { ...g, coordinates: walk(g.coordinates, DEPTH[g.type], transform, index, g.type) };
  } else {
    throw failure('geometry_invalid', { index, type: String(g.type) });
  }
  if (Array.isArray(g.bbox)) {
    const box = boundingBox(result, g.bbox);
    if (box) result.bbox = box;
    else delete result.bbox;
  }
  return result;
}

function walk(coordinates: unknown, depth: number, transform: CrsTransform, index: number, type: string): unknown {
  if (depth === 0) return position(coordinates, transform, index);
  if (!Array.isArray(coordinates)) throw failure('geometry_invalid', { index, type });
  return coordinates.map((c) => walk(c, depth - 1, transform, index, type));
}

function position(p: unknown, transform: CrsTransform, index: number): number[] {
  const shown = () => JSON.stringify(p)?.slice(0, 80) ?? String(p);
  if (!Array.isArray(p) || p.length < 2 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw failure('coordinates_invalid', { index, position: shown() });
  }
  const [x, y, ...rest] = p as number[];
  if (transform.from.geographic && (Math.abs(x) > 180 || Math.abs(y) > 90)) {
    throw failure('out_of_range', { index, position: shown(), crs: transform.from.name });
  }
  const [u, v] = transform.position(x, y);
  if (!Number.isFinite(u) || !Number.isFinite(v)) {
    throw failure('transform_failed', { index, position: shown(), from: transform.from.name, to: transform.to.name });
  }
  return [u, v, ...rest];
}

/**
 * The bbox of a reprojected geometry's positions, in the shape of the old one (4 values, or 6
 * keeping its heights); undefined for a geometry without positions.
 */
export function boundingBox(geometry: unknown, old: unknown[]): number[] | undefined {
  if (!geometry) return undefined;
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (g: Geometry) => {
    if (g.type === 'GeometryCollection') return (g.geometries as Geometry[]).forEach((part) => part && visit(part));
    const depth = DEPTH[g.type];
    const positions = (depth === 0 ? [g.coordinates] : (g.coordinates as unknown[]).flat(depth - 1)) as number[][];
    for (const [x, y] of positions) {
      [box[0], box[1], box[2], box[3]] = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
    }
  };
  visit(geometry as Geometry);
  if (box[0] === Infinity) return undefined;
  return old.length === 6 ? [box[0], box[1], old[2] as number, box[2], box[3], old[5] as number] : box;
}
