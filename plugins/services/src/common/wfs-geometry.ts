/**
 * Planar geometry tests for the WFS filters (decision 0083): whether two GeoJSON geometries share a
 * point, in the coordinates they are given in (EPSG:4326 degrees for the served features).
 */

export type Position = number[];
export interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

/** A geometry taken apart: its single positions, its segments and its polygons' rings. */
interface Parts {
  points: Position[];
  segments: Array<[Position, Position]>;
  /** Each polygon as its rings (the first the outer one). */
  polygons: Position[][][];
  /** [west, south, east, north]; undefined when empty. */
  box?: [number, number, number, number];
}

function extend(parts: Parts, p: Position): void {
  const [x, y] = p;
  const b = parts.box;
  if (!b) parts.box = [x, y, x, y];
  else {
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  }
}

const isPosition = (p: unknown): p is Position =>
  Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number';

function addLine(parts: Parts, line: unknown): void {
  if (!Array.isArray(line)) return;
  const ps = line.filter(isPosition);
  for (const p of ps) extend(parts, p);
  if (ps.length === 1) parts.points.push(ps[0]);
  for (let i = 1; i < ps.length; i++) parts.segments.push([ps[i - 1], ps[i]]);
}

function collect(g: Geometry | null | undefined, parts: Parts, depth = 0): void {
  if (!g || depth > 8) return;
  const c = g.coordinates as unknown;
  switch (g.type) {
    case 'Point':
      if (isPosition(c)) {
        parts.points.push(c);
        extend(parts, c);
      }
      break;
    case 'MultiPoint':
      if (Array.isArray(c))
        for (const p of c)
          if (isPosition(p)) {
            parts.points.push(p);
            extend(parts, p);
          }
      break;
    case 'LineString':
      addLine(parts, c);
      break;
    case 'MultiLineString':
      if (Array.isArray(c)) for (const l of c) addLine(parts, l);
      break;
    case 'Polygon':
      addPolygon(parts, c);
      break;
    case 'MultiPolygon':
      if (Array.isArray(c)) for (const poly of c) addPolygon(parts, poly);
      break;
    case 'GeometryCollection':
      for (const member of g.geometries ?? []) collect(member, parts, depth + 1);
      break;
  }
}

function addPolygon(parts: Parts, rings: unknown): void {
  if (!Array.isArray(rings)) return;
  const poly: Position[][] = [];
  for (const ring of rings) {
    if (!Array.isArray(ring)) continue;
    addLine(parts, ring);
    poly.push(ring.filter(isPosition));
  }
  if (poly.length) parts.polygons.push(poly);
}

/** The parts of geometries met again and again (a filter's), so they are taken apart once. */
const prepared = new WeakMap<Geometry, Parts>();

function partsOf(g: Geometry | null | undefined): Parts {
  const parts: Parts = { points: [], segments: [], polygons: [] };
  collect(g, parts);
  return parts;
}

/** Whether p lies inside the polygon (even-odd over its rings, so holes are outside). */
function inPolygon(p: Position, rings: Position[][]): boolean {
  const [x, y] = p;
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

const cross = (o: Position, a: Position, b: Position) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
const within = (a: number, b: number, v: number) => Math.min(a, b) <= v && v <= Math.max(a, b);
const onSegment = (p: Position, a: Position, b: Position) =>
  cross(a, b, p) === 0 && within(a[0], b[0], p[0]) && within(a[1], b[1], p[1]);

function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b);
}

const samePoint = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** Whether the geometries share at least one point (OGC Intersects), planar; `gb` is taken apart once and kept. */
export function intersects(ga: Geometry | null | undefined, gb: Geometry | null | undefined): boolean {
  const a = partsOf(ga);
  let b = gb ? prepared.get(gb) : undefined;
  if (!b) {
    b = partsOf(gb);
    if (gb) prepared.set(gb, b);
  }
  if (!a.box || !b.box) return false;
  if (a.box[0] > b.box[2] || b.box[0] > a.box[2] || a.box[1] > b.box[3] || b.box[1] > a.box[3]) return false;
  for (const p of a.points) {
    if (b.points.some((q) => samePoint(p, q))) return true;
    if (b.segments.some(([c, d]) => onSegment(p, c, d))) return true;
    if (b.polygons.some((poly) => inPolygon(p, poly))) return true;
  }
  for (const q of b.points) {
    if (a.segments.some(([c, d]) => onSegment(q, c, d))) return true;
    if (a.polygons.some((poly) => inPolygon(q, poly))) return true;
  }
  for (const [p1, p2] of a.segments) if (b.segments.some(([c, d]) => segmentsMeet(p1, p2, c, d))) return true;
  // One inside the other without crossing edges: a vertex of one lies in a polygon of the other.
  for (const poly of b.polygons) if (a.segments.some(([p]) => inPolygon(p, poly))) return true;
  for (const poly of a.polygons) if (b.segments.some(([p]) => inPolygon(p, poly))) return true;
  return false;
}

/** The [west, south, east, north] of a geometry, undefined when it has no position. */
export function envelopeOf(g: Geometry | null | undefined): [number, number, number, number] | undefined {
  return partsOf(g).box;
}

/** A rectangle as a polygon, each edge split into `steps` pieces (so it bends when reprojected). */
export function boxPolygon([w, s, e, n]: [number, number, number, number], steps = 1): Geometry {
  const ring: Position[] = [];
  const edge = (x0: number, y0: number, x1: number, y1: number) => {
    for (let i = 0; i < steps; i++) ring.push([x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps]);
  };
  edge(w, s, e, s);
  edge(e, s, e, n);
  edge(e, n, w, n);
  edge(w, n, w, s);
  ring.push([w, s]);
  return { type: 'Polygon', coordinates: [ring] };
}
