/** Geometry helpers of the tile builder: Web Mercator, ring winding, and whole (unclipped) features in tile coordinates. */

type Position = number[];

/** A feature's geometry projected once: its kind (MVT 1 point, 2 line, 3 polygon), extent in degrees, and parts in Web Mercator units (0–1). */
export interface Parts {
  type: 1 | 2 | 3;
  bbox: [number, number, number, number];
  /** Polygons: their rings; lines: one line each; points: one list of all points. Flat x, y pairs. */
  parts: Float64Array[][];
}

const MAX_LAT = 85.0511287798066;

/** Web Mercator world units (x east, y down), 0–1 across the world. */
export function mercator(lon: number, lat: number): [number, number] {
  const sin = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  return [lon / 360 + 0.5, 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI];
}

const signedArea = (ring: Position[]) => {
  let a = 0;
  for (let i = 1; i < ring.length; i++) a += (ring[i][0] - ring[i - 1][0]) * (ring[i][1] + ring[i - 1][1]);
  return a; // > 0: clockwise (y up)
};
const wind = (ring: Position[], clockwise: boolean) => (signedArea(ring) > 0 === clockwise ? ring : [...ring].reverse());
const rewindPolygon = (rings: Position[][]) => rings.map((r, i) => wind(r, i > 0));

/**
 * The geometry with polygon rings wound as RFC 7946 §3.1.6 asks (outer counterclockwise, holes
 * clockwise), so every tile's exterior rings come out clockwise in tile coordinates as the MVT
 * specification wants, whatever the source wrote.
 */
export function rewound(g: GeoJSON.Geometry): GeoJSON.Geometry {
  if (g.type === 'Polygon') return { ...g, coordinates: rewindPolygon(g.coordinates) };
  if (g.type === 'MultiPolygon') return { ...g, coordinates: g.coordinates.map(rewindPolygon) };
  return g;
}

/** The members of a geometry collection as separate geometries (an MVT feature has one kind); others as they are. */
export function simpleGeometries(g: GeoJSON.Geometry | null): GeoJSON.Geometry[] {
  if (!g) return [];
  return g.type === 'GeometryCollection' ? g.geometries.flatMap(simpleGeometries) : [g];
}

const flat = (ring: Position[]) => {
  const out = new Float64Array(ring.length * 2);
  ring.forEach((p, i) => {
    const [x, y] = mercator(p[0], p[1]);
    out[2 * i] = x;
    out[2 * i + 1] = y;
  });
  return out;
};

/** The parts of a simple geometry (not a collection), or undefined when it has no finite position. */
export function featureParts(g: GeoJSON.Geometry | null): Parts | undefined {
  if (!g || g.type === 'GeometryCollection') return undefined;
  let type: 1 | 2 | 3;
  let groups: Position[][][];
  if (g.type === 'Point') [type, groups] = [1, [[[g.coordinates]]]];
  else if (g.type === 'MultiPoint') [type, groups] = [1, [[g.coordinates]]];
  else if (g.type === 'LineString') [type, groups] = [2, [[g.coordinates]]];
  else if (g.type === 'MultiLineString') [type, groups] = [2, g.coordinates.map((l) => [l])];
  else if (g.type === 'Polygon') [type, groups] = [3, [rewindPolygon(g.coordinates)]];
  else [type, groups] = [3, g.coordinates.map(rewindPolygon)];
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of groups.flat(2)) {
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return undefined;
    w = Math.min(w, p[0]);
    e = Math.max(e, p[0]);
    s = Math.min(s, p[1]);
    n = Math.max(n, p[1]);
  }
  if (w === Infinity) return undefined;
  return { type, bbox: [w, s, e, n], parts: groups.map((rings) => rings.map(flat)) };
}

/**
 * The whole feature in the coordinates of tile z/x/y (0–extent inside the tile, beyond it
 * outside), not clipped and not simplified beyond rounding to the tile grid (repeated positions
 * are merged). Rings and lines that collapse are left out; a polygon whose outer ring collapses
 * goes with its holes.
 */
export function wholeGeometry(
  p: Parts,
  z: number,
  x: number,
  y: number,
  extent: number,
): [number, number][] | [number, number][][] {
  const n = 2 ** z;
  const project = (f: Float64Array) => {
    const out: [number, number][] = [];
    for (let i = 0; i < f.length; i += 2) {
      const pt: [number, number] = [Math.round((f[i] * n - x) * extent), Math.round((f[i + 1] * n - y) * extent)];
      const last = out[out.length - 1];
      if (p.type === 1 || !last || last[0] !== pt[0] || last[1] !== pt[1]) out.push(pt);
    }
    return out;
  };
  if (p.type === 1) return p.parts.flatMap((rings) => rings.flatMap(project));
  const out: [number, number][][] = [];
  for (const rings of p.parts) {
    const projected = rings.map(project);
    if (p.type === 2) out.push(...projected.filter((l) => l.length >= 2));
    else if (projected[0].length >= 4) out.push(...projected.filter((r) => r.length >= 4));
  }
  return out;
}
