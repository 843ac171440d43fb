import {
  ApiError,
  inject,
  injectable,
  type RegistrySink,
  type ServiceEndpointContribution,
  type ServiceEndpointDescriptor,
  type WerkbankContext,
  type WerkbankRouter,
} from '@werkbank/sdk/node';
import { layerServiceName, type Layer } from '@werkbank/plugin-layers/api';
import { PublishedLayers, type Publication } from './published-layers';
import { ServicesServices } from './services-services';
import { queryParam } from './geojson-endpoint';
import { CONFORMANCE, collectionDocument, HTML, landingDocument, OPENAPI, selfLinks, type Scope } from './oapif-documents';
import { escapeHtml, facts, htmlPage, linkList, type OapifLink, type Texts } from './oapif-html';
import { openapiDocument } from './oapif-openapi';
import { OapifItems } from './oapif-items';
import { checkParams, COMMON_PARAMS, format, html, json, unchanged } from './oapif-http';

/** The depot types whose piles make a layer a feature collection. */
const FEATURE_PILE = /\/type\/feature\/$|^feature$/;

/** What an OGC API error's status is called (OGC API – Common's exception codes). */
const OGC_CODES: Record<number, string> = {
  400: 'InvalidParameterValue',
  401: 'NotAuthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  406: 'NotAcceptable',
};

/**
 * OGC API – Features (issue 17, decision 0083): a landing page per layer at
 * `/services/ogc/{name}/` with its one collection (the layer, id its service name), and one at
 * `/services/ogc/` with a collection per layer the caller may read (public ones for anonymous
 * callers). JSON or HTML by `f=` or Accept; errors as OGC API exceptions `{code, description}` in
 * the caller's language. The paths `collections`, `conformance` and `api` right under
 * `/services/ogc/` belong to the landing page of all layers, so a layer of such a short name is
 * reached there by its id.
 */
@injectable()
export class OapifEndpoint implements ServiceEndpointContribution {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  @inject(OapifItems) protected readonly items!: OapifItems;

  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void {
    registry.add({ id: 'services.ogc-api-features', prefix: '/services/ogc/', mount: (router) => this.mount(router) });
  }

  private mount(router: WerkbankRouter): void {
    const all = '/services/ogc';
    const one = '/services/ogc/:name';
    // The landing page of all layers first: its fixed paths win over a layer's name.
    router.get(`${all}/`, (ctx) => this.answer(ctx, (s) => this.landing(ctx, s), false));
    router.get(all, (ctx) => this.answer(ctx, (s) => this.landing(ctx, s), false));
    for (const base of [all, one]) {
      const perLayer = base === one;
      router.get(`${base}/api`, (ctx) => this.answer(ctx, (s) => this.api(ctx, s), perLayer));
      router.get(`${base}/conformance`, (ctx) => this.answer(ctx, (s) => this.conformance(ctx, s), perLayer));
      router.get(`${base}/collections`, (ctx) => this.answer(ctx, (s) => this.collections(ctx, s), perLayer));
      router.get(`${base}/collections/:id`, (ctx) => this.answer(ctx, (s) => this.collection(ctx, s), perLayer));
      router.get(`${base}/collections/:id/items`, (ctx) =>
        this.answer(ctx, (s) => this.items.list(ctx, s, () => this.publicationOf(ctx, s), format(ctx)), perLayer),
      );
      router.get(`${base}/collections/:id/items/:featureId`, (ctx) =>
        this.answer(ctx, (s) => this.items.one(ctx, s, () => this.publicationOf(ctx, s), format(ctx)), perLayer),
      );
    }
    router.get(`${one}/`, (ctx) => this.answer(ctx, (s) => this.landing(ctx, s), true));
    // Clients (QGIS) are given the landing page without its slash and ask for it that way too.
    router.get(one, (ctx) => this.answer(ctx, (s) => this.landing(ctx, s), true));
  }

