import { ApiError, inject, injectable, parseRef, type ResourceDefinition, type ResourceRequest } from '@werkbank/sdk/node';
import type { DepotLayerReply, DepotLayers, DepotLayerTarget } from '@werkbank/plugin-magazine/api';
import { layerTypeForDepot } from '../common/layer-types';
import { LAYER_PATH } from '../common/layers-api';
import { LayersServices } from './layers-services';
import { depotDefinition, DEPOT_PATH } from './pile-store';
import { DATUM_PATH, styleOfDatum } from './layer-style-source';

/** The editor's address of a layer (spec 000 §2 `/layers/edit/{id}`). */
export const editorUrl = (id: number) => `/layers/edit/${id}`;

/**
 * The Magazine's layer calls (DepotLayers, decision 0060): a depot shown or edited as a layer is
 * the first layer stacking it that the caller may read (show) or change (edit); without one, a
 * new layer of the fitting type with the depot as its only pile, owned by the caller. Both answer
 * the editor's address until a viewer exists.
 */
@injectable()
export class DepotLayersService implements DepotLayers {
  @inject(LayersServices) protected readonly services!: LayersServices;

  protected layerDef(req: ResourceRequest): ResourceDefinition {
    return req.services.definitions().find((d) => d.kind === 'layer')!;
  }

  async asLayer(req: ResourceRequest, target: DepotLayerTarget, mode: 'show' | 'edit'): Promise<DepotLayerReply> {
    const type = layerTypeForDepot(target.content_type, (a, b) => this.services.types.isAssignable(a, b));
    if (!type)
      throw ApiError.badRequest('no_layer_type', 'layers:errors.no_layer_type', { type: target.content_type }, 'content_type');
    const def = this.layerDef(req);
    const stacking = (await req.manager.query(`SELECT DISTINCT layer_id FROM layers_pile WHERE depot_id = $1 ORDER BY layer_id`, [
      target.depot_id,
    ])) as { layer_id: number }[];
    for (const { layer_id } of stacking) {
      const row = await req.services.loadReadable(def, layer_id, req);
      if (row && (mode === 'show' || (await req.services.mayWrite(def, row, req))))
        return { status: 'ok', url: editorUrl(layer_id), layer: `${LAYER_PATH}${layer_id}/`, layer_id, created: false };
    }
    const styleDatum = await this.depotStyle(req, target.depot_id);
    const created = await req.services.create(
      def,
      {
        name: target.depot_name.slice(0, 200),
        type,
        layerpiles: [{ depot: target.depot_id }],
        ...(styleDatum ? { style_datum: styleDatum } : {}),
      },
      req,
    );
    const id = created.id as number;
    return { status: 'ok', url: editorUrl(id), layer: `${LAYER_PATH}${id}/`, layer_id: id, created: true };
  }

  /**
   * The style a new layer of the depot is drawn with (decision 0068): the first valid style datum of
   * the style depot the depot's Style tab picked, at its latest approved moment (its head when it has
   * none), when the caller may read it; undefined otherwise (the default style).
   */
  protected async depotStyle(req: ResourceRequest, depotId: number): Promise<string | undefined> {
    const depotDef = depotDefinition(req);
    const row = await req.services.loadReadable(depotDef, depotId, req);
    if (!row) return undefined;
    const [depot] = await req.services.serialize(depotDef, [row], req);
    const styleDepot = parseRef(depot.style_depot, DEPOT_PATH);
    if (styleDepot === undefined) return undefined;
    const snapshot = await this.services.depots
      .read(req.user, styleDepot, undefined, { manager: req.manager })
      .catch(async (e: unknown) => {
        if (!(e instanceof ApiError) || e.code !== 'no_approved_moment') return undefined;
        const styleRow = await req.services.loadReadable(depotDef, styleDepot, req);
        const head =
          styleRow && ((await req.services.serialize(depotDef, [styleRow], req))[0].current_moment as { id: number } | null)?.id;
        return head === undefined || head === null
          ? undefined
          : this.services.depots.read(req.user, styleDepot, head, { manager: req.manager });
      });
    const at = snapshot?.items.findIndex((item) => styleOfDatum(item) !== undefined) ?? -1;
    return snapshot && at >= 0 ? `${DATUM_PATH}${snapshot.indexes[at]}/` : undefined;
  }

  async pileDepot(req: ResourceRequest, pileId: number): Promise<number> {
    const [pile] = (await req.manager.query(`SELECT layer_id, depot_id FROM layers_pile WHERE id = $1`, [pileId])) as {
      layer_id: number;
      depot_id: number;
    }[];
    if (!pile || !(await req.services.loadReadable(this.layerDef(req), pile.layer_id, req))) throw ApiError.notFound();
    return pile.depot_id;
  }
}
