import type { Geometry, Position } from 'geojson';

/** The parts of a geometry by dimension: polygons (rings), lines and points. */
interface Parts {
  polygons: Position[][][];
  lines: Position[][];
  points: Position[];
}

function partsOf(geometry: Geometry, parts: Parts = { polygons: [], lines: [], points: [] }): Parts {
  switch (geometry.type) {
    case 'Point':
      parts.points.push(geometry.coordinates);
      break;
    case 'MultiPoint':
      parts.points.push(...geometry.coordinates);
      break;
    case 'LineString':
      parts.lines.push(geometry.coordinates);
      break;
    case 'MultiLineString':
      parts.lines.push(...geometry.coordinates);
      break;
    case 'Polygon':
      parts.polygons.push(geometry.coordinates);
      break;
    case 'MultiPolygon':
      parts.polygons.push(...geometry.coordinates);
      break;
    case 'GeometryCollection':
      for (const g of geometry.geometries) partsOf(g, parts);
  }
  return parts;
}

/** Signed area (counter-clockwise positive) and first moments of a ring, relative to `o` for precision. */
function ringMoments(ring: Position[], o: Position): { a: number; mx: number; my: number } {
  let a = 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x0, y0] = [ring[i][0] - o[0], ring[i][1] - o[1]];
    const [x1, y1] = [ring[i + 1][0] - o[0], ring[i + 1][1] - o[1]];
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    mx += (x0 + x1) * cross;
    my += (y0 + y1) * cross;
  }
  return { a: a / 2, mx: mx / 6, my: my / 6 };
}

/** The area-weighted centroid of polygons (holes subtracted whatever their orientation), undefined for no area. */
function areaCentroid(polygons: Position[][][]): Position | undefined {
  const o = polygons[0]?.[0]?.[0];
  if (!o) return undefined;
  let area = 0;
  let mx = 0;
  let my = 0;
  for (const rings of polygons) {
    rings.forEach((ring, i) => {
      const m = ringMoments(ring, o);
      // exterior rings count positive, holes negative, whichever way they run
      const sign = (i === 0 ? 1 : -1) * Math.sign(m.a);
      area += sign * m.a;
      mx += sign * m.mx;
      my += sign * m.my;
    });
  }
  return area > 0 ? [o[0] + mx / area, o[1] + my / area] : undefined;
}

/** The length-weighted centroid of lines (the midpoints of their segments), undefined for no length. */
function lineCentroid(lines: Position[][]): Position | undefined {
  let total = 0;
  let sx = 0;
  let sy = 0;
  for (const line of lines)
    for (let i = 0; i + 1 < line.length; i++) {
      const [[x0, y0], [x1, y1]] = [line[i], line[i + 1]];
      const d = Math.hypot(x1 - x0, y1 - y0);
      total += d;
      sx += ((x0 + x1) / 2) * d;
      sy += ((y0 + y1) / 2) * d;
    }
  return total > 0 ? [sx / total, sy / total] : undefined;
}

const mean = (points: Position[]): Position | undefined =>
  points.length
    ? [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length]
    : undefined;

/**
 * The centroid of a geometry in its own coordinates (planar, as GEOS, PostGIS and SpatiaLite
 * compute `ST_Centroid`): the centre of mass of its area when it has one (holes subtracted, the
 * polygons of a multi-geometry weighted by area), else of its lines by length, else the mean of
 * its points. May lie outside a concave area. Undefined for an empty geometry.
 */
export function planarCentroid(geometry: Geometry): Position | undefined {
  const { polygons, lines, points } = partsOf(geometry);
  const rings = polygons.flat();
  return areaCentroid(polygons) ?? lineCentroid([...lines, ...rings]) ?? mean([...points, ...lines.flat(), ...rings.flat()]);
}