  /**
   * Runs a resource's handler in its scope and turns every refusal into an OGC API exception with
   * the status it carries, in the caller's language.
   */
  private async answer(ctx: WerkbankContext, handler: (scope: Scope) => Promise<void>, perLayer: boolean): Promise<void> {
    try {
      const keep = new URLSearchParams();
      for (const [k, v] of Object.entries(ctx.query))
        if (/^(apikey|moment)$/i.test(k) && typeof (Array.isArray(v) ? v[0] : v) === 'string')
          keep.set(k, String(Array.isArray(v) ? v[0] : v));
      const origin = (this.services.config.publicUrl || `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
      const scope: Scope = { base: `${origin}/services/ogc`, keep };
      if (perLayer) {
        const publication = await this.published.open(ctx, ctx.params.name, queryParam(ctx, 'moment'));
        scope.layer = publication.layer;
        scope.publication = publication;
        scope.base = `${scope.base}/${encodeURIComponent(ctx.params.name)}`;
      }
      await handler(scope);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const [ns, key] = e.key.includes(':') ? e.key.split(':', 2) : ['server', e.key];
      ctx.status = e.status;
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.remove('ETag');
      ctx.body = { code: OGC_CODES[e.status] ?? e.code, description: String(ctx.state.t(key, { ns, ...e.params })) };
    }
  }

  /** The translations of the services namespace for this caller. */
  private texts(ctx: WerkbankContext): Texts {
    return (key, params) => String(ctx.state.t(key, { ns: 'services', ...params }));
  }

  /**
   * The publication a collection address names: on a layer's landing page the layer itself (the id
   * must be its service name), on the one for all layers the layer of that service name.
   */
  private async publicationOf(ctx: WerkbankContext, scope: Scope): Promise<Publication> {
    const id = ctx.params.id;
    const publication = scope.publication ?? (await this.published.open(ctx, id, queryParam(ctx, 'moment')));
    if (layerServiceName(publication.layer) !== id || !isFeatureLayer(publication.layer))
      throw new ApiError(404, 'not_found', 'services:oapif.errors.collection_unknown', { id: id.slice(0, 100) });
    return publication;
  }

  private async landing(ctx: WerkbankContext, scope: Scope): Promise<void> {
    const f = format(ctx);
    checkParams(ctx, COMMON_PARAMS);
    if (scope.publication && unchanged(ctx, scope.publication, f)) return;
    const t = this.texts(ctx);
    const doc = landingDocument(t, scope, f);
    if (f === 'json') return json(ctx, doc);
    const body = `${doc.description ? `<p>${escapeHtml(doc.description)}</p>` : ''}\n${linkList(t, doc.links as OapifLink[])}`;
    html(ctx, htmlPage(ctx.state.lang, String(doc.title), body));
  }

  private async api(ctx: WerkbankContext, scope: Scope): Promise<void> {
    checkParams(ctx, COMMON_PARAMS);
    const title = scope.layer ? scope.layer.name : this.texts(ctx)('oapif.all.title');
    ctx.set('Content-Type', `${OPENAPI}; charset=utf-8`);
    ctx.body = JSON.stringify(openapiDocument(scope.base, title));
  }

  private async conformance(ctx: WerkbankContext, scope: Scope): Promise<void> {
    const f = format(ctx);
    checkParams(ctx, COMMON_PARAMS);
    const t = this.texts(ctx);
    const doc = { links: selfLinks(t, scope, '/conformance', f), conformsTo: CONFORMANCE };
    if (f === 'json') return json(ctx, doc);
    const list = `<ul>\n${CONFORMANCE.map((c) => `<li>${escapeHtml(c)}</li>`).join('\n')}\n</ul>`;
    html(ctx, htmlPage(ctx.state.lang, t('oapif.html.conformance'), `${list}\n${linkList(t, doc.links)}`));
  }

  private async collections(ctx: WerkbankContext, scope: Scope): Promise<void> {
    const f = format(ctx);
    checkParams(ctx, COMMON_PARAMS);
    if (scope.publication && unchanged(ctx, scope.publication, f)) return;
    const t = this.texts(ctx);
    const layers = scope.layer
      ? [scope.layer].filter(isFeatureLayer)
      : (await this.services.layers.publishedLayers(this.published.caller(ctx))).filter(isFeatureLayer);
    const collections = layers.map((l) => collectionDocument(t, scope, l, layerServiceName(l), f));
    const doc = { links: selfLinks(t, scope, '/collections', f), collections };
    if (f === 'json') return json(ctx, doc);
    const rows = collections.map((c) => {
      const items = (c.links as OapifLink[]).find((l) => l.rel === 'items' && l.type === HTML)!;
      const self = (c.links as OapifLink[]).find((l) => l.type === HTML)!;
      return `<tr><th scope="row"><a href="${escapeHtml(self.href)}">${escapeHtml(c.title)}</a></th><td>${escapeHtml(c.description)}</td><td><a href="${escapeHtml(items.href)}">${escapeHtml(t('oapif.links.items'))}</a></td></tr>`;
    });
    const head = [t('oapif.html.collection'), t('oapif.html.description'), t('oapif.links.items')]
      .map((h) => `<th scope="col">${escapeHtml(h)}</th>`)
      .join('');
    const table = `<table>\n<caption>${escapeHtml(t('oapif.links.collections'))}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
    html(ctx, htmlPage(ctx.state.lang, t('oapif.links.collections'), `${table}\n${linkList(t, doc.links)}`));
  }

  private async collection(ctx: WerkbankContext, scope: Scope): Promise<void> {
    const f = format(ctx);
    checkParams(ctx, COMMON_PARAMS);
    const publication = await this.publicationOf(ctx, scope);
    if (unchanged(ctx, publication, f)) return;
    const t = this.texts(ctx);
    const doc = collectionDocument(t, scope, publication.layer, ctx.params.id, f);
    if (f === 'json') return json(ctx, doc);
    const bbox = publication.layer.bbox?.join(', ');
    const body = [
      doc.description ? `<p>${escapeHtml(doc.description)}</p>` : '',
      facts([
        [t('oapif.html.id'), String(doc.id)],
        [t('oapif.html.extent'), bbox],
        [t('oapif.html.crs'), (doc.crs as string[]).join(', ')],
      ]),
      linkList(t, doc.links as OapifLink[]),
    ].join('\n');
    html(ctx, htmlPage(ctx.state.lang, String(doc.title), body));
  }
}

/** True for a layer whose piles hold features and have an approved moment to serve. */
function isFeatureLayer(layer: Layer): boolean {
  return layer.layerpiles.some((p) => FEATURE_PILE.test(p.content_type) && p.active);
}
