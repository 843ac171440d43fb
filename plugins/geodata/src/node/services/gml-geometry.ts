import { attr, child, children, textOf, type XmlNode } from './service-xml';
import { servicesFailure } from './services-failure';

/** A GeoJSON geometry as GML gives it: positions in the order the document writes them. */
export interface GmlGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: GmlGeometry[];
}

/** The GML geometry elements (GML 2, 3.1 and 3.2) this reader turns into GeoJSON. */
export const GML_GEOMETRIES = new Set([
  'Point',
  'LineString',
  'LinearRing',
  'Curve',
  'Polygon',
  'Surface',
  'MultiPoint',
  'MultiLineString',
  'MultiCurve',
  'MultiPolygon',
  'MultiSurface',
  'MultiGeometry',
  'CompositeCurve',
  'CompositeSurface',
  'Envelope',
]);

/** Where a geometry is read: the feature index for messages, the srsName and srsDimension inherited. */
export interface GmlScope {
  index: number;
  srsName: string;
  dimension: number;
}

type Position = number[];

/** The geometry element among `node`'s children (a geometry property), or undefined. */
export function findGeometry(node: XmlNode): { type: string; element: XmlNode } | undefined {
  for (const [key, value] of Object.entries(node)) {
    if (GML_GEOMETRIES.has(key) && typeof value === 'object' && value !== null)
      return { type: key, element: (Array.isArray(value) ? value[0] : value) as XmlNode };
  }
  return undefined;
}

/** The srsName a geometry element declares, else the inherited one. */
export function srsOf(element: XmlNode, scope: GmlScope): GmlScope {
  const srsName = attr(element, 'srsName') || scope.srsName;
  const dimension = Number(attr(element, 'srsDimension')) || scope.dimension;
  return { ...scope, srsName, dimension };
}

/**
 * The GeoJSON geometry of a GML geometry element: Point, LineString, Curve (LineStringSegments),
 * Polygon and Surface (exterior/interior and GML 2's outerBoundaryIs/innerBoundaryIs), MultiPoint,
 * MultiLineString/MultiCurve, MultiPolygon/MultiSurface (member and members forms), MultiGeometry
 * as a GeometryCollection, CompositeCurve (joined) and CompositeSurface, Envelope as a Polygon.
 * Positions come from pos, posList, coordinates and coord. Throws
 * `gml_geometry_invalid` naming the feature index and the element.
 */
export function readGeometry(type: string, element: XmlNode, outer: GmlScope): GmlGeometry {
  const scope = srsOf(element, outer);
  const invalid = (detail: string) => servicesFailure('gml_geometry_invalid', { index: scope.index, type, detail });
  switch (type) {
    case 'Point': {
      const [p] = positions(element, scope, invalid);
      if (!p) throw invalid('no position');
      return { type: 'Point', coordinates: p };
    }
    case 'LineString':
    case 'LinearRing':
      return { type: 'LineString', coordinates: line(element, scope, invalid) };
    case 'Curve':
      return { type: 'LineString', coordinates: curve(element, scope, invalid) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: polygon(element, scope, invalid) };
    case 'Surface':
      return surface(element, scope, invalid);
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: members(element, 'point', scope).map((g) => g.coordinates) };
    case 'MultiLineString':
    case 'MultiCurve':
      return {
        type: 'MultiLineString',
        coordinates: members(element, type === 'MultiCurve' ? 'curve' : 'lineString', scope).map((g) => g.coordinates),
      };
    case 'MultiPolygon':
    case 'MultiSurface':
      return {
        type: 'MultiPolygon',
        coordinates: members(element, type === 'MultiSurface' ? 'surface' : 'polygon', scope).flatMap((g) =>
          g.type === 'MultiPolygon' ? (g.coordinates as unknown[]) : [g.coordinates],
        ),
      };
    case 'CompositeCurve':
      return {
        type: 'LineString',
        coordinates: joined(members(element, 'curve', scope).map((g) => g.coordinates as Position[])),
      };
    case 'CompositeSurface':
      return readGeometry('MultiSurface', element, outer);
    case 'Envelope':
      return envelope(element, scope, invalid);
    case 'MultiGeometry':
      return { type: 'GeometryCollection', geometries: members(element, 'geometry', scope) };
    default:
      throw invalid('unknown geometry type');
  }
}

/** The geometries of `<xMember>` elements (one each) and of a `<xMembers>` element (any number). */
function members(element: XmlNode, kind: string, scope: GmlScope): GmlGeometry[] {
  const result: GmlGeometry[] = [];
  const collect = (holder: XmlNode) => {
    for (const [key, value] of Object.entries(holder)) {
      if (!GML_GEOMETRIES.has(key)) continue;
      for (const g of Array.isArray(value) ? value : [value]) result.push(readGeometry(key, g as XmlNode, scope));
    }
  };
  for (const member of children(element, `${kind}Member`)) collect(member);
  for (const holder of children(element, `${kind}Members`)) collect(holder);
  return result;
}

type Invalid = (detail: string) => Error;

/** The positions of a LineString or LinearRing: posList, a list of pos or coord, or coordinates. */
function line(element: XmlNode, scope: GmlScope, invalid: Invalid): Position[] {
  const ps = positions(element, scope, invalid);
  if (ps.length < 2) throw invalid('fewer than two positions');
  return ps;
}

