import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiError } from '@werkbank/sdk/node';
import { boxPolygon, envelopeOf, intersects, type Geometry, type Position } from '../common/wfs-geometry';
import type { ServedFeature } from './published-layers';

/**
 * The WFS's filters (decision 0083): FES 2.0 (WFS 2.0.0) and Filter Encoding 1.1 (WFS 1.1.0) as the
 * FILTER parameter, read with fast-xml-parser without entities (a DOCTYPE or ENTITY is refused) and
 * within limits of size and depth, into a predicate over the served features.
 */

/** The CRSs the WFS serves and reads, by EPSG code. */
export const WFS_CRS = [4326, 3857, 25832, 25833, 31466, 31467, 31468, 31469];
/** The CRSs whose EPSG axis order is north first (latitude/longitude, northing/easting). */
const NORTH_FIRST = new Set([4326, 31466, 31467, 31468, 31469]);

/** A CRS as a request names it: its EPSG code and whether positions come north first. */
export interface Crs {
  epsg: number;
  /** True for the URN and http forms of north-first CRSs (WFS 2.0, GML 3.2): y before x. */
  swap: boolean;
}

/** A CRS name (`EPSG:25832`, `urn:ogc:def:crs:EPSG::4326`, `http://www.opengis.net/def/crs/EPSG/0/4326`, CRS84) among WFS_CRS. */
export function parseCrs(name: string): Crs | undefined {
  const text = name.trim();
  let m = /^EPSG:(\d{1,6})$/i.exec(text) ?? /^https?:\/\/www\.opengis\.net\/gml\/srs\/epsg\.xml#(\d{1,6})$/i.exec(text);
  let epsg: number | undefined;
  let swap = false;
  if (m) epsg = Number(m[1]);
  else if (
    (m =
      /^urn:(?:x-)?ogc:def:crs:EPSG:[\d.]*:(\d{1,6})$/i.exec(text) ??
      /^https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/[^/]+\/(\d{1,6})$/i.exec(text))
  ) {
    epsg = Number(m[1]);
    swap = NORTH_FIRST.has(epsg);
  } else if (/^(urn:ogc:def:crs:OGC:1\.3:CRS84|https?:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84)$/i.test(text))
    epsg = 4326;
  return epsg !== undefined && WFS_CRS.includes(epsg) ? { epsg, swap } : undefined;
}

export type Filter =
  | { op: 'and' | 'or'; args: Filter[] }
  | { op: 'not'; arg: Filter }
  | { op: 'compare'; kind: 'eq' | 'ne' | 'lt' | 'gt' | 'le' | 'ge'; property: string; value: string; matchCase: boolean }
  | { op: 'like'; property: string; pattern: RegExp }
  | { op: 'null'; property: string }
  | { op: 'between'; property: string; lower: string; upper: string }
  | { op: 'spatial'; kind: 'bbox' | 'intersects'; literal: GmlLiteral; geometry?: Geometry }
  | { op: 'ids'; ids: Set<string> };

/** A GML geometry of a filter as written: x/y positions (already put east first) in `crs`. */
export interface GmlLiteral {
  geometry: Geometry;
  crs: Crs;
  /** An envelope (densified when reprojected). */
  box?: [number, number, number, number];
}

/** Limits that keep a filter from costing much: characters, element depth, elements, positions. */
export const FILTER_LIMITS = { chars: 100_000, depth: 32, elements: 2_000, positions: 10_000 };

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

const problem = (key: string, params: Record<string, unknown> = {}) =>
  ApiError.badRequest('invalid_parameter', `services:wfs.${key}`, params, 'filter');

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
});

