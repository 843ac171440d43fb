import { ApiError, inject, injectable, type WerkbankContext } from '@werkbank/sdk/node';
import { parseCount, parseProperties, type Window } from '../common/service-params';
import { queryParam, selectProperties, valueOf } from './geojson-endpoint';
import { PublishedLayers, type Publication, type ServedFeature } from './published-layers';
import { ServicesServices } from './services-services';
import { featuresIn, parseBboxIn, parseCrs, type OapifCrs } from './oapif-crs';
import { GEOJSON, href, selfLinks, type Scope } from './oapif-documents';
import { featureTable, htmlPage, linkList, propertyTable, type OapifLink, type Texts } from './oapif-html';
import { checkParams, COMMON_PARAMS, html, json, unchanged } from './oapif-http';

const ITEM_PARAMS = [...COMMON_PARAMS, 'bbox', 'bbox-crs', 'crs', 'limit', 'offset', 'properties', 'datetime'];
const LIMIT_DEFAULT = 10;
const LIMIT_MAX = 10_000;
/** How many counts of served states are remembered (numberMatched of later pages without a full count). */
const COUNTS_KEPT = 500;

/** `datetime=`: an RFC 3339 instant or an interval of two (either may be `..` or empty for open). */
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2}))?$/;

function checkDatetime(raw: string | undefined): void {
  if (raw === undefined) return;
  const parts = raw.split('/');
  const ok =
    parts.length <= 2 &&
    parts.every((p) => (parts.length === 2 && (p === '' || p === '..')) || (INSTANT.test(p) && !Number.isNaN(Date.parse(p)))) &&
    !(parts.length === 2 && parts.every((p) => p === '' || p === '..'));
  if (!ok) throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.datetime_invalid', {}, 'datetime');
}

/**
 * The items of a collection (`/items`) and one item (`/items/{featureId}`): GeoJSON pages in the
 * datum index order, `offset`/`limit` with `next` and `prev` links, numberMatched, bbox (also in
 * `bbox-crs`), properties and `crs` (OGC API – Features Part 2, `Content-Crs` header). The
 * publication's features carry no time of their own, so `datetime` is checked and keeps them all.
 */
@injectable()
export class OapifItems {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  /** numberMatched per served state and window: states never change, so counts stay true. */
  private readonly counts = new Map<string, number>();

  private texts(ctx: WerkbankContext): Texts {
    return (key, params) => String(ctx.state.t(key, { ns: 'services', ...params }));
  }

  async list(ctx: WerkbankContext, scope: Scope, pending: () => Promise<Publication>, f: 'json' | 'html'): Promise<void> {
    checkParams(ctx, ITEM_PARAMS);
    const reprojection = this.services.reprojection;
    const crs = parseCrs(queryParam(ctx, 'crs'), 'crs', reprojection);
    const bboxCrs = parseCrs(queryParam(ctx, 'bbox-crs'), 'bbox-crs', reprojection);
    const window = await parseBboxIn(queryParam(ctx, 'bbox'), bboxCrs, reprojection);
    const limit = valueOf(parseCount(queryParam(ctx, 'limit'), LIMIT_DEFAULT, LIMIT_MAX, 'limit'), 'limit');
    if (limit < 1) throw ApiError.badRequest('invalid_parameter', 'services:oapif.errors.limit_zero', {}, 'limit');
    const offset = valueOf(parseCount(queryParam(ctx, 'offset'), 0, Number.MAX_SAFE_INTEGER, 'offset'), 'offset');
    const keep = parseProperties(queryParam(ctx, 'properties'));
    checkDatetime(queryParam(ctx, 'datetime'));
    const publication = await pending();
    if (unchanged(ctx, publication, f)) return;
    const { features, matched } = await this.page(publication, window, offset, limit);
    const out = await this.output(selectProperties(features, keep), crs);
    ctx.set('Content-Crs', `<${crs.uri}>`);

    const t = this.texts(ctx);
    const path = `/collections/${encodeURIComponent(ctx.params.id)}/items`;
    const params: Record<string, string | undefined> = {
      bbox: queryParam(ctx, 'bbox'),
      'bbox-crs': queryParam(ctx, 'bbox-crs'),
      crs: queryParam(ctx, 'crs'),
      properties: queryParam(ctx, 'properties'),
      datetime: queryParam(ctx, 'datetime'),
      limit: String(limit),
    };
    const links: OapifLink[] = selfLinks(t, scope, path, f, GEOJSON, { ...params, offset: offset ? String(offset) : undefined });
    const page = (rel: string, at: number, title: string) => {
      const type = f === 'json' ? GEOJSON : 'text/html';
      links.push({ href: href(scope, path, { ...params, offset: String(at), f }), rel, type, title });
    };
    if (offset + out.length < matched) page('next', offset + out.length, t('oapif.links.next'));
    if (offset > 0) page('prev', Math.max(0, offset - limit), t('oapif.links.prev'));
    links.push({
      href: href(scope, `/collections/${encodeURIComponent(ctx.params.id)}`, { f }),
      rel: 'collection',
      type: f === 'json' ? 'application/json' : 'text/html',
      title: publication.layer.name,
    });

    if (f === 'json') {
      return json(
        ctx,
        {
          type: 'FeatureCollection',
          features: out,
          numberMatched: matched,
          numberReturned: out.length,
          timeStamp: new Date().toISOString(),
          links,
        },
        GEOJSON,
      );
    }
    const caption = t('oapif.html.features', { from: out.length ? offset + 1 : 0, to: offset + out.length, total: matched });
    const itemHref = (id: string | number) => href(scope, `${path}/${encodeURIComponent(String(id))}`, { f: 'html' });
    html(
      ctx,
      htmlPage(ctx.state.lang, publication.layer.name, `${featureTable(t, caption, out, itemHref)}\n${linkList(t, links)}`),
    );
  }

