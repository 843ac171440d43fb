import type { Geometry, Position } from 'geojson';
import { planarCentroid } from './planar-centroid';

/**
 * The height of the scan line through a polygon: halfway between the nearest vertex heights below
 * and above the middle of its extent, so the line passes through no vertex (GEOS's
 * ScanLineYOrdinateFinder).
 */
function scanY(rings: Position[][]): number {
  const ys = rings.flat().map((p) => p[1]);
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  const centre = (lo + hi) / 2;
  for (const y of ys) {
    if (y <= centre) {
      if (y > lo) lo = y;
    } else if (y < hi) hi = y;
  }
  return (lo + hi) / 2;
}

/** Where the edges of the rings cross the horizontal line at `y`, each crossing counted once. */
function crossings(rings: Position[][], y: number): number[] {
  const xs: number[] = [];
  for (const ring of rings)
    for (let i = 1; i < ring.length; i++) {
      const [[x0, y0], [x1, y1]] = [ring[i - 1], ring[i]];
      if ((y0 > y && y1 > y) || (y0 < y && y1 < y) || y0 === y1) continue;
      if ((y0 === y && y1 < y) || (y1 === y && y0 < y)) continue;
      xs.push(x0 === x1 ? x0 : x0 + (y - y0) * ((x1 - x0) / (y1 - y0)));
    }
  return xs.sort((a, b) => a - b);
}

/** The middle of the widest section of the scan line inside the polygons (GEOS's InteriorPointArea). */
function areaPoint(polygons: Position[][][]): Position | undefined {
  let best: Position | undefined;
  let widest = -1;
  for (const rings of polygons) {
    if (!rings[0]?.length) continue;
    const y = scanY(rings);
    const xs = crossings(rings, y);
    let point: Position = rings[0][0];
    let width = 0;
    for (let i = 0; i + 1 < xs.length; i += 2) {
      if (xs[i + 1] - xs[i] > width) {
        width = xs[i + 1] - xs[i];
        point = [(xs[i] + xs[i + 1]) / 2, y];
      }
    }
    if (width > widest) {
      widest = width;
      best = point;
    }
  }
  return best;
}

/** The position of `candidates` nearest to `target` (the first of equals). */
function nearest(candidates: Position[], target: Position): Position | undefined {
  let best: Position | undefined;
  let distance = Infinity;
  for (const p of candidates) {
    const d = Math.hypot(p[0] - target[0], p[1] - target[1]);
    if (d < distance) [best, distance] = [p, d];
  }
  return best;
}

/** The polygons, lines and points of a geometry, collections opened. */
function flatten(g: Geometry, out: { polygons: Position[][][]; lines: Position[][]; points: Position[] }) {
  if (g.type === 'Polygon') out.polygons.push(g.coordinates);
  else if (g.type === 'MultiPolygon') out.polygons.push(...g.coordinates);
  else if (g.type === 'LineString') out.lines.push(g.coordinates);
  else if (g.type === 'MultiLineString') out.lines.push(...g.coordinates);
  else if (g.type === 'Point') out.points.push(g.coordinates);
  else if (g.type === 'MultiPoint') out.points.push(...g.coordinates);
  else if (g.type === 'GeometryCollection') g.geometries.forEach((c) => flatten(c, out));
  return out;
}

/**
 * A point guaranteed to lie on the geometry, computed in its own coordinates as GEOS, PostGIS and
 * SpatiaLite compute `ST_PointOnSurface`: inside an area (the middle of the widest section of a
 * horizontal line through it), on a line (the inner vertex nearest its centroid, else an end), or
 * the point nearest the centroid of points. Undefined for an empty geometry.
 */
export function pointOnSurface(geometry: Geometry): Position | undefined {
  const { polygons, lines, points } = flatten(geometry, { polygons: [], lines: [], points: [] });
  if (polygons.length) return areaPoint(polygons);
  const centroid = planarCentroid(geometry);
  if (!centroid) return undefined;
  if (lines.length) {
    const inner = lines.flatMap((l) => l.slice(1, -1));
    return (
      nearest(inner, centroid) ??
      nearest(
        lines.flatMap((l) => [l[0], l[l.length - 1]]),
        centroid,
      )
    );
  }
  return nearest(points, centroid);
}
