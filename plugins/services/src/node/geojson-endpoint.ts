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
import { parseBbox, parseProperties, type Parsed, type Window } from '../common/service-params';
import { PublishedLayers, refuseMetalayer, type Publication, type ServedFeature } from './published-layers';
import { FeatureSchemas } from './feature-schemas';
import { CSV_BOM, csvHeader, csvRow } from './csv-rows';

/** A query parameter as one string (the first when repeated). */
export function queryParam(ctx: WerkbankContext, name: string): string | undefined {
  const raw = ctx.query[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** The value of a parsed parameter, or a 400 naming the parameter in the caller's language. */
export function valueOf<T>(parsed: Parsed<T>, field: string): T {
  if ('problem' in parsed)
    throw ApiError.badRequest('invalid_parameter', `services:errors.${parsed.problem}`, parsed.params ?? {}, field);
  return parsed.value;
}

/**
 * Sets the publication's ETag and cache rules and answers 304 when the client holds this state.
 * Clients must revalidate (no-cache), so a newly approved moment is seen on the next request.
 */
export function conditional(ctx: WerkbankContext, publication: Publication, variant = ''): boolean {
  const etag = `"${publication.key}${variant ? `.${variant}` : ''}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', publication.layer.public && !publication.writable ? 'public, no-cache' : 'private, no-cache');
  ctx.set('Vary', 'Cookie, Authorization, X-API-Key');
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return true;
  }
  return false;
}

/** The features with only the `keep` properties (all when undefined). */
export function selectProperties(features: ServedFeature[], keep: string[] | undefined): ServedFeature[] {
  if (!keep) return features;
  return features.map((f) => ({
    ...f,
    properties: f.properties
      ? Object.fromEntries(keep.filter((k) => k in f.properties!).map((k) => [k, f.properties![k]]))
      : null,
  }));
}

/**
 * GeoJSON (spec 001 §2.2): `GET /services/geojson/{name}/` — the layer's features as an RFC 7946
 * FeatureCollection, written as the rows arrive, optionally only those in `bbox=` and with only the
 * `properties=` given; `moment=` previews a draft for authors. `f=csv` gives the same features as
 * CSV (WKT and one column per property of the layer, or those of `properties=`; decision 0091).
 */
@injectable()
export class GeojsonEndpoint implements ServiceEndpointContribution {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(FeatureSchemas) protected readonly schemas!: FeatureSchemas;

  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void {
    registry.add({
      id: 'services.geojson',
      prefix: '/services/geojson/',
      mount: (router) => {
        router.get('/services/geojson/:name/', (ctx) => this.collection(ctx));
        router.get('/services/geojson/:name', (ctx) => this.collection(ctx));
      },
    });
  }

  private async collection(ctx: WerkbankContext): Promise<void> {
    const window = valueOf(parseBbox(queryParam(ctx, 'bbox')), 'bbox');
    const keep = parseProperties(queryParam(ctx, 'properties'));
    const f = queryParam(ctx, 'f');
    if (f !== undefined && f !== 'json' && f !== 'csv')
      throw ApiError.badRequest('invalid_parameter', 'services:errors.format_unknown', { format: f.slice(0, 20) }, 'f');
    const publication = await this.published.open(ctx, ctx.params.name, queryParam(ctx, 'moment'));
    refuseMetalayer(publication);
    if (conditional(ctx, publication, `${window?.join(',') ?? ''}|${keep?.join(',') ?? ''}|${f ?? ''}`)) return;
    if (f === 'csv') return await this.csv(ctx, publication, window, keep);
    const features = this.published.features(publication, { window });
    async function* chunks(): AsyncGenerator<string> {
      yield '{"type":"FeatureCollection","features":[\n';
      let first = true;
      for await (const batch of features) {
        yield (
          (first ? '' : ',\n') +
          selectProperties(batch, keep)
            .map((f) => JSON.stringify(f))
            .join(',\n')
        );
        first = false;
      }
      yield '\n]}\n';
    }
    ctx.set('Content-Type', 'application/geo+json; charset=utf-8');
    ctx.body = Readable.from(chunks());
  }

  /** The features as CSV, written as the rows arrive; the columns are the layer's properties (or `keep`). */
  private async csv(
    ctx: WerkbankContext,
    publication: Publication,
    window: Window | undefined,
    keep: string[] | undefined,
  ): Promise<void> {
    const columns = keep ?? (await this.schemas.of(publication)).attributes.map((a) => a.name);
    const features = this.published.features(publication, { window });
    async function* chunks(): AsyncGenerator<string> {
      yield CSV_BOM + csvHeader(columns);
      for await (const batch of features) yield batch.map((f) => csvRow(f, columns)).join('');
    }
    const name = (publication.layer.slug || `layer-${publication.layer.id}`).replace(/[^\w.-]/g, '_');
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${name}.csv"`);
    ctx.body = Readable.from(chunks());
  }
}
