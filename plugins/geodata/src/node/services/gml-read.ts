import type { FunctionRunContext } from '@werkbank/sdk/node';
import { yieldToLoop } from '../vector/vector-params';
import { attr, checkXml, child, children, parseChecked, textOf, throwIfException, type XmlNode } from './service-xml';
import { rootChildren, rootName } from './xml-outline';
import { findGeometry, readGeometry, type GmlGeometry, type GmlScope } from './gml-geometry';
import { servicesFailure } from './services-failure';

/** One feature read from GML, before its positions are put in x, y order. */
export interface GmlFeature {
  id?: string;
  geometry: GmlGeometry | null;
  properties: Record<string, unknown>;
  /** The srsName of the geometry ('' when the document names none). */
  srsName: string;
  /** The local name of the feature's element (its feature type, e.g. `orte`). */
  featureType?: string;
}

/** Collection roots: GML's, WFS 1.x's and 2.0's, and those GDAL writes (`ogr:FeatureCollection`). */
const COLLECTIONS = new Set(['FeatureCollection', 'SimpleFeatureCollection']);
/** The elements of a collection that hold its features. */
const MEMBERS = new Set(['featureMember', 'member', 'featureMembers']);
/** Feature properties that describe the feature in GML itself rather than its attributes. */
const SKIPPED = new Set(['boundedBy', 'location']);
/** Members parsed between two checks of the abort signal. */
const MEMBERS_PER_YIELD = 500;

/**
 * The features of a GML FeatureCollection (GML 2, 3.1, 3.2; wfs:FeatureCollection of WFS 1.1 and
 * 2.0): members in `featureMember`, `featureMembers`, `member` (nested collections of WFS 2.0
 * joins included). Attributes become properties (numbers in canonical form become numbers, others
 * stay text; xsi:nil is null; repeated elements are lists); the first geometry property is the
 * geometry. The text is checked whole (checkXml) and parsed member by member, with abort checks
 * in between. Throws `service_exception` for an OWS exception report, `gml_no_collection` for
 * another root, `gml_geometry_invalid` naming the feature index and `too_many_features` past
 * `maxFeatures`.
 */
export async function readGml(text: string, source: string, maxFeatures: number, ctx: FunctionRunContext): Promise<GmlFeature[]> {
  checkXml(text, source);
  const root = rootName(text);
  if (!COLLECTIONS.has(root)) {
    const doc = parseChecked(text, source);
    throwIfException(doc, source);
    throw servicesFailure('gml_no_collection', { source, root: doc.root });
  }
  const features: GmlFeature[] = [];
  let srsName = '';
  let parsed = 0;
  for (const span of rootChildren(text)) {
    if (span.name !== 'boundedBy' && !MEMBERS.has(span.name)) continue;
    const element = parseChecked(text.slice(span.start, span.end), source).node;
    if (span.name === 'boundedBy') srsName = envelopeSrs(element);
    else collectMember(element, srsName, features, maxFeatures, source);
    if (++parsed % MEMBERS_PER_YIELD === 0) await yieldToLoop(ctx);
  }
  return features;
}

/** The features of one member element (one feature, or several in featureMembers, or a nested collection). */
function collectMember(member: XmlNode, srsName: string, out: GmlFeature[], max: number, source: string): void {
  for (const [type, value] of Object.entries(member)) {
    if (type.startsWith('@_') || type.startsWith('#')) continue;
    for (const element of Array.isArray(value) ? value : [value]) {
      if (typeof element !== 'object' || element === null) continue;
      if (COLLECTIONS.has(type)) {
        const nested = element as XmlNode;
        const srs = collectionSrs(nested) || srsName;
        for (const name of MEMBERS) for (const m of children(nested, name)) collectMember(m, srs, out, max, source);
        continue;
      }
      if (out.length >= max) throw servicesFailure('too_many_features', { source, limit: max });
      out.push({ ...feature(element as XmlNode, { index: out.length, srsName, dimension: 2 }), featureType: type });
    }
  }
}

/** The srsName of a boundedBy element's Envelope (GML 3) or Box (GML 2), '' when none. */
function envelopeSrs(box: XmlNode | undefined): string {
  return attr(child(box, 'Envelope'), 'srsName') || attr(child(box, 'Box'), 'srsName');
}

/** The srsName of a collection's (or feature's) boundedBy, '' when none. */
function collectionSrs(node: XmlNode): string {
  return envelopeSrs(child(node, 'boundedBy'));
}

function feature(element: XmlNode, outer: GmlScope): GmlFeature {
  const scope = { ...outer, srsName: collectionSrs(element) || outer.srsName };
  const properties = new Map<string, unknown[]>();
  let geometry: GmlGeometry | null = null;
  let srsName = scope.srsName;
  for (const [key, value] of Object.entries(element)) {
    if (key.startsWith('@_') || key.startsWith('#') || SKIPPED.has(key)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const found = typeof item === 'object' && item !== null ? findGeometry(item as XmlNode) : undefined;
      if (found && !geometry) {
        geometry = readGeometry(found.type, found.element, scope);
        srsName = attr(found.element, 'srsName') || scope.srsName;
      } else if (found) addProperty(properties, key, readGeometry(found.type, found.element, scope));
      else addProperty(properties, key, propertyValue(item));
    }
  }
  const id = attr(element, 'id') || attr(element, 'fid');
  return { ...(id ? { id } : {}), geometry, properties: flatten(properties), srsName };
}

/** Collects the values of elements by name. */
function addProperty(properties: Map<string, unknown[]>, key: string, value: unknown): void {
  const values = properties.get(key);
  if (values) values.push(value);
  else properties.set(key, [value]);
}

/** One value per name; repeated elements of one name become a list. */
function flatten(properties: Map<string, unknown[]>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, values] of properties) result[key] = values.length === 1 ? values[0] : values;
  return result;
}

/** A property element's value: null for xsi:nil, a number in canonical form, text, or nested values. */
function propertyValue(item: unknown): unknown {
  if (item === null || item === undefined) return null;
  if (typeof item !== 'object') return scalar(String(item));
  const node = item as XmlNode;
  if (attr(node, 'nil') === 'true') return null;
  const nested = Object.keys(node).filter((k) => !k.startsWith('@_') && k !== '#text');
  if (!nested.length) {
    const href = attr(node, 'href');
    return node['#text'] === undefined && href ? href : scalar(textOf(node));
  }
  const result = new Map<string, unknown[]>();
  for (const key of nested)
    for (const v of Array.isArray(node[key]) ? (node[key] as unknown[]) : [node[key]]) addProperty(result, key, propertyValue(v));
  return flatten(result);
}

/** Text as a number when it is one written canonically ("12.5", "-3"), so "01067" or "1e3" stay text. */
function scalar(text: string): unknown {
  if (text === '') return '';
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text ? n : text;
}
