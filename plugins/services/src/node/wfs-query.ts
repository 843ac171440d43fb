import { ApiError } from '@werkbank/sdk/node';
import { parseCount } from '../common/service-params';
import { boxPolygon, type Geometry } from '../common/wfs-geometry';
import { valueOf } from './geojson-endpoint';
import type { ServedFeature } from './published-layers';
import type { ServicesServices } from './services-services';
import { matches, parseCrs, parseFilter, resolveGeometries, xmlName, type Crs, type Filter } from './wfs-filter';
import { FORMAT_NAMES, FORMATS, formatsOf, NAMESPACE_PREFIX, VERSIONS, type Format, type WfsVersion } from './wfs-documents';

/** The WFS's request parameters (decision 0083, "WFS"): checked and parsed before any data is read. */

/** The operations of both versions, and those of WFS 2.0.0 only. */
export const OPERATIONS = ['getcapabilities', 'describefeaturetype', 'getfeature'];
export const OPERATIONS_2_0 = ['liststoredqueries', 'describestoredqueries', 'getpropertyvalue'];

export type Reprojector = Awaited<ReturnType<ServicesServices['reprojection']['reprojector']>>;

/** The checked query parameters of GetFeature and GetPropertyValue. */
export interface WfsQuery {
  count: number;
  start: number;
  resultType: string;
  format: Format;
  crs: Crs;
  srsName: string | undefined;
  filter: Filter | undefined;
  keep: Set<string> | undefined;
  project: Reprojector | undefined;
}

/** An OWS exception: its code, the parameter it is about and the text key (`ns:key`). */
export const owsError = (code: string, key: string, params: Record<string, unknown> = {}, locator?: string, status = 400) =>
  new ApiError(status, code, key, params, locator);

/** A feature's geometry in the answer's CRS (null where it cannot be projected) and the properties asked for. */
export function shaped(
  f: ServedFeature,
  project: Reprojector | undefined,
  keep: Set<string> | undefined,
): { geometry: Geometry | null; properties: Record<string, unknown> | null } {
  let geometry = f.geometry as Geometry | null;
  if (project && geometry) {
    try {
      geometry = project(f, 0).geometry as Geometry;
    } catch {
      geometry = null;
    }
  }
  const properties =
    keep && f.properties
      ? Object.fromEntries(Object.entries(f.properties).filter(([k]) => keep.has(k) || keep.has(xmlName(k))))
      : f.properties;
  return { geometry, properties };
}

export function required(q: Map<string, string>, name: string): string {
  const value = q.get(name);
  if (value === undefined || value.trim() === '')
    throw owsError('MissingParameterValue', 'services:wfs.missing_parameter', { name }, name);
  return value.trim();
}

/** The version of a GetCapabilities: the first of ACCEPTVERSIONS this service speaks, else VERSION's, else 2.0.0. */
export function negotiate(q: Map<string, string>): WfsVersion {
  const accept = q.get('acceptversions');
  if (accept !== undefined) {
    const v = accept
      .split(',')
      .map((x) => x.trim())
      .find((x) => VERSIONS.includes(x as WfsVersion));
    if (!v) throw owsError('VersionNegotiationFailed', 'services:wfs.version_negotiation', {}, 'acceptVersions');
    return v as WfsVersion;
  }
  const asked = q.get('version') as WfsVersion | undefined;
  return asked && VERSIONS.includes(asked) ? asked : '2.0.0';
}

export const stripParens = (text: string) => text.trim().replace(/^\((.*)\)$/s, '$1');

/** TYPENAMES (2.0.0) or TYPENAME: only the layer's type, with any prefix; required for GetFeature. */
export function checkTypeNames(q: Map<string, string>, type: string, needed: boolean): void {
  const locator = q.has('typenames') ? 'typeNames' : 'typeName';
  const raw = q.get('typenames') ?? q.get('typename');
  if (raw === undefined || raw.trim() === '') {
    if (needed) throw owsError('MissingParameterValue', 'services:wfs.missing_parameter', { name: 'typeNames' }, 'typeNames');
    return;
  }
  for (const name of stripParens(raw).split(',')) {
    const local = name
      .trim()
      .replace(/^\{[^}]*\}/, '')
      .replace(/^[^:]*:/, '');
    if (local !== type)
      throw owsError(
        'InvalidParameterValue',
        'services:wfs.typename_unknown',
        { name: name.trim().slice(0, 100), type: `${NAMESPACE_PREFIX}:${type}` },
        locator,
      );
  }
}

