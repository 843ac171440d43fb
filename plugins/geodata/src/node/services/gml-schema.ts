import { attr, child, children, parseXml, type XmlNode } from './service-xml';

/** The kind of value an attribute holds by its schema type. */
export type AttributeKind = 'number' | 'boolean' | 'string';

/** The attribute kinds of each feature type of an application schema, by the feature element's local name. */
export type GmlSchema = Map<string, Map<string, AttributeKind>>;

const NUMBERS = new Set([
  'integer',
  'int',
  'long',
  'short',
  'byte',
  'decimal',
  'double',
  'float',
  'nonNegativeInteger',
  'positiveInteger',
  'negativeInteger',
  'nonPositiveInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
]);

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/**
 * The attribute kinds an XML Schema (.xsd, as `ogr2ogr -f GML` or a WFS DescribeFeatureType
 * writes it) gives the feature types it declares: XML Schema number types are numbers, boolean is
 * boolean, other simple types (string, date, …) are text; geometry properties are left out. The
 * text is checked and parsed like every XML the plugin reads (no DOCTYPE, no entities); nothing
 * it imports or includes is fetched. Throws `xml_invalid` or `xml_doctype` for a broken schema.
 */
export function readGmlSchema(text: string, source: string): GmlSchema {
  const schema = parseXml(text, source).node;
  const simple = new Map(children(schema, 'simpleType').map((t) => [attr(t, 'name'), restrictionBase(t)]));
  const kindOf = (type: string): AttributeKind | undefined => {
    const name = localName(type);
    if (NUMBERS.has(name)) return 'number';
    if (name === 'boolean') return 'boolean';
    if (simple.has(name)) return kindOf(simple.get(name) ?? '');
    return type.startsWith('gml:') || /PropertyType$/.test(name) || !type ? undefined : 'string';
  };
  const fields = (complexType: XmlNode | undefined) => {
    const out = new Map<string, AttributeKind>();
    walkElements(complexType, (element) => {
      const kind = kindOf(attr(element, 'type') || restrictionBase(child(element, 'simpleType')));
      if (kind) out.set(attr(element, 'name'), kind);
    });
    return out;
  };
  const complex = new Map(children(schema, 'complexType').map((t) => [attr(t, 'name'), t]));
  const types: GmlSchema = new Map();
  for (const element of children(schema, 'element')) {
    const declared = complex.get(localName(attr(element, 'type'))) ?? child(element, 'complexType');
    if (declared) types.set(attr(element, 'name'), fields(declared));
  }
  return types;
}

/** The base type of a simpleType's restriction ('' when it has none). */
function restrictionBase(simpleType: XmlNode | undefined): string {
  return attr(child(simpleType, 'restriction'), 'base');
}

/** Calls `visit` for every named element declaration below `node`, not descending into them. */
function walkElements(node: unknown, visit: (element: XmlNode) => void): void {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key.startsWith('@_') || key.startsWith('#')) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (key === 'element' && attr(item, 'name')) visit(item as XmlNode);
      else walkElements(item, visit);
    }
  }
}

/**
 * The file names of the schemas a GML document points to in its root's xsi:schemaLocation (the
 * last path segment of each location ending in .xsd), e.g. `orte.xsd` for GDAL's output.
 */
export function schemaFileNames(gml: string): string[] {
  const root = /<(?![?!/])(?:"[^"]*"|'[^']*'|[^'">])*>/.exec(gml)?.[0] ?? '';
  const location = /\bschemaLocation\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(root);
  const words = (location?.[1] ?? location?.[2] ?? '').split(/\s+/);
  return words.filter((w) => /\.xsd$/i.test(w)).map((w) => w.slice(w.lastIndexOf('/') + 1));
}