/** The five XML entities and character references (nothing else is ever expanded). */
function decode(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-f]{1,6});/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (e[0] !== '#') return named[e.toLowerCase()];
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Depth of the element nesting, counted without parsing (so a deep document never reaches the parser). */
function nesting(xml: string): number {
  let depth = 0;
  let max = 0;
  const tags = /<(\/?)([^\s>/!?]*)[^>]*?(\/?)>/g;
  for (let m = tags.exec(xml); m; m = tags.exec(xml)) {
    if (m[0][1] === '!' || m[0][1] === '?') continue;
    if (m[1]) depth--;
    else if (!m[3]) max = Math.max(max, ++depth);
  }
  return max;
}

function toElements(nodes: unknown[], count: { n: number }): El[] {
  const out: El[] = [];
  for (const node of nodes as Array<Record<string, unknown>>) {
    const name = Object.keys(node).find((k) => k !== ':@');
    if (!name || name === '#text' || name === '#comment') continue;
    if (++count.n > FILTER_LIMITS.elements) throw problem('filter_too_large');
    const kids = (node[name] as unknown[]) ?? [];
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries((node[':@'] as Record<string, string>) ?? {})) attrs[k.replace(/^.*:/, '')] = decode(v);
    const text = (kids as Array<Record<string, unknown>>)
      .filter((k) => '#text' in k)
      .map((k) => decode(String(k['#text'])))
      .join('');
    out.push({ name, attrs, children: toElements(kids, count), text });
  }
  return out;
}

/** Reads a FILTER parameter into a filter; `defaultCrs` for geometries without srsName. */
export function parseFilter(xml: string, defaultCrs: Crs): Filter {
  if (xml.length > FILTER_LIMITS.chars) throw problem('filter_too_large');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw problem('filter_entity');
  if (nesting(xml) > FILTER_LIMITS.depth) throw problem('filter_too_large');
  if (XMLValidator.validate(xml) !== true) throw problem('filter_malformed');
  let parsed: unknown[];
  try {
    parsed = parser.parse(xml) as unknown[];
  } catch {
    throw problem('filter_malformed');
  }
  const roots = toElements(parsed, { n: 0 });
  if (roots.length !== 1 || roots[0].name !== 'Filter') throw problem('filter_malformed');
  const ops = roots[0].children;
  if (!ops.length) throw problem('filter_malformed');
  const ids = ops.filter((e) => ID_ELEMENTS.has(e.name));
  if (ids.length) {
    if (ids.length !== ops.length) throw problem('filter_malformed');
    return { op: 'ids', ids: new Set(ids.map(idOf)) };
  }
  if (ops.length !== 1) throw problem('filter_malformed');
  return operator(ops[0], defaultCrs, { positions: 0 });
}

const ID_ELEMENTS = new Set(['ResourceId', 'FeatureId', 'GmlObjectId']);
function idOf(e: El): string {
  const id = e.attrs.rid ?? e.attrs.fid ?? e.attrs.id;
  if (!id) throw problem('filter_malformed');
  return id;
}

const COMPARE: Record<string, 'eq' | 'ne' | 'lt' | 'gt' | 'le' | 'ge'> = {
  PropertyIsEqualTo: 'eq',
  PropertyIsNotEqualTo: 'ne',
  PropertyIsLessThan: 'lt',
  PropertyIsGreaterThan: 'gt',
  PropertyIsLessThanOrEqualTo: 'le',
  PropertyIsGreaterThanOrEqualTo: 'ge',
};

