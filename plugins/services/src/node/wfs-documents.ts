import type { ApiError, WerkbankContext } from '@werkbank/sdk/node';
import { envelopeOf, type Geometry } from '../common/wfs-geometry';
import type { ServedFeature } from './published-layers';
import { WFS_CRS, xmlName } from './wfs-filter';
import { esc, geometryPropertyType, GML_NS, type GmlVersion } from './wfs-gml';

/** The WFS's documents (decision 0083): capabilities and feature type schemas, and what they are made from. */

export type WfsVersion = '2.0.0' | '1.1.0';
export const VERSIONS: WfsVersion[] = ['2.0.0', '1.1.0'];
/** The default CRS of every feature type (latitude first in GML, as WFS 2.0 and GDAL expect). */
export const DEFAULT_CRS = 'urn:ogc:def:crs:EPSG::4326';
export const NAMESPACE_PREFIX = 'wb';

export const FORMATS = {
  gml32: 'application/gml+xml; version=3.2',
  gml311: 'text/xml; subtype=gml/3.1.1',
  json: 'application/json',
} as const;
export type Format = keyof typeof FORMATS;
/** Output formats by their normalised names (lower case, without spaces, quotes and `+`, which URLs turn into spaces). */
export const FORMAT_NAMES: Record<string, Format> = {
  'application/gmlxml;version=3.2': 'gml32',
  'application/gmlxml;version=3.2.1': 'gml32',
  'text/xml;subtype=gml/3.2': 'gml32',
  'text/xml;subtype=gml/3.2.1': 'gml32',
  gml32: 'gml32',
  'text/xml;subtype=gml/3.1.1': 'gml311',
  gml3: 'gml311',
  'application/json': 'json',
  json: 'json',
  geojson: 'json',
  'application/geojson': 'json',
  'application/vnd.geojson': 'json',
};
export const formatsOf = (v: WfsVersion): Format[] => (v === '2.0.0' ? ['gml32', 'json'] : ['gml311', 'json']);

/** What DescribeFeatureType says of a publication: its properties with types and its geometry types. */
export interface FeatureSchema {
  attributes: Array<{ name: string; type: string }>;
  geometryTypes: Set<string>;
  /** [west, south, east, north] of the features; undefined when none has a position. */
  extent?: [number, number, number, number];
}

/** What a capabilities document names: the service, its one feature type and its extent. */
export interface CapabilitiesInput {
  version: WfsVersion;
  /** The service's address (without query). */
  url: string;
  type: string;
  title: string;
  abstract?: string;
  bbox: [number, number, number, number];
  /**
   * `apikey=…&` when the caller put an API key into the address: desktop clients call the
   * operations' addresses as the capabilities give them, so the key must stay in them.
   */
  keyQuery?: string;
}