/** A GML 3 Curve: its LineStringSegments (or other segments' control points) joined. */
function curve(element: XmlNode, scope: GmlScope, invalid: Invalid): Position[] {
  const lines: Position[][] = [];
  for (const segments of children(element, 'segments'))
    for (const [key, value] of Object.entries(segments)) {
      if (key.startsWith('@_')) continue;
      for (const segment of Array.isArray(value) ? value : [value])
        lines.push(positions(segment as XmlNode, srsOf(segment as XmlNode, scope), invalid));
    }
  const all = joined(lines);
  if (all.length < 2) throw invalid('fewer than two positions');
  return all;
}

/** Lines joined end to start, a shared end position once. */
function joined(lines: Position[][]): Position[] {
  const all: Position[] = [];
  for (const line of lines) {
    const last = all[all.length - 1];
    const first = line[0];
    all.push(...(last && first && last.every((v, i) => v === first[i]) ? line.slice(1) : line));
  }
  return all;
}

/** An Envelope (lowerCorner, upperCorner) as the Polygon of its four corners. */
function envelope(element: XmlNode, scope: GmlScope, invalid: Invalid): GmlGeometry {
  const corner = (name: string) => numbers(textOf(child(element, name)), invalid);
  const [lower, upper] = [corner('lowerCorner'), corner('upperCorner')];
  if (lower.length < 2 || upper.length < 2) throw invalid('an Envelope needs lowerCorner and upperCorner');
  const [x0, y0, x1, y1] = [lower[0], lower[1], upper[0], upper[1]];
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

/** The rings of a Polygon: exterior (outerBoundaryIs) first, then interiors (innerBoundaryIs). */
function polygon(element: XmlNode, scope: GmlScope, invalid: Invalid): Position[][] {
  const outer = [...children(element, 'exterior'), ...children(element, 'outerBoundaryIs')];
  const inner = [...children(element, 'interior'), ...children(element, 'innerBoundaryIs')];
  if (outer.length !== 1) throw invalid('no exterior ring');
  return [...outer, ...inner].map((boundary) => ring(boundary, scope, invalid));
}

/** One ring: a LinearRing (or a Ring of curve members) inside a boundary element; closed, ≥ 4 positions. */
function ring(boundary: XmlNode, scope: GmlScope, invalid: Invalid): Position[] {
  const linear = child(boundary, 'LinearRing');
  let ps: Position[];
  if (linear) ps = positions(linear, srsOf(linear, scope), invalid);
  else {
    const r = child(boundary, 'Ring');
    if (!r) throw invalid('no LinearRing');
    ps = joined(members(r, 'curve', srsOf(r, scope)).map((g) => g.coordinates as Position[]));
  }
  if (ps.length < 4) throw invalid('a ring needs at least four positions');
  return ps;
}

/** A GML 3 Surface: its PolygonPatches as a Polygon (one patch) or a MultiPolygon. */
function surface(element: XmlNode, scope: GmlScope, invalid: Invalid): GmlGeometry {
  const patches = children(element, 'patches').flatMap((p) => children(p, 'PolygonPatch'));
  if (!patches.length) throw invalid('no PolygonPatch');
  const polygons = patches.map((p) => polygon(p, srsOf(p, scope), invalid));
  return polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
}

/** The positions an element holds in any of GML's notations. */
function positions(element: XmlNode, outer: GmlScope, invalid: Invalid): Position[] {
  const posList = child(element, 'posList');
  if (posList)
    return grouped(numbers(textOf(posList), invalid), Number(attr(posList, 'srsDimension')) || outer.dimension, invalid);
  const pos = children(element, 'pos');
  if (pos.length)
    return pos.map((p) => {
      const ns = numbers(textOf(p), invalid);
      if (ns.length < 2) throw invalid('a pos needs two numbers');
      return ns;
    });
  const coordinates = child(element, 'coordinates');
  if (coordinates) return fromCoordinates(coordinates, invalid);
  const coords = children(element, 'coord');
  return coords.map((c) => {
    const p = ['X', 'Y', 'Z']
      .map((axis) => textOf(child(c, axis)))
      .filter(Boolean)
      .map(Number);
    if (p.length < 2 || !p.every(Number.isFinite)) throw invalid('a coord needs X and Y');
    return p;
  });
}

/** Whitespace-separated numbers; `invalid` for a word that is none. */
function numbers(text: string, invalid: Invalid): number[] {
  if (!text) return [];
  return text.split(/\s+/).map((word) => {
    const n = Number(word);
    if (!Number.isFinite(n)) throw invalid(`“${word.slice(0, 40)}” is no number`);
    return n;
  });
}

/** A flat posList in positions of `dimension` values. */
function grouped(values: number[], dimension: number, invalid: Invalid): Position[] {
  if (dimension < 2 || values.length % dimension !== 0)
    throw invalid(`${values.length} values are no list of positions with ${dimension} values each`);
  const result: Position[] = [];
  for (let i = 0; i < values.length; i += dimension) result.push(values.slice(i, i + dimension));
  return result;
}

/** GML 2 `<coordinates>` with its separators (cs ',' between values, ts ' ' between tuples, decimal '.'). */
function fromCoordinates(element: XmlNode, invalid: Invalid): Position[] {
  const cs = attr(element, 'cs') || ',';
  const ts = attr(element, 'ts') || ' ';
  const decimal = attr(element, 'decimal') || '.';
  const text = textOf(element);
  const tuples = (ts.trim() === '' ? text.split(/\s+/) : text.split(ts)).map((t) => t.trim()).filter(Boolean);
  return tuples.map((tuple) => {
    const values = tuple.split(cs).map((v) => Number(decimal === '.' ? v.trim() : v.trim().split(decimal).join('.')));
    if (values.length < 2 || !values.every(Number.isFinite)) throw invalid(`“${tuple.slice(0, 40)}” is no coordinate tuple`);
    return values;
  });
}
