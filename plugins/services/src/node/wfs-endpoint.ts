import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  ApiError,
  inject,
  injectable,
  type RegistrySink,
  type ServiceEndpointContribution,
  type ServiceEndpointDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { layerServiceName } from '@werkbank/plugin-layers/api';
import { parseCount } from '../common/service-params';
import { boxPolygon, type Geometry } from '../common/wfs-geometry';
import { conditional, valueOf } from './geojson-endpoint';
import { PublishedLayers, type Publication, type ServedFeature } from './published-layers';
import { ServicesServices } from './services-services';
import { matches, parseCrs, parseFilter, resolveGeometries, windowOf, xmlName, type Crs, type Filter } from './wfs-filter';
import { esc, GmlWriter, GML_NS, type GmlVersion } from './wfs-gml';
import { Utf8Chunks } from './utf8-chunks';
import {
  capabilitiesXml,
  DEFAULT_CRS,
  describeXml,
  exceptionReport,
  FORMAT_NAMES,
  FORMATS,
  formatsOf,
  NAMESPACE_PREFIX,
  scanSchema,
  VERSIONS,
  type FeatureSchema,
  type Format,
  type WfsVersion,
} from './wfs-documents';

/** Features held back at most while the answer's numberReturned is not known yet. */
const BUFFERED_FEATURES = 1000;

/** An OWS exception: its code, the parameter it is about and the text key (`ns:key`). */
const owsError = (code: string, key: string, params: Record<string, unknown> = {}, locator?: string, status = 400) =>
  new ApiError(status, code, key, params, locator);

/**
 * WFS 2.0.0 and 1.1.0 (issue 17, decision 0083) at `/services/wfs/{name}`, KVP over GET:
 * GetCapabilities, DescribeFeatureType and GetFeature of the layer's one feature type, with BBOX,
 * FES filters, resource ids, paging, hits, srsName and GML or GeoJSON written as the rows arrive.
 * Every failure is an OWS ExceptionReport in the caller's language.
 */
@injectable()
export class WfsEndpoint implements ServiceEndpointContribution {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  /** Schemas by publication key (a publication never changes, so entries never go stale). */
  private readonly schemas = new Map<string, Promise<FeatureSchema>>();

  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void {
    registry.add({
      id: 'services.wfs',
      prefix: '/services/wfs/',
      mount: (router) => {
        router.get('/services/wfs/:name', (ctx) => this.handle(ctx));
        router.get('/services/wfs/:name/', (ctx) => this.handle(ctx));
      },
    });
  }

  private async handle(ctx: WerkbankContext): Promise<void> {
    const q = new Map<string, string>();
    for (const [k, v] of Object.entries(ctx.query)) {
      const value = Array.isArray(v) ? v[0] : v;
      if (value !== undefined && !q.has(k.toLowerCase())) q.set(k.toLowerCase(), value);
    }
    let version: WfsVersion = q.get('version') === '1.1.0' || q.get('acceptversions')?.startsWith('1.1.0') ? '1.1.0' : '2.0.0';
    try {
      const request = required(q, 'request');
      const service = required(q, 'service');
      if (service.toUpperCase() !== 'WFS') throw owsError('InvalidParameterValue', 'services:wfs.service_invalid', {}, 'service');
      const op = request.toLowerCase();
      if (op === 'getcapabilities') version = negotiate(q);
      else {
        const asked = required(q, 'version');
        if (!VERSIONS.includes(asked as WfsVersion))
          throw owsError('InvalidParameterValue', 'services:wfs.version_invalid', { version: asked.slice(0, 20) }, 'version');
        version = asked as WfsVersion;
      }
      if (!['getcapabilities', 'describefeaturetype', 'getfeature'].includes(op))
        throw owsError(
          'OperationNotSupported',
          'services:wfs.operation_unsupported',
          { operation: request.slice(0, 60) },
          'request',
        );
      const publication = await this.published.open(ctx, ctx.params.name, q.get('moment'));
      const type = typeOf(publication);
      if (op === 'getcapabilities') return await this.capabilities(ctx, publication, version, type);
      checkTypeNames(q, type, op === 'getfeature');
      if (op === 'describefeaturetype') return await this.describe(ctx, publication, version, type);
      return await this.getFeature(ctx, q, publication, version, type);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      exceptionReport(ctx, e, version);
    }
  }