/** A property name as filters give it: without a namespace prefix or an XPath's leading steps. */
function propertyOf(e: El | undefined): string {
  const name = e?.text.trim();
  if (!e || (e.name !== 'ValueReference' && e.name !== 'PropertyName') || !name) throw problem('filter_malformed');
  return name.replace(/^.*\//, '').replace(/^[^:]*:/, '');
}

function literalOf(e: El | undefined): string {
  if (!e || e.name !== 'Literal') throw problem('filter_malformed');
  return e.text;
}

function operator(e: El, defaultCrs: Crs, budget: { positions: number }): Filter {
  const kids = e.children;
  if (e.name === 'And' || e.name === 'Or') {
    if (kids.length < 2) throw problem('filter_malformed');
    return { op: e.name === 'And' ? 'and' : 'or', args: kids.map((k) => operator(k, defaultCrs, budget)) };
  }
  if (e.name === 'Not') {
    if (kids.length !== 1) throw problem('filter_malformed');
    return { op: 'not', arg: operator(kids[0], defaultCrs, budget) };
  }
  const kind = COMPARE[e.name];
  if (kind) {
    if (kids.length !== 2) throw problem('filter_malformed');
    const [a, b] = kids[0].name === 'Literal' ? [kids[1], kids[0]] : [kids[0], kids[1]];
    const flip: Record<string, typeof kind> = { lt: 'gt', gt: 'lt', le: 'ge', ge: 'le', eq: 'eq', ne: 'ne' };
    return {
      op: 'compare',
      kind: kids[0].name === 'Literal' ? flip[kind] : kind,
      property: propertyOf(a),
      value: literalOf(b),
      matchCase: e.attrs.matchCase !== 'false',
    };
  }
  if (e.name === 'PropertyIsLike') {
    if (kids.length !== 2) throw problem('filter_malformed');
    const wild = e.attrs.wildCard ?? '*';
    const single = e.attrs.singleChar ?? '.';
    const escape = e.attrs.escapeChar ?? e.attrs.escape ?? '\\';
    return {
      op: 'like',
      property: propertyOf(kids[0]),
      pattern: likePattern(literalOf(kids[1]), wild, single, escape, e.attrs.matchCase !== 'false'),
    };
  }
  if (e.name === 'PropertyIsNull' || e.name === 'PropertyIsNil') {
    if (kids.length !== 1) throw problem('filter_malformed');
    return { op: 'null', property: propertyOf(kids[0]) };
  }
  if (e.name === 'PropertyIsBetween') {
    const lower = kids.find((k) => k.name === 'LowerBoundary')?.children[0];
    const upper = kids.find((k) => k.name === 'UpperBoundary')?.children[0];
    if (kids.length !== 3) throw problem('filter_malformed');
    return { op: 'between', property: propertyOf(kids[0]), lower: literalOf(lower), upper: literalOf(upper) };
  }
  if (e.name === 'BBOX' || e.name === 'Intersects') {
    // The property is optional for BBOX; there is only one geometry per feature.
    const geometry = kids.filter((k) => k.name !== 'ValueReference' && k.name !== 'PropertyName');
    if (geometry.length !== 1 || kids.length > 2) throw problem('filter_malformed');
    const literal = gmlLiteral(geometry[0], defaultCrs, budget);
    if (e.name === 'BBOX' && !literal.box) literal.box = envelopeOf(literal.geometry);
    return { op: 'spatial', kind: e.name === 'BBOX' ? 'bbox' : 'intersects', literal };
  }
  throw problem('filter_unsupported', { operator: e.name.slice(0, 60) });
}

function likePattern(text: string, wild: string, single: string, escape: string, matchCase: boolean): RegExp {
  let re = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === escape && i + 1 < chars.length) re += chars[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === wild) re += '.*';
    else if (c === single) re += '.';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, matchCase ? 's' : 'is');
}

