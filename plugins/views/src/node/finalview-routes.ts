import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type AuthUser,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { CREATE_FINALVIEW_PATH, type FinalviewPins, type FrozenView } from '../common/finalview-fields';
import { layerIdOf, viewLayers, type ViewLayerGroup } from '../common/view-tree';
import { createFinalview, finalviewResource } from './finalview-resource';
import { ViewsServices } from './views-services';
import { parsed } from './view-rows';

/**
 * `GET /switchboard/create-finalview/?slug=&view=` (spec 000 §7; a state-changing GET that needs the
 * CSRF header, with a POST form taking the same fields as a JSON body): freezes a view the caller
 * may read. Both parameters are required (spec 000 §5). The copy and the pins are made before the
 * write's transaction (the Magazine and the layers are read with the caller's rights), then the
 * frozen view is created in it; 200 with the frozen view (as the other creating GETs answer).
 */
@injectable()
export class FinalviewRoutes implements HttpRouteContribution {
  @inject(ViewsServices) protected readonly services!: ViewsServices;

  protected async params(ctx: WerkbankContext): Promise<{ slug: string; view: string }> {
    const q = { ...(ctx.query as Record<string, unknown>) };
    if (ctx.method === 'POST') Object.assign(q, await this.services.bodies.json(ctx));
    const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');
    return { slug: text(q.slug), view: text(q.view) };
  }

  /** Per layer of the tree the caller may read: its revision and its piles' approved moments. */
  protected async pins(user: AuthUser, tree: ViewLayerGroup): Promise<FinalviewPins> {
    const pins: FinalviewPins = {};
    for (const entry of viewLayers(tree)) {
      const id = layerIdOf(entry.layer);
      if (id === undefined || pins[id]) continue;
      let layer;
      try {
        layer = await this.services.layers.layer(user, id);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) continue;
        throw e;
      }
      const moments: Record<string, number | null> = {};
      for (const pile of layer.layerpiles) {
        try {
          moments[pile.depot_id] = (await this.services.depots.windowReader(user, pile.depot_id)).moment_id;
        } catch (e) {
          if (!(e instanceof ApiError) || (e.status !== 404 && e.code !== 'no_approved_moment')) throw e;
          moments[pile.depot_id] = null;
        }
      }
      pins[id] = { revision: layer.revision, moments };
    }
    return pins;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'views.finalviews',
      realms: ['view'],
      openapi: {
        [CREATE_FINALVIEW_PATH]: {
          get: {
            tags: ['finalview'],
            summary:
              'Freezes a view: a copy whose layers stay at the moments approved now (state-changing GET: needs the X-CSRFToken header)',
            'x-changes-state': true,
            parameters: [
              { name: 'slug', in: 'query', required: true, schema: { type: 'string' } },
              { name: 'view', in: 'query', required: true, schema: { type: 'string' } },
            ],
            responses: { 200: { description: 'The frozen view' }, 400: { description: 'Error' }, 404: { description: 'Error' } },
          },
          post: {
            tags: ['finalview'],
            summary: 'The same with slug and view in a JSON body',
            responses: { 200: { description: 'The frozen view' }, 400: { description: 'Error' }, 404: { description: 'Error' } },
          },
        },
      },
      mount: (router) => {
        router.register(CREATE_FINALVIEW_PATH, ['GET', 'POST'], async (ctx) => {
          guard(ctx, undefined, undefined, 'view');
          const r = requestOf(ctx, this.services);
          const { slug, view: raw } = await this.params(ctx);
          if (!slug) throw ApiError.badRequest('invalid_parameter', 'views:errors.finalview_needs', {}, 'slug');
          if (!raw) throw ApiError.badRequest('invalid_parameter', 'views:errors.finalview_needs', {}, 'view');
          const m = /^(?:\/api\/v1\/view\/)?(\d{1,9})\/?$/.exec(raw);
          if (!m) throw ApiError.badRequest('invalid_parameter', 'views:errors.view_param', {}, 'view');
          const viewDef = r.services.definitions().find((d) => d.kind === 'view')!;
          const view = await r.services.loadReadable(viewDef, Number(m[1]), r);
          if (!view) throw ApiError.notFound();
          const translations = (await r.manager.query(
            `SELECT key, "values" FROM views_translation WHERE view_id = $1 ORDER BY key, id`,
            [view.id],
          )) as FrozenView['translations'];
          const frozen: FrozenView = {
            name: String(view.name),
            subline: String(view.subline ?? ''),
            description: String(view.description ?? ''),
            image: String(view.image ?? ''),
            home: parsed(view.home) ?? null,
            layergroup: parsed(view.layergroup),
            poigroup: parsed(view.poigroup),
            config: parsed(view.config),
            translations: translations.map((t) => ({ key: t.key, values: parsed(t.values) as Record<string, string> })),
          };
          const pins = await this.pins(r.user, frozen.layergroup as ViewLayerGroup);
          const def = r.services.definitions().find((d) => d.kind === finalviewResource.kind)!;
          ctx.body = await this.services.resources.inTransaction(r, 'finalview', (w) =>
            createFinalview(w, def, slug, { view, frozen, pins }),
          );
        });
      },
    });
  }
}