  private async capabilities(ctx: WerkbankContext, publication: Publication, version: WfsVersion, type: string): Promise<void> {
    const keyQuery = keyQueryOf(ctx);
    if (conditional(ctx, publication, `wfs-caps-${version}${keyQuery ? `-${digest(keyQuery)}` : ''}`)) return;
    const { layer } = publication;
    // The layer's bbox; the features' extent when it has none.
    const bbox = layer.bbox ?? (await this.schemaOf(publication)).extent ?? [-180, -90, 180, 90];
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = capabilitiesXml({
      version,
      url: serviceUrl(ctx),
      keyQuery,
      type,
      title: layer.name,
      abstract: layer.description || layer.description_title || undefined,
      bbox,
    });
  }

  /** The publication's properties with their types and its geometry types, from one pass over its features. */
  private schemaOf(publication: Publication): Promise<FeatureSchema> {
    let schema = this.schemas.get(publication.key);
    if (!schema) {
      schema = scanSchema(this.published.features(publication));
      this.schemas.set(publication.key, schema);
      schema.catch(() => this.schemas.delete(publication.key));
      while (this.schemas.size > 64) this.schemas.delete(this.schemas.keys().next().value!);
    }
    return schema;
  }

  private async describe(ctx: WerkbankContext, publication: Publication, version: WfsVersion, type: string): Promise<void> {
    if (conditional(ctx, publication, `wfs-dft-${version}`)) return;
    const schema = await this.schemaOf(publication);
    ctx.set('Content-Type', `${version === '2.0.0' ? FORMATS.gml32 : FORMATS.gml311}; charset=utf-8`);
    ctx.body = describeXml(version, serviceUrl(ctx), type, schema);
  }

  private async getFeature(
    ctx: WerkbankContext,
    q: Map<string, string>,
    publication: Publication,
    version: WfsVersion,
    type: string,
  ): Promise<void> {
    const v2 = version === '2.0.0';
    // Parameters first, so a bad request never reads data.
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
    const reprojection = this.services.reprojection;
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

    if (conditional(ctx, publication, `wfs-${digest(`${version}|${ctx.querystring}`)}`)) return;

    const window = windowOf(filter);
    const source = () => matching(this.published.features(publication, { window }), filter, type);
    const timeStamp = new Date().toISOString();
    const srsOut = srsName === undefined ? DEFAULT_CRS : srsName.trim();
    const gmlVersion: GmlVersion = v2 ? '3.2' : '3.1.1';
    const url = serviceUrl(ctx);
    const describeUrl = `${url}?${keyQueryOf(ctx)}SERVICE=WFS&VERSION=${version}&REQUEST=DescribeFeatureType&TYPENAME=${NAMESPACE_PREFIX}:${type}`;

    const header = (matched: number | undefined, returned: number): string => {
      if (format === 'json') {
        const crsMember =
          crs.epsg === 4326 ? '' : `"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::${crs.epsg}"}},`;
        return (
          `{"type":"FeatureCollection",${matched === undefined ? '' : `"numberMatched":${matched},`}` +
          `"numberReturned":${returned},"timeStamp":"${timeStamp}",${crsMember}"features":[\n`
        );
      }
      const schemaLocation = v2
        ? `http://www.opengis.net/wfs/2.0 http://schemas.opengis.net/wfs/2.0/wfs.xsd http://www.opengis.net/gml/3.2 http://schemas.opengis.net/gml/3.2.1/gml.xsd`
        : `http://www.opengis.net/wfs http://schemas.opengis.net/wfs/1.1.0/wfs.xsd`;
      return (
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        `<wfs:FeatureCollection xmlns:wfs="${v2 ? 'http://www.opengis.net/wfs/2.0' : 'http://www.opengis.net/wfs'}"` +
        ` xmlns:gml="${GML_NS[gmlVersion]}" xmlns:${NAMESPACE_PREFIX}="${esc(url)}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` +
        ` xsi:schemaLocation="${esc(`${schemaLocation} ${url} ${describeUrl}`)}" timeStamp="${timeStamp}"` +
        (v2
          ? ` numberMatched="${matched ?? 'unknown'}" numberReturned="${returned}"`
          : ` numberOfFeatures="${resultType === 'hits' ? (matched ?? 0) : returned}"`) +
        (resultType === 'hits' ? '/>\n' : '>\n')
      );
    };
    const footer = format === 'json' ? '\n]}\n' : v2 ? '</wfs:FeatureCollection>\n' : '</wfs:FeatureCollection>\n';
    ctx.set('Content-Type', `${FORMATS[format]}; charset=utf-8`);

    // Without a filter, the index counts what the read would give, so no feature is read twice.
    const counted = filter ? undefined : await this.published.count(publication);
    if (resultType === 'hits') {
      let matched = counted ?? 0;
      if (counted === undefined) for await (const batch of source()) matched += batch.length;
      ctx.body = format === 'json' ? `${header(matched, 0)}\n]}\n` : header(matched, 0);
      return;
    }

    // Read until the page is complete or BUFFERED_FEATURES are held; count in a second pass only
    // when more remain, so numberReturned heads the answer and memory stays flat.
    const it = source()[Symbol.asyncIterator]();
    let queue: ServedFeature[] = [];
    let seen = 0;
    let taken = 0;
    let done = false;
    const fill = async (min: number) => {
      while (!done && queue.length < min && taken < count) {
        const next = await it.next();
        if (next.done) {
          done = true;
          break;
        }
        for (const f of next.value) {
          if (++seen <= start) continue;
          if (taken >= count) break;
          queue.push(f);
          taken++;
        }
      }
    };
    let matched: number | undefined;
    let returned: number;
    if (counted !== undefined) {
      // Known from the index: nothing is held back, the answer is written as the rows arrive.
      matched = counted;
      returned = Math.min(count, Math.max(0, counted - start));
    } else {
      await fill(BUFFERED_FEATURES);
      if (done) [matched, returned] = [seen, taken];
      else if (taken >= count) returned = count;
      else {
        let c = 0;
        let complete = true;
        for await (const batch of source()) {
          c += batch.length;
          if (c >= start + count) {
            complete = false;
            break;
          }
        }
        returned = Math.min(count, Math.max(0, c - start));
        if (complete) matched = c;
      }
    }

    const gml = new GmlWriter(gmlVersion, srsOut, crs.swap);
    const write = (batch: ServedFeature[], prefix: string): Buffer[] => {
      const out = new Utf8Chunks(prefix);
      for (const [i, f] of batch.entries()) {
        if (i > 0) out.add(format === 'json' ? ',\n' : '\n');
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
        if (format === 'json') out.add(JSON.stringify({ type: 'Feature', id: f.id, geometry, properties }));
        else {
          const member = gml.feature(type, f.id, geometry, properties);
          out.add(v2 ? `<wfs:member>${member}</wfs:member>` : `<gml:featureMember>${member}</gml:featureMember>`);
        }
      }
      return out.done('\n');
    };
    async function* chunks(): AsyncGenerator<string | Buffer> {
      try {
        yield header(matched, returned);
        let first = true;
        let written = 0;
        if (!queue.length && returned > 0) await fill(1);
        while (queue.length) {
          const batch = queue.slice(0, Math.max(0, returned - written));
          queue = [];
          if (batch.length) {
            yield* write(batch, first || format !== 'json' ? '' : ',\n');
            first = false;
            written += batch.length;
          }
          if (written < returned) await fill(1);
        }
        yield footer;
      } finally {
        // Closes the depot reads when the page ends early or the client goes away.
        await it.return?.(undefined);
      }
    }
    ctx.body = Readable.from(chunks());
  }
}