  async one(ctx: WerkbankContext, scope: Scope, pending: () => Promise<Publication>, f: 'json' | 'html'): Promise<void> {
    checkParams(ctx, [...COMMON_PARAMS, 'crs']);
    const crs = parseCrs(queryParam(ctx, 'crs'), 'crs', this.services.reprojection);
    const publication = await pending();
    if (unchanged(ctx, publication, f)) return;
    const id = ctx.params.featureId;
    let found: ServedFeature | undefined;
    for await (const batch of this.published.features(publication)) {
      found = batch.find((x) => String(x.id) === id);
      if (found) break;
    }
    if (!found) throw new ApiError(404, 'not_found', 'services:oapif.errors.feature_unknown', { id: id.slice(0, 100) });
    const [feature] = await this.output([found], crs);
    ctx.set('Content-Crs', `<${crs.uri}>`);
    const t = this.texts(ctx);
    const collection = `/collections/${encodeURIComponent(ctx.params.id)}`;
    const links: OapifLink[] = [
      ...selfLinks(t, scope, `${collection}/items/${encodeURIComponent(id)}`, f, GEOJSON, { crs: queryParam(ctx, 'crs') }),
      {
        href: href(scope, collection, { f }),
        rel: 'collection',
        type: f === 'json' ? 'application/json' : 'text/html',
        title: publication.layer.name,
      },
    ];
    if (f === 'json') return json(ctx, { ...feature, links }, GEOJSON);
    const title = t('oapif.html.feature', { id: feature.id });
    const body = `${propertyTable(t, t('oapif.html.properties'), feature.properties)}\n${linkList(t, links)}`;
    html(ctx, htmlPage(ctx.state.lang, `${title} – ${publication.layer.name}`, body));
  }

  /**
   * The features `offset` to `offset + limit` in the publication's order (each pile's datum index
   * order) and how many match in all: counted once per served state and window, later pages stop
   * reading at their last feature.
   */
  private async page(
    publication: Publication,
    window: Window | undefined,
    offset: number,
    limit: number,
  ): Promise<{ features: ServedFeature[]; matched: number }> {
    const key = `${publication.key}|${window?.join(',') ?? ''}`;
    const known = this.counts.get(key);
    const features: ServedFeature[] = [];
    let seen = 0;
    for await (const batch of this.published.features(publication, { window })) {
      for (const feature of batch) {
        if (seen >= offset && features.length < limit) features.push(feature);
        seen++;
      }
      if (known !== undefined && seen >= offset + limit) break;
    }
    if (known === undefined) {
      if (this.counts.size >= COUNTS_KEPT) this.counts.delete(this.counts.keys().next().value!);
      this.counts.set(key, seen);
    }
    return { features, matched: known ?? seen };
  }

  /** The features in `crs` (a 400 when one cannot be reprojected there). */
  private async output(features: ServedFeature[], crs: OapifCrs): Promise<ServedFeature[]> {
    const convert = await featuresIn(crs, this.services.reprojection);
    return features.map((x, i) => convert(x, i));
  }
}