/** BBOX=a,b,c,d[,crs] in the axis order of the CRS (the default CRS when none is named). */
export function bboxFilter(raw: string, defaultCrs: Crs): Filter {
  const parts = raw.split(',').map((p) => p.trim());
  const invalid = (key = 'bbox_invalid') => owsError('InvalidParameterValue', `services:wfs.${key}`, {}, 'bbox');
  if (parts.length !== 4 && parts.length !== 5) throw invalid();
  const nums = parts.slice(0, 4).map((p) => (p === '' ? NaN : Number(p)));
  if (nums.some((n) => !Number.isFinite(n))) throw invalid();
  const crs = parts.length === 5 ? parseCrs(parts[4]) : defaultCrs;
  if (!crs) throw owsError('InvalidParameterValue', 'services:wfs.crs_unknown', { crs: parts[4].slice(0, 100) }, 'bbox');
  const [w, s, e, n] = crs.swap ? [nums[1], nums[0], nums[3], nums[2]] : nums;
  if (w > e || s > n) throw invalid('bbox_inverted');
  if (crs.epsg === 4326 && ([w, e].some((x) => Math.abs(x) > 180) || [s, n].some((y) => Math.abs(y) > 90)))
    throw invalid('bbox_range');
  const box: [number, number, number, number] = [w, s, e, n];
  return { op: 'spatial', kind: 'bbox', literal: { geometry: boxPolygon(box), crs: { epsg: crs.epsg, swap: false }, box } };
}

export async function* matching(
  features: AsyncIterable<ServedFeature[]>,
  filter: Filter | undefined,
  type: string,
): AsyncGenerator<ServedFeature[]> {
  for await (const batch of features) {
    const out = filter ? batch.filter((f) => matches(filter, f, type)) : batch;
    if (out.length) yield out;
  }
}

/** The query parameters of GetFeature and GetPropertyValue, checked before any data is read. */
export async function parseWfsQuery(
  q: Map<string, string>,
  version: WfsVersion,
  reprojection: ServicesServices['reprojection'],
): Promise<WfsQuery> {
  const v2 = version === '2.0.0';
  const countName = q.has('count') ? 'count' : 'maxfeatures';
  const count = valueOf(parseCount(q.get(countName), Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, countName), countName);
  const start = valueOf(parseCount(q.get('startindex'), 0, Number.MAX_SAFE_INTEGER, 'startIndex'), 'startIndex');
  if (q.has('sortby')) throw owsError('OperationNotSupported', 'services:wfs.sorting_unsupported', {}, 'sortBy');
  const resultType = (q.get('resulttype') ?? 'results').toLowerCase();
  if (resultType !== 'results' && resultType !== 'hits')
    throw owsError('InvalidParameterValue', 'services:wfs.resulttype_invalid', {}, 'resultType');
  const formatName = q.get('outputformat');
  const format: Format | undefined =
    formatName === undefined ? formatsOf(version)[0] : FORMAT_NAMES[formatName.toLowerCase().replace(/[\s"'+]/g, '')];
  if (!format || !formatsOf(version).includes(format))
    throw owsError(
      'InvalidParameterValue',
      'services:wfs.format_unknown',
      {
        format: (formatName ?? '').slice(0, 60),
        formats: formatsOf(version)
          .map((f) => FORMATS[f])
          .join(', '),
      },
      'outputFormat',
    );
  const srsName = q.get('srsname');
  const crs: Crs | undefined = srsName === undefined ? { epsg: 4326, swap: true } : parseCrs(srsName);
  if (!crs) throw owsError('InvalidParameterValue', 'services:wfs.crs_unknown', { crs: srsName!.slice(0, 100) }, 'srsName');
  const defaultCrs: Crs = { epsg: 4326, swap: true };
  const filters: Filter[] = [];
  const language = q.get('filter_language');
  if (
    language !== undefined &&
    !/^(urn:ogc:def:query.?language:OGC-FES:Filter|urn:ogc:def:query:OGC-FES:Filter)$/i.test(language)
  )
    throw owsError('InvalidParameterValue', 'services:wfs.filter_language', {}, 'filter_language');
  const filterText = q.get('filter');
  if (filterText !== undefined && filterText.trim() !== '') filters.push(parseFilter(stripParens(filterText), defaultCrs));
  const ids = q.get(v2 ? 'resourceid' : 'featureid') ?? q.get('resourceid') ?? q.get('featureid');
  if (ids !== undefined && ids.trim() !== '')
    filters.push({
      op: 'ids',
      ids: new Set(
        stripParens(ids)
          .split(',')
          .map((x) => x.trim()),
      ),
    });
  const bbox = q.get('bbox');
  if (bbox !== undefined && bbox.trim() !== '') filters.push(bboxFilter(bbox, defaultCrs));
  const filter: Filter | undefined = filters.length > 1 ? { op: 'and', args: filters } : filters[0];
  if (filter) await resolveGeometries(filter, (epsg) => reprojection.reprojector(`EPSG:${epsg}`, 'EPSG:4326'));
  const keep = q.get('propertyname')
    ? new Set(
        stripParens(q.get('propertyname')!)
          .split(',')
          .map((p) => p.trim().replace(/^[^:]*:/, ''))
          .filter(Boolean),
      )
    : undefined;
  const project = crs.epsg === 4326 ? undefined : await reprojection.reprojector('EPSG:4326', `EPSG:${crs.epsg}`);
  return { count, start, resultType, format, crs, srsName, filter, keep, project };
}
