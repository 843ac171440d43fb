import { ApiError, parseRef, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import { LAYER_PATH } from '../common/layers-api';
import { depotDefinition, pilesOf } from './pile-store';

/** A walk that reaches more depots than this is refused rather than followed (a pathological stack). */
export const MAX_CYCLE_WALK = 500;

/** The layers a layer datum names: its `value` as a layer address or id. */
function layerRefs(items: Record<string, unknown>[]): number[] {
  return items.map((i) => parseRef(i.value, LAYER_PATH)).filter((id): id is number => id !== undefined);
}

/**
 * Checks that the metalayer `layerId` does not contain itself, directly or through other
 * metalayers (decision 0063): from each of its piles' depots (layer datums), the layers they name,
 * those layers' piles, and so on. A depot counts with the datums of its head and of its latest
 * approved moment, so approving the head later cannot close a loop. The walk sees every layer and
 * depot (it reads as a superuser, in the write's transaction) because a loop through objects the
 * writer cannot read loops all the same; the refusal names only the writer's own layer and pile.
 * 400 `layer_cycle`, field `layerpiles`.
 */
export async function refuseMetalayerCycle(req: ResourceRequest, depots: DepotAccess, layer: Row): Promise<void> {
  const all: ResourceRequest = { ...req, user: { ...req.user, isSuperuser: true } };
  const depotDef = depotDefinition(req);
  const seenDepots = new Set<number>();
  const seenLayers = new Set<number>([layer.id]);
  const refsOf = async (depotId: number): Promise<number[]> => {
    const row = await all.services.loadReadable(depotDef, depotId, all);
    if (!row) return [];
    const [depot] = await all.services.serialize(depotDef, [row], all);
    const moments = new Set<number | undefined>([(depot.current_moment as { id: number } | null)?.id]);
    const out: number[] = [];
    for (const moment of [undefined, ...moments]) {
      try {
        out.push(...layerRefs((await depots.read(all.user, depotId, moment, { manager: req.manager })).items));
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== 'no_approved_moment') throw e;
      }
    }
    return out;
  };
  const piles = await pilesOf(req, [layer.id]);
  for (const first of piles) {
    const queue = [first.depot_id];
    while (queue.length) {
      const depotId = queue.shift()!;
      if (seenDepots.has(depotId)) continue;
      seenDepots.add(depotId);
      if (seenDepots.size > MAX_CYCLE_WALK)
        throw ApiError.badRequest('layer_cycle', 'layers:errors.layer_stack_too_deep', { max: MAX_CYCLE_WALK }, 'layerpiles');
      for (const ref of await refsOf(depotId)) {
        if (ref === layer.id)
          throw ApiError.badRequest(
            'layer_cycle',
            'layers:errors.layer_cycle',
            { name: String(layer.name), pile: first.name || String(first.depot_id) },
            'layerpiles',
          );
        if (seenLayers.has(ref)) continue;
        seenLayers.add(ref);
        const [next] = (await req.manager.query(`SELECT type FROM layers_layer WHERE id = $1`, [ref])) as { type: string }[];
        if (next?.type === 'metalayer') queue.push(...(await pilesOf(req, [ref])).map((p) => p.depot_id));
      }
    }
  }
}
