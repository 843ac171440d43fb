import { attr, child, children, textOf, type XmlDocument, type XmlNode } from './service-xml';
import { findGeometry, readGeometry, type GmlGeometry, type GmlScope } from './gml-geometry';
import { servicesFailure } from './services-failure';

/** One feature read from GML, before its positions are put in x, y order. */
export interface GmlFeature {
  id?: string;
  geometry: GmlGeometry | null;
  properties: Record<string, unknown>;
  /** The srsName of the geometry ('' when the document names none). */
  srsName: string;
}

/** Collection roots: GML's, WFS 1.x's and 2.0's, and those GDAL writes (`ogr:FeatureCollection`). */
const COLLECTIONS = new Set(['FeatureCollection', 'SimpleFeatureCollection']);
/** Feature properties that describe the feature in GML itself rather than its attributes. */
const SKIPPED = new Set(['boundedBy', 'location']);

/**
 * The features of a GML FeatureCollection (GML 2, 3.1, 3.2; wfs:FeatureCollection of WFS 1.1 and
 * 2.0): members in `featureMember`, `featureMembers`, `member` (nested collections of WFS 2.0
 * joins included). Attributes become properties (numbers in canonical form become numbers, others
 * stay text; xsi:nil is null; repeated elements are lists); the first geometry property is the
 * geometry. Throws `gml_no_collection` for another root and `gml_geometry_invalid` naming the
 * feature index. `budget.maxFeatures` bounds the count (`too_many_features`).
 */
export function readGmlFeatures(doc: XmlDocument, source: string, maxFeatures: number): GmlFeature[] {
  if (!COLLECTIONS.has(doc.root)) throw servicesFailure('gml_no_collection', { source, root: doc.root });
  const features: GmlFeature[] = [];
  collect(doc.node, collectionSrs(doc.node), features, maxFeatures, source);
  return features;
}

function collect(collection: XmlNode, srsName: string, out: GmlFeature[], max: number, source: string): void {
  const members = [
    ...children(collection, 'featureMember'),
    ...children(collection, 'member'),
    ...children(collection, 'featureMembers'),
  ];
  for (const member of members)
    for (const [type, value] of Object.entries(member)) {
      if (type.startsWith('@_') || type.startsWith('#')) continue;
      for (const element of Array.isArray(value) ? value : [value]) {
        if (typeof element !== 'object' || element === null) continue;
        if (COLLECTIONS.has(type)) {
          collect(element as XmlNode, collectionSrs(element as XmlNode) || srsName, out, max, source);
          continue;
        }
        if (out.length >= max) throw servicesFailure('too_many_features', { source, limit: max });
        out.push(feature(element as XmlNode, { index: out.length, srsName, dimension: 2 }));
      }
    }
}

/** The srsName of a collection's (or feature's) boundedBy Envelope, '' when none. */
function collectionSrs(node: XmlNode): string {
  const box = child(node, 'boundedBy');
  return attr(child(box, 'Envelope'), 'srsName') || attr(child(box, 'Box'), 'srsName');
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
