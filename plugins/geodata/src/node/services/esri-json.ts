import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { servicesFailure } from './services-failure';

type Position = number[];
type Ring = Position[];

/** A GeoJSON geometry converted from Esri JSON. */
export interface GeoJsonGeometry {
  type: string;
  coordinates: unknown;
}

/**
 * The GeoJSON geometry of an Esri JSON geometry (ArcGIS REST API, geometry objects): point,
 * multipoint, polyline (paths), polygon (rings) and envelope; null for an empty one. Esri rings
 * run clockwise for outer boundaries and counter-clockwise for holes; each hole goes to the outer
 * ring that contains it, and rings are written the RFC 7946 way (outer counter-clockwise).
 * Throws `esri_geometry_invalid` naming the feature index.
 */
export function esriToGeoJson(geometry: unknown, index: number): GeoJsonGeometry | null {
  if (geometry === null || geometry === undefined) return null;
  const g = geometry as Record<string, unknown>;
  const invalid = () => servicesFailure('esri_geometry_invalid', { index });
  if (typeof g !== 'object') throw invalid();
  if ('x' in g) {
    if (g.x === null || g.x === 'NaN') return null;
    return { type: 'Point', coordinates: position([g.x, g.y, ...(typeof g.z === 'number' ? [g.z] : [])], invalid) };
  }
  if (Array.isArray(g.points)) return { type: 'MultiPoint', coordinates: g.points.map((p) => position(p, invalid)) };
  if (Array.isArray(g.paths)) {
    const paths = g.paths.map((p) => positions(p, invalid));
    if (!paths.length) return null;
    return paths.length === 1 ? { type: 'LineString', coordinates: paths[0] } : { type: 'MultiLineString', coordinates: paths };
  }
  if (Array.isArray(g.rings)) return polygons(g.rings.map((r) => positions(r, invalid)));
  if ('xmin' in g) {
    const [x0, y0, x1, y1] = [g.xmin, g.ymin, g.xmax, g.ymax].map((v) => Number(v));
    if (![x0, y0, x1, y1].every(Number.isFinite)) return null;
    return {
      type: 'Polygon',
      coordinates: [
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
          [x0, y0],
        ],
      ],
    };
  }
  throw invalid();
}

function position(p: unknown, invalid: () => Error): Position {
  if (!Array.isArray(p) || p.length < 2 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) throw invalid();
  return p as Position;
}

function positions(list: unknown, invalid: () => Error): Position[] {
  if (!Array.isArray(list)) throw invalid();
  return list.map((p) => position(p, invalid));
}

/** Twice the signed area of a ring (shoelace): negative for clockwise rings. */
function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return sum;
}

/** Esri rings as a Polygon or MultiPolygon: clockwise rings are outer boundaries, the others holes. */
function polygons(rings: Ring[]): GeoJsonGeometry | null {
  const outers: Ring[][] = [];
  const holes: Ring[] = [];
  for (const ring of rings.filter((r) => r.length >= 4)) {
    if (signedArea(ring) < 0) outers.push([[...ring].reverse()]);
    else holes.push(ring);
  }
  for (const hole of holes) {
    const owner = outers.find((o) =>
      booleanPointInPolygon(hole[0], { type: 'Polygon', coordinates: [o[0]] }, { ignoreBoundary: false }),
    );
    // A counter-clockwise ring inside no outer ring is an outer ring drawn the other way round.
    if (owner) owner.push([...hole].reverse());
    else outers.push([hole]);
  }
  if (!outers.length) return null;
  return outers.length === 1 ? { type: 'Polygon', coordinates: outers[0] } : { type: 'MultiPolygon', coordinates: outers };
}

/** The EPSG name of an Esri spatialReference (latestWkid first; 102100 and 102113 are EPSG:3857), '' when none. */
export function esriCrs(spatialReference: unknown): string {
  const sr = spatialReference as { wkid?: unknown; latestWkid?: unknown } | undefined;
  const wkid = Number(sr?.latestWkid ?? sr?.wkid);
  if (!Number.isInteger(wkid) || wkid <= 0) return '';
  return `EPSG:${wkid === 102100 || wkid === 102113 ? 3857 : wkid}`;
}