/** A GML geometry (Envelope, Point, LineString, Polygon and their multi forms) in x/y order. */
function gmlLiteral(e: El, defaultCrs: Crs, budget: { positions: number }): GmlLiteral {
  const srs = e.attrs.srsName;
  const crs = srs ? parseCrs(srs) : defaultCrs;
  if (!crs) throw ApiError.badRequest('invalid_parameter', 'services:wfs.crs_unknown', { crs: srs!.slice(0, 100) }, 'filter');
  const dims = Number(e.attrs.srsDimension ?? 2) === 3 ? 3 : 2;
  const positions = (text: string): Position[] => {
    const nums = text
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (nums.some((n) => !Number.isFinite(n)) || nums.length % dims || !nums.length) throw problem('filter_geometry');
    budget.positions += nums.length / dims;
    if (budget.positions > FILTER_LIMITS.positions) throw problem('filter_too_large');
    const out: Position[] = [];
    for (let i = 0; i < nums.length; i += dims) out.push(crs.swap ? [nums[i + 1], nums[i]] : [nums[i], nums[i + 1]]);
    return out;
  };
  const child = (el: El, name: string) => el.children.find((k) => k.name === name);
  const line = (el: El): Position[] => {
    const list = child(el, 'posList') ?? child(el, 'coordinates');
    if (list) return positions(list.text);
    const pos = el.children.filter((k) => k.name === 'pos');
    if (!pos.length) throw problem('filter_geometry');
    return pos.flatMap((p) => positions(p.text));
  };
  const ring = (holder: El | undefined): Position[] => {
    const r = holder && (child(holder, 'LinearRing') ?? holder);
    if (!r) throw problem('filter_geometry');
    const ps = line(r);
    if (ps.length < 4) throw problem('filter_geometry');
    return ps;
  };
  const polygon = (el: El): Position[][] => [
    ring(child(el, 'exterior') ?? child(el, 'outerBoundaryIs')),
    ...el.children.filter((k) => k.name === 'interior' || k.name === 'innerBoundaryIs').map(ring),
  ];
  const members = (el: El, names: string[]) =>
    el.children
      .filter((k) => names.includes(k.name))
      .flatMap((m) => (m.name.endsWith('Members') ? m.children : m.children.slice(0, 1)));
  switch (e.name) {
    case 'Envelope':
    case 'Box': {
      const lower = child(e, 'lowerCorner');
      const upper = child(e, 'upperCorner');
      const corners = lower && upper ? [...positions(lower.text), ...positions(upper.text)] : line(e);
      if (corners.length !== 2) throw problem('filter_geometry');
      const [[w, s], [east, n]] = corners;
      if (w > east || s > n) throw problem('filter_geometry');
      const box: [number, number, number, number] = [w, s, east, n];
      return { geometry: boxPolygon(box), crs, box };
    }
    case 'Point': {
      const pos = child(e, 'pos') ?? child(e, 'coordinates');
      const ps = pos ? positions(pos.text) : [];
      if (ps.length !== 1) throw problem('filter_geometry');
      return { geometry: { type: 'Point', coordinates: ps[0] }, crs };
    }
    case 'LineString':
      return { geometry: { type: 'LineString', coordinates: line(e) }, crs };
    case 'Polygon':
      return { geometry: { type: 'Polygon', coordinates: polygon(e) }, crs };
    case 'MultiPoint':
      return {
        geometry: { type: 'MultiPoint', coordinates: members(e, ['pointMember', 'pointMembers']).map((p) => line(p)[0]) },
        crs,
      };
    case 'MultiCurve':
    case 'MultiLineString':
      return {
        geometry: {
          type: 'MultiLineString',
          coordinates: members(e, ['curveMember', 'curveMembers', 'lineStringMember']).map(line),
        },
        crs,
      };
    case 'MultiSurface':
    case 'MultiPolygon':
      return {
        geometry: {
          type: 'MultiPolygon',
          coordinates: members(e, ['surfaceMember', 'surfaceMembers', 'polygonMember']).map(polygon),
        },
        crs,
      };
  }
  throw problem('filter_geometry');
}

/**
 * Puts the filter's geometries into EPSG:4326 with `toWgs84(crs)` (a reprojector for the CRS, not
 * called for EPSG:4326). Envelopes in other CRSs are densified first, so their bent edges count.
 */