/** The type name of a publication (an XML name: the service name, with `layer_` before a leading digit). */
function typeOf(publication: Publication): string {
  const name = layerServiceName(publication.layer);
  return /^[A-Za-z_]/.test(name) ? name : `layer_${name}`;
}

/** The address of the service (without query), as the caller reached it. */
const digest = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 16);

/** `apikey=…&` when the caller put an API key into the address (decision 0083), else empty. */
function keyQueryOf(ctx: WerkbankContext): string {
  const key = Object.entries(ctx.query).find(([k]) => k.toLowerCase() === 'apikey')?.[1];
  const value = Array.isArray(key) ? key[0] : key;
  return value ? `apikey=${encodeURIComponent(value)}&` : '';
}

function serviceUrl(ctx: WerkbankContext): string {
  return `${ctx.protocol}://${ctx.host}${ctx.originalUrl.split('?')[0]}`;
}

function required(q: Map<string, string>, name: string): string {
  const value = q.get(name);
  if (value === undefined || value.trim() === '')
    throw owsError('MissingParameterValue', 'services:wfs.missing_parameter', { name }, name);
  return value.trim();
}

/** The version of a GetCapabilities: the first of ACCEPTVERSIONS this service speaks, else VERSION's, else 2.0.0. */
function negotiate(q: Map<string, string>): WfsVersion {
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

const stripParens = (text: string) => text.trim().replace(/^\((.*)\)$/s, '$1');

/** TYPENAMES (2.0.0) or TYPENAME: only the layer's type, with any prefix; required for GetFeature. */
function checkTypeNames(q: Map<string, string>, type: string, needed: boolean): void {
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
function bboxFilter(raw: string, defaultCrs: Crs): Filter {
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

async function* matching(
  features: AsyncIterable<ServedFeature[]>,
  filter: Filter | undefined,
  type: string,
): AsyncGenerator<ServedFeature[]> {
  for await (const batch of features) {
    const out = filter ? batch.filter((f) => matches(filter, f, type)) : batch;
    if (out.length) yield out;
  }
}