/** WFS_Capabilities of 2.0.0 (OWS 1.1, FES 2.0) or 1.1.0 (OWS 1.0, Filter 1.1): only what the service does. */
export function capabilitiesXml({ version, url, type, title, abstract, bbox, keyQuery = '' }: CapabilitiesInput): string {
  const [w, s, e, n] = bbox;
  const href = esc(`${url}?${keyQuery}`);
  const v2 = version === '2.0.0';
  const ows = v2 ? 'http://www.opengis.net/ows/1.1' : 'http://www.opengis.net/ows';
  const get = `<ows:DCP><ows:HTTP><ows:Get xlink:href="${href}"/></ows:HTTP></ows:DCP>`;
  const values = (xs: string[]) =>
    v2
      ? `<ows:AllowedValues>${xs.map((x) => `<ows:Value>${esc(x)}</ows:Value>`).join('')}</ows:AllowedValues>`
      : xs.map((x) => `<ows:Value>${esc(x)}</ows:Value>`).join('');
  const param = (name: string, xs: string[]) => `<ows:Parameter name="${name}">${values(xs)}</ows:Parameter>`;
  const constraint = (name: string, value: string) =>
    `<ows:Constraint name="${name}"><ows:NoValues/><ows:DefaultValue>${value}</ows:DefaultValue></ows:Constraint>`;
  const formats = formatsOf(version).map((f) => FORMATS[f]);
  const crsList = WFS_CRS.filter((c) => c !== 4326).map((c) => `urn:ogc:def:crs:EPSG::${c}`);
  const operations =
    `<ows:Operation name="GetCapabilities">${get}${param('AcceptVersions', VERSIONS)}</ows:Operation>` +
    `<ows:Operation name="DescribeFeatureType">${get}</ows:Operation>` +
    `<ows:Operation name="GetFeature">${get}${param('outputFormat', formats)}${param('resultType', ['results', 'hits'])}` +
    `${v2 ? '' : param('srsName', [DEFAULT_CRS, ...crsList])}</ows:Operation>` +
    (v2
      ? `<ows:Operation name="GetPropertyValue">${get}${param('resultType', ['results', 'hits'])}</ows:Operation>` +
        `<ows:Operation name="ListStoredQueries">${get}</ows:Operation>` +
        `<ows:Operation name="DescribeStoredQueries">${get}</ows:Operation>` +
        param('version', VERSIONS) +
        [
          ['ImplementsBasicWFS', 'TRUE'],
          ['ImplementsTransactionalWFS', 'FALSE'],
          ['ImplementsLockingWFS', 'FALSE'],
          ['KVPEncoding', 'TRUE'],
          ['XMLEncoding', 'FALSE'],
          ['SOAPEncoding', 'FALSE'],
          ['ImplementsInheritance', 'FALSE'],
          ['ImplementsRemoteResolve', 'FALSE'],
          ['ImplementsResultPaging', 'TRUE'],
          ['ImplementsStandardJoins', 'FALSE'],
          ['ImplementsSpatialJoins', 'FALSE'],
          ['ImplementsTemporalJoins', 'FALSE'],
          ['ImplementsFeatureVersioning', 'FALSE'],
          ['ManageStoredQueries', 'FALSE'],
        ]
          .map(([k, x]) => constraint(k, x))
          .join('')
      : '');
  const comparisons = [
    'PropertyIsEqualTo',
    'PropertyIsNotEqualTo',
    'PropertyIsLessThan',
    'PropertyIsGreaterThan',
    'PropertyIsLessThanOrEqualTo',
    'PropertyIsGreaterThanOrEqualTo',
    'PropertyIsLike',
    'PropertyIsNull',
    'PropertyIsBetween',
  ];
  const operands = [
    'gml:Envelope',
    'gml:Point',
    'gml:LineString',
    'gml:Polygon',
    'gml:MultiPoint',
    'gml:MultiCurve',
    'gml:MultiSurface',
  ];
  const filterCaps = v2
    ? '<fes:Filter_Capabilities><fes:Conformance>' +
      [
        ['ImplementsQuery', 'TRUE'],
        ['ImplementsAdHocQuery', 'TRUE'],
        ['ImplementsFunctions', 'FALSE'],
        ['ImplementsResourceId', 'TRUE'],
        ['ImplementsMinStandardFilter', 'TRUE'],
        ['ImplementsStandardFilter', 'TRUE'],
        ['ImplementsMinSpatialFilter', 'TRUE'],
        ['ImplementsSpatialFilter', 'FALSE'],
        ['ImplementsMinTemporalFilter', 'FALSE'],
        ['ImplementsTemporalFilter', 'FALSE'],
        ['ImplementsVersionNav', 'FALSE'],
        ['ImplementsSorting', 'FALSE'],
        ['ImplementsExtendedOperators', 'FALSE'],
        ['ImplementsMinimumXPath', 'FALSE'],
        ['ImplementsSchemaElementFunc', 'FALSE'],
      ]
        .map(([k, x]) => `<fes:Constraint name="${k}"><ows:NoValues/><ows:DefaultValue>${x}</ows:DefaultValue></fes:Constraint>`)
        .join('') +
      '</fes:Conformance>' +
      '<fes:Id_Capabilities><fes:ResourceIdentifier name="fes:ResourceId"/></fes:Id_Capabilities>' +
      '<fes:Scalar_Capabilities><fes:LogicalOperators/><fes:ComparisonOperators>' +
      comparisons.map((c) => `<fes:ComparisonOperator name="${c}"/>`).join('') +
      '</fes:ComparisonOperators></fes:Scalar_Capabilities>' +
      '<fes:Spatial_Capabilities><fes:GeometryOperands>' +
      operands.map((o) => `<fes:GeometryOperand name="${o}"/>`).join('') +
      '</fes:GeometryOperands><fes:SpatialOperators><fes:SpatialOperator name="BBOX"/><fes:SpatialOperator name="Intersects"/>' +
      '</fes:SpatialOperators></fes:Spatial_Capabilities></fes:Filter_Capabilities>'
    : '<ogc:Filter_Capabilities><ogc:Spatial_Capabilities><ogc:GeometryOperands>' +
      operands.map((o) => `<ogc:GeometryOperand>${o}</ogc:GeometryOperand>`).join('') +
      '</ogc:GeometryOperands><ogc:SpatialOperators><ogc:SpatialOperator name="BBOX"/><ogc:SpatialOperator name="Intersects"/>' +
      '</ogc:SpatialOperators></ogc:Spatial_Capabilities><ogc:Scalar_Capabilities><ogc:LogicalOperators/><ogc:ComparisonOperators>' +
      [
        'EqualTo',
        'NotEqualTo',
        'LessThan',
        'GreaterThan',
        'LessThanEqualTo',
        'GreaterThanEqualTo',
        'Like',
        'Between',
        'NullCheck',
      ]
        .map((c) => `<ogc:ComparisonOperator>${c}</ogc:ComparisonOperator>`)
        .join('') +
      '</ogc:ComparisonOperators></ogc:Scalar_Capabilities><ogc:Id_Capabilities><ogc:FID/><ogc:EID/></ogc:Id_Capabilities></ogc:Filter_Capabilities>';
  const crs = v2
    ? `<wfs:DefaultCRS>${DEFAULT_CRS}</wfs:DefaultCRS>${crsList.map((c) => `<wfs:OtherCRS>${c}</wfs:OtherCRS>`).join('')}`
    : `<wfs:DefaultSRS>${DEFAULT_CRS}</wfs:DefaultSRS>${crsList.map((c) => `<wfs:OtherSRS>${c}</wfs:OtherSRS>`).join('')}`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<wfs:WFS_Capabilities version="${version}" xmlns:wfs="${v2 ? 'http://www.opengis.net/wfs/2.0' : 'http://www.opengis.net/wfs'}"` +
    ` xmlns:ows="${ows}" xmlns:${v2 ? 'fes="http://www.opengis.net/fes/2.0"' : 'ogc="http://www.opengis.net/ogc"'}` +
    ` xmlns:gml="${GML_NS[v2 ? '3.2' : '3.1.1']}" xmlns:xlink="http://www.w3.org/1999/xlink"` +
    ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:${NAMESPACE_PREFIX}="${esc(url)}"` +
    ` xsi:schemaLocation="${
      v2
        ? 'http://www.opengis.net/wfs/2.0 http://schemas.opengis.net/wfs/2.0/wfs.xsd'
        : 'http://www.opengis.net/wfs http://schemas.opengis.net/wfs/1.1.0/wfs.xsd'
    }">` +
    `<ows:ServiceIdentification><ows:Title>${esc(title)}</ows:Title>` +
    (abstract ? `<ows:Abstract>${esc(abstract)}</ows:Abstract>` : '') +
    `<ows:ServiceType>WFS</ows:ServiceType>${VERSIONS.map((x) => `<ows:ServiceTypeVersion>${x}</ows:ServiceTypeVersion>`).join('')}` +
    '<ows:Fees>NONE</ows:Fees><ows:AccessConstraints>NONE</ows:AccessConstraints></ows:ServiceIdentification>' +
    '<ows:ServiceProvider><ows:ProviderName>Werkbank</ows:ProviderName></ows:ServiceProvider>' +
    `<ows:OperationsMetadata>${operations}</ows:OperationsMetadata>` +
    '<wfs:FeatureTypeList>' +
    (v2 ? '' : '<wfs:Operations><wfs:Operation>Query</wfs:Operation></wfs:Operations>') +
    `<wfs:FeatureType><wfs:Name>${NAMESPACE_PREFIX}:${type}</wfs:Name><wfs:Title>${esc(title)}</wfs:Title>` +
    (abstract ? `<wfs:Abstract>${esc(abstract)}</wfs:Abstract>` : '') +
    crs +
    `<wfs:OutputFormats>${formats.map((f) => `<wfs:Format>${esc(f)}</wfs:Format>`).join('')}</wfs:OutputFormats>` +
    `<ows:WGS84BoundingBox><ows:LowerCorner>${w} ${s}</ows:LowerCorner><ows:UpperCorner>${e} ${n}</ows:UpperCorner></ows:WGS84BoundingBox>` +
    '</wfs:FeatureType></wfs:FeatureTypeList>' +
    filterCaps +
    '</wfs:WFS_Capabilities>\n'
  );
}

