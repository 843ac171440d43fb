import {
  ApiError,
  guard,
  inject,
  optional,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { depotFor, idParam } from './depot-access';
import { layersUnavailable } from './depot-resource';
import { loadMoment } from './moment-store';
import { MagazineServices } from './magazine-services';
import { DepotLayers, type DepotLayerTarget } from '../common/magazine-api';

/**
 * A depot (or one of its moments) as a layer (spec 000 §7 Moments): `show_as_layer` and
 * `edit_as_layer` on moments and depots. The Magazine checks read access to the depot; the plugin
 * bound to DepotLayers finds or makes the layer. `?redirect=1` answers with a redirect to the url.
 */
@injectable()
export class DepotLayerRoutes implements HttpRouteContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;
  /** Bound by the plugin that owns layers; the layer calls answer 501 without it. */
  @inject(DepotLayers) @optional() protected readonly layers?: DepotLayers;

  protected async call(
    ctx: WerkbankContext,
    mode: 'show' | 'edit',
    target: (r: ResourceRequest) => Promise<DepotLayerTarget>,
  ): Promise<void> {
    guard(ctx, this.services.gate, undefined, 'depot');
    const reply = await this.services.resources.inTransaction(requestOf(ctx, this.services), 'layer', async (r) => {
      const about = await target(r);
      if (!this.layers) throw layersUnavailable();
      return this.layers.asLayer(r, about, mode);
    });
    if (ctx.query.redirect === '1') ctx.redirect(reply.url);
    else ctx.body = reply;
  }

  protected async depotTarget(r: ResourceRequest, depotId: number, momentId?: number): Promise<DepotLayerTarget> {
    const depot = await depotFor(r, depotId, 'read');
    return { depot_id: depotId, depot_name: String(depot.name), content_type: String(depot.content_type), moment_id: momentId };
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'magazine.depot-layer-routes',
      realms: ['depot'],
      mount: (router) => {
        for (const mode of ['show', 'edit'] as const) {
          router.get(`/api/v1/depot/:id/${mode}_as_layer/`, (ctx) =>
            this.call(ctx, mode, (r) => this.depotTarget(r, idParam(ctx.params.id))),
          );
          router.get(`/api/v1/moment/:id/${mode}_as_layer/`, (ctx) =>
            this.call(ctx, mode, async (r) => {
              const moment = await loadMoment(r.manager, idParam(ctx.params.id));
              if (!moment) throw ApiError.notFound();
              return this.depotTarget(r, moment.depot_id, moment.id);
            }),
          );
        }
      },
    });
  }
}