export async function resolveGeometries(
  filter: Filter,
  toWgs84: (epsg: number) => Promise<(feature: unknown, index: number) => Record<string, unknown>>,
): Promise<void> {
  if (filter.op === 'and' || filter.op === 'or') for (const f of filter.args) await resolveGeometries(f, toWgs84);
  else if (filter.op === 'not') await resolveGeometries(filter.arg, toWgs84);
  else if (filter.op === 'spatial') {
    const { literal } = filter;
    if (literal.crs.epsg === 4326) {
      filter.geometry = literal.geometry;
      return;
    }
    const source = literal.box ? boxPolygon(literal.box, 16) : literal.geometry;
    const project = await toWgs84(literal.crs.epsg);
    let out: Record<string, unknown>;
    try {
      out = project({ type: 'Feature', geometry: source, properties: {} }, 0);
    } catch {
      throw problem('filter_geometry');
    }
    filter.geometry = out.geometry as Geometry;
  }
}

/** A window for the spatial index that holds every feature the filter may match (undefined: all). */
export function windowOf(filter: Filter | undefined): [number, number, number, number] | undefined {
  if (!filter) return undefined;
  if (filter.op === 'spatial') return envelopeOf(filter.geometry);
  if (filter.op === 'and') {
    for (const f of filter.args) {
      const w = windowOf(f);
      if (w) return w;
    }
  }
  return undefined;
}

/** The value of a property by its name in the service (property names are made XML names, see xmlName). */
function valueOf(feature: ServedFeature, property: string): unknown {
  const props = feature.properties ?? {};
  if (Object.hasOwn(props, property)) return props[property];
  for (const key of Object.keys(props)) if (xmlName(key) === property) return props[key];
  return undefined;
}

function compare(v: unknown, literal: string, matchCase = true): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') {
    const n = Number(literal);
    if (literal.trim() !== '' && Number.isFinite(n)) return v < n ? -1 : v > n ? 1 : 0;
  }
  let a = typeof v === 'object' ? JSON.stringify(v) : String(v);
  let b = literal;
  if (!matchCase) [a, b] = [a.toLowerCase(), b.toLowerCase()];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a served feature (EPSG:4326) meets the filter; `typeName` for the gml:id form of ids. */
export function matches(filter: Filter, feature: ServedFeature, typeName: string): boolean {
  switch (filter.op) {
    case 'and':
      return filter.args.every((f) => matches(f, feature, typeName));
    case 'or':
      return filter.args.some((f) => matches(f, feature, typeName));
    case 'not':
      return !matches(filter.arg, feature, typeName);
    case 'compare': {
      const c = compare(valueOf(feature, filter.property), filter.value, filter.matchCase);
      if (c === undefined) return false;
      return { eq: c === 0, ne: c !== 0, lt: c < 0, gt: c > 0, le: c <= 0, ge: c >= 0 }[filter.kind];
    }
    case 'like': {
      const v = valueOf(feature, filter.property);
      return v !== null && v !== undefined && filter.pattern.test(typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    case 'null': {
      const v = valueOf(feature, filter.property);
      return v === null || v === undefined;
    }
    case 'between': {
      const v = valueOf(feature, filter.property);
      const lo = compare(v, filter.lower);
      const hi = compare(v, filter.upper);
      return lo !== undefined && hi !== undefined && lo >= 0 && hi <= 0;
    }
    case 'spatial':
      return intersects(feature.geometry as Geometry | null, filter.geometry);
    case 'ids':
      return filter.ids.has(gmlId(typeName, feature.id)) || filter.ids.has(String(feature.id));
  }
}

/** A property name as an XML element name (NCName): other characters become `_`; `geometry` is the geometry's. */
export function xmlName(name: string): string {
  let out = name.replace(/[^A-Za-z0-9_.\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF]/g, '_');
  if (!/^[A-Za-z_\u00C0-\u1FFF]/.test(out)) out = `_${out}`;
  return out === 'geometry' || /^xml/i.test(out) ? `_${out}` : out;
}

/** A feature's gml:id (also its resource id): the type name, a dot and its id made an XML name. */
export function gmlId(typeName: string, id: string | number): string {
  return `${typeName}.${String(id).replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}