/** The XSD of the feature type (DescribeFeatureType): its geometry, then its properties with their types. */
export function describeXml(version: WfsVersion, url: string, type: string, schema: FeatureSchema): string {
  const gml: GmlVersion = version === '2.0.0' ? '3.2' : '3.1.1';
  const xsdType = (t: { type: string; min?: number; max?: number }) =>
    ({ string: 'xsd:string', integer: 'xsd:long', int: 'xsd:int', number: 'xsd:double', boolean: 'xsd:boolean' })[t.type] ??
    'xsd:string';
  const elements = [
    `<xsd:element name="geometry" type="${geometryPropertyType(schema.geometryTypes, gml)}" minOccurs="0" maxOccurs="1" nillable="true"/>`,
    ...schema.attributes.map(
      (a) => `<xsd:element name="${esc(xmlName(a.name))}" type="${xsdType(a)}" minOccurs="0" maxOccurs="1" nillable="true"/>`,
    ),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:gml="${GML_NS[gml]}" xmlns:${NAMESPACE_PREFIX}="${esc(url)}"` +
    ` targetNamespace="${esc(url)}" elementFormDefault="qualified" version="1.0">` +
    `<xsd:import namespace="${GML_NS[gml]}" schemaLocation="${
      gml === '3.2' ? 'http://schemas.opengis.net/gml/3.2.1/gml.xsd' : 'http://schemas.opengis.net/gml/3.1.1/base/gml.xsd'
    }"/>` +
    `<xsd:complexType name="${type}Type"><xsd:complexContent><xsd:extension base="gml:AbstractFeatureType"><xsd:sequence>` +
    elements.join('') +
    '</xsd:sequence></xsd:extension></xsd:complexContent></xsd:complexType>' +
    `<xsd:element name="${type}" type="${NAMESPACE_PREFIX}:${type}Type" substitutionGroup="${gml === '3.2' ? 'gml:AbstractFeature' : 'gml:_Feature'}"/>` +
    '</xsd:schema>\n'
  );
}

