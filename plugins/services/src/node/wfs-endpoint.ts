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
import type { Geometry } from '../common/wfs-geometry';
import { conditional } from './geojson-endpoint';
import { PublishedLayers, refuseMetalayer, type Publication, type ServedFeature } from './published-layers';
import { ServicesServices } from './services-services';
import { gmlId, windowOf, xmlName } from './wfs-filter';
import { esc, GmlWriter, GML_NS, type GmlVersion } from './wfs-gml';
import { Utf8Chunks } from './utf8-chunks';
import { FeatureSchemas } from './feature-schemas';
import {
  checkTypeNames,
  matching,
  negotiate,
  OPERATIONS,
  OPERATIONS_2_0,
  owsError,
  parseWfsQuery,
  required,
  shaped,
} from './wfs-query';
import {
  askedStoredQueries,
  describeStoredQueriesXml,
  GET_FEATURE_BY_ID,
  listStoredQueriesXml,
  standaloneFeature,
  valueCollectionXml,
} from './wfs-stored-queries';
import {
  capabilitiesXml,
  DEFAULT_CRS,
  describeXml,
  exceptionReport,
  FORMATS,
  NAMESPACE_PREFIX,
  VERSIONS,
  type WfsVersion,
} from './wfs-documents';

/** Features held back at most while the answer's numberReturned is not known yet. */
const BUFFERED_FEATURES = 1000;

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
  @inject(FeatureSchemas) protected readonly schemas!: FeatureSchemas;

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
      const ops = version === '2.0.0' ? [...OPERATIONS, ...OPERATIONS_2_0] : OPERATIONS;
      if (!ops.includes(op))
        throw owsError(
          'OperationNotSupported',
          'services:wfs.operation_unsupported',
          { operation: request.slice(0, 60) },
          'request',
        );
      const publication = await this.published.open(ctx, ctx.params.name, q.get('moment'));
      refuseMetalayer(publication);
      const type = typeOf(publication);
      if (op === 'getcapabilities') return await this.capabilities(ctx, publication, version, type);
      if (op === 'liststoredqueries' || op === 'describestoredqueries') return this.storedQueries(ctx, q, op, type);
      const stored = op === 'getfeature' ? q.get('storedquery_id')?.trim() : undefined;
      checkTypeNames(q, type, (op === 'getfeature' && stored === undefined) || op === 'getpropertyvalue');
      if (op === 'describefeaturetype') return await this.describe(ctx, publication, version, type);
      if (op === 'getpropertyvalue') return await this.propertyValue(ctx, q, publication, version, type);
      if (stored !== undefined) return await this.featureById(ctx, q, stored, publication, version, type);
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
    const bbox = layer.bbox ?? (await this.schemas.of(publication)).extent ?? [-180, -90, 180, 90];
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

  private async describe(ctx: WerkbankContext, publication: Publication, version: WfsVersion, type: string): Promise<void> {
    if (conditional(ctx, publication, `wfs-dft-${version}`)) return;
    const schema = await this.schemas.of(publication);
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
    const { count, start, resultType, format, crs, srsName, filter, keep, project } = await parseWfsQuery(
      q,
      version,
      this.services.reprojection,
    );

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
        const { geometry, properties } = shaped(f, project, keep);
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

  /** ListStoredQueries and DescribeStoredQueries (WFS 2.0.0): GetFeatureById, the one stored query. */
  private storedQueries(ctx: WerkbankContext, q: Map<string, string>, op: string, type: string): void {
    const doc = { url: serviceUrl(ctx), type, title: this.text(ctx, 'wfs.get_feature_by_id_title') };
    if (op === 'describestoredqueries') {
      const asked = askedStoredQueries(q.get('storedquery_id'));
      if ('unknown' in asked)
        throw owsError(
          'InvalidParameterValue',
          'services:wfs.storedquery_unknown',
          { id: asked.unknown.slice(0, 100) },
          'storedQuery_id',
        );
    }
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = op === 'liststoredqueries' ? listStoredQueriesXml(doc) : describeStoredQueriesXml(doc);
  }

  /** GetFeature with the stored query GetFeatureById: the feature itself (GML or GeoJSON), or 404. */
  private async featureById(
    ctx: WerkbankContext,
    q: Map<string, string>,
    stored: string,
    publication: Publication,
    version: WfsVersion,
    type: string,
  ): Promise<void> {
    if (stored !== GET_FEATURE_BY_ID)
      throw owsError('InvalidParameterValue', 'services:wfs.storedquery_unknown', { id: stored.slice(0, 100) }, 'storedQuery_id');
    const id = required(q, 'id');
    const byId = new Map([...q].filter(([k]) => !['resourceid', 'featureid', 'filter', 'bbox'].includes(k)));
    byId.set('resourceid', id);
    const { format, crs, srsName, filter, keep, project } = await parseWfsQuery(byId, version, this.services.reprojection);
    if (conditional(ctx, publication, `wfs-${digest(`${version}|${ctx.querystring}`)}`)) return;
    let found: ServedFeature | undefined;
    for await (const batch of matching(this.published.features(publication), filter, type)) {
      found = batch[0];
      break;
    }
    if (!found) throw owsError('NotFound', 'services:wfs.id_not_found', { id: id.slice(0, 100) }, 'ID', 404);
    const { geometry, properties } = shaped(found, project, keep);
    ctx.set('Content-Type', `${FORMATS[format]}; charset=utf-8`);
    if (format === 'json') {
      const named = crs.epsg === 4326 ? {} : { crs: { type: 'name', properties: { name: `urn:ogc:def:crs:EPSG::${crs.epsg}` } } };
      ctx.body = JSON.stringify({ type: 'Feature', id: found.id, ...named, geometry, properties });
      return;
    }
    const gmlVersion: GmlVersion = version === '2.0.0' ? '3.2' : '3.1.1';
    const gml = new GmlWriter(gmlVersion, srsName === undefined ? DEFAULT_CRS : srsName.trim(), crs.swap);
    ctx.body = standaloneFeature(gml.feature(type, found.id, geometry, properties), serviceUrl(ctx), GML_NS[gmlVersion]);
  }

  /**
   * GetPropertyValue (WFS 2.0.0): the values of one property (or the geometry, as GML) of the
   * features the query selects, as a wfs:ValueCollection; features without a value add no member.
   */
  private async propertyValue(
    ctx: WerkbankContext,
    q: Map<string, string>,
    publication: Publication,
    version: WfsVersion,
    type: string,
  ): Promise<void> {
    const reference = required(q, 'valuereference');
    const name = reference.replace(/^[^:/]*:/, '').replace(/^@/, '');
    const geometryWanted = name === 'geometry';
    const asked = { ...Object.fromEntries(q), outputformat: FORMATS.gml32 };
    const { count, start, resultType, crs, srsName, filter, project } = await parseWfsQuery(
      new Map(Object.entries(asked)),
      version,
      this.services.reprojection,
    );
    const schema = await this.schemas.of(publication);
    const attribute = schema.attributes.find((a) => a.name === name || xmlName(a.name) === name);
    if (!geometryWanted && !attribute)
      throw owsError(
        'InvalidParameterValue',
        'services:wfs.valuereference_unknown',
        { name: name.slice(0, 100) },
        'valueReference',
      );
    if (conditional(ctx, publication, `wfs-${digest(`${version}|${ctx.querystring}`)}`)) return;
    const gml = new GmlWriter('3.2', srsName === undefined ? DEFAULT_CRS : srsName.trim(), crs.swap);
    const members: string[] = [];
    let matched = 0;
    let complete = true;
    for await (const batch of matching(this.published.features(publication, { window: windowOf(filter) }), filter, type)) {
      for (const f of batch) {
        const { geometry } = geometryWanted ? shaped(f, project, undefined) : { geometry: null };
        const value = geometryWanted ? geometry : f.properties?.[attribute!.name];
        if (value === null || value === undefined) continue;
        matched++;
        if (resultType === 'hits' || matched <= start || members.length >= count) continue;
        members.push(
          geometryWanted
            ? gml.geometry(value as Geometry, `${gmlId(type, f.id)}.geom`)
            : esc(typeof value === 'object' ? JSON.stringify(value) : String(value)),
        );
      }
      if (resultType !== 'hits' && members.length >= count) {
        complete = false;
        break;
      }
    }
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = valueCollectionXml(members, {
      url: serviceUrl(ctx),
      matched: complete ? matched : undefined,
      timeStamp: new Date().toISOString(),
      gmlNs: GML_NS['3.2'],
    });
  }

  /** A text of the services' namespace in the caller's language. */
  private text(ctx: WerkbankContext, key: string): string {
    return ctx.state.t ? String(ctx.state.t(key, { ns: 'services' })) : key;
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