/** The property types (JSON types; integers within 32 bits as `int`) and geometry types of the features. */
export async function scanSchema(features: AsyncIterable<ServedFeature[]>): Promise<FeatureSchema> {
  const types = new Map<string, string | undefined>();
  const geometryTypes = new Set<string>();
  let extent: [number, number, number, number] | undefined;
  for await (const batch of features) {
    for (const f of batch) {
      if (f.geometry?.type) geometryTypes.add(f.geometry.type);
      const box = envelopeOf(f.geometry as Geometry | null);
      if (box && !extent) extent = box;
      else if (box && extent)
        extent = [
          Math.min(extent[0], box[0]),
          Math.min(extent[1], box[1]),
          Math.max(extent[2], box[2]),
          Math.max(extent[3], box[3]),
        ];
      for (const [name, v] of Object.entries(f.properties ?? {})) {
        let t: string | undefined;
        if (v === null || v === undefined) t = undefined;
        else if (typeof v === 'number') t = Number.isInteger(v) ? (Math.abs(v) <= 2147483647 ? 'int' : 'integer') : 'number';
        else if (typeof v === 'string' || typeof v === 'boolean') t = typeof v;
        else t = 'object';
        const seen = types.get(name);
        if (!types.has(name) || seen === undefined) types.set(name, t);
        else if (t !== undefined && t !== seen) {
          const rank = ['int', 'integer', 'number'];
          types.set(
            name,
            rank.includes(t) && rank.includes(seen) ? rank[Math.max(rank.indexOf(t), rank.indexOf(seen))] : 'string',
          );
        }
      }
    }
  }
  return { attributes: [...types].map(([name, type]) => ({ name, type: type ?? 'string' })), geometryTypes, extent };
}

/** Writes an ApiError as an OWS ExceptionReport (OWS 1.1 for WFS 2.0.0, 1.0 for 1.1.0) in the caller's language. */
export function exceptionReport(ctx: WerkbankContext, e: ApiError, version: WfsVersion): void {
  const [ns, key] = e.key.includes(':') ? e.key.split(':', 2) : ['server', e.key];
  const text = ctx.state.t ? String(ctx.state.t(key, { ns, ...e.params })) : e.key;
  const code = /^[A-Z]/.test(e.code)
    ? e.code
    : e.status === 404
      ? 'NotFound'
      : e.code === 'invalid_parameter'
        ? 'InvalidParameterValue'
        : version === '2.0.0'
          ? 'OperationProcessingFailed'
          : 'NoApplicableCode';
  const v2 = version === '2.0.0';
  const lang = ctx.state.lang ?? 'en';
  ctx.status = e.status;
  ctx.set('Content-Type', 'application/xml; charset=utf-8');
  ctx.body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<ows:ExceptionReport xmlns:ows="${v2 ? 'http://www.opengis.net/ows/1.1' : 'http://www.opengis.net/ows'}"` +
    ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="${v2 ? '2.0.0' : '1.0.0'}" ${v2 ? 'xml:lang' : 'language'}="${lang}"` +
    ` xsi:schemaLocation="${v2 ? 'http://www.opengis.net/ows/1.1 http://schemas.opengis.net/ows/1.1.0/owsExceptionReport.xsd' : 'http://www.opengis.net/ows http://schemas.opengis.net/ows/1.0.0/owsExceptionReport.xsd'}">` +
    `<ows:Exception exceptionCode="${esc(code)}"${e.field ? ` locator="${esc(e.field)}"` : ''}>` +
    `<ows:ExceptionText>${esc(text)}</ows:ExceptionText></ows:Exception></ows:ExceptionReport>\n`;
}
