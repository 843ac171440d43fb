import { ApiError, parseRef, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import type { DatumWriteTarget, DepotAccess } from '@werkbank/plugin-magazine/api';
import { LAYER_PATH } from '../common/layers-api';
import { depotDefinition, pilesOf } from './pile-store';

/** A walk that reaches more depots than this is refused rather than followed (a pathological stack). */
export const MAX_CYCLE_WALK = 500;

/** The layers a layer datum names: its `value` as a layer address or id. */
function layerRefs(items: Record<string, unknown>[]): number[] {
  return items.map((i) => parseRef(i.value, LAYER_PATH)).filter((id): id is number => id !== undefined);
}

/** Where a walk came back: the start depot it went out from and the layer it reached. */
interface Loop {
  start: number;
  layer: number;
}

/**
 * Walks from the depots `starts` (layer datums) to the layers they name, those layers' piles when
 * they are metalayers, and so on, until it reaches one of `targets`; gives the start depot it went
 * out from and the target, or undefined. A depot counts with the datums of its head and of its
 * latest approved moment, so approving the head later cannot close a loop. The walk sees every
 * layer and depot (it reads as a superuser, in the write's transaction `req.manager`) because a
 * loop through objects the writer cannot read loops all the same. Past MAX_CYCLE_WALK depots it
 * calls `tooDeep` (which throws).
 */
async function findLoop(
  req: ResourceRequest,
  depots: DepotAccess,
  starts: number[],
  targets: Set<number>,
  tooDeep: () => never,
): Promise<Loop | undefined> {
  const all: ResourceRequest = { ...req, user: { ...req.user, isSuperuser: true } };
  const depotDef = depotDefinition(req);
  const seenDepots = new Set<number>();
  const seenLayers = new Set<number>(targets);
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
  for (const start of starts) {
    const queue = [start];
    while (queue.length) {
      const depotId = queue.shift()!;
      if (seenDepots.has(depotId)) continue;
      seenDepots.add(depotId);
      if (seenDepots.size > MAX_CYCLE_WALK) tooDeep();
      for (const ref of await refsOf(depotId)) {
        if (targets.has(ref)) return { start, layer: ref };
        if (seenLayers.has(ref)) continue;
        seenLayers.add(ref);
        const [next] = (await req.manager.query(`SELECT type FROM layers_layer WHERE id = $1`, [ref])) as { type: string }[];
        if (next?.type === 'metalayer') queue.push(...(await pilesOf(req, [ref])).map((p) => p.depot_id));
      }
    }
  }
  return undefined;
}

/**
 * Checks that the metalayer `layer` does not contain itself, directly or through other metalayers
 * (decision 0063): the walk goes out from each of its piles' depots. The refusal names only the
 * writer's own layer and pile: 400 `layer_cycle`, field `layerpiles`.
 */
export async function refuseMetalayerCycle(req: ResourceRequest, depots: DepotAccess, layer: Row): Promise<void> {
  const piles = await pilesOf(req, [layer.id]);
  const loop = await findLoop(
    req,
    depots,
    piles.map((p) => p.depot_id),
    new Set([layer.id]),
    () => {
      throw ApiError.badRequest('layer_cycle', 'layers:errors.layer_stack_too_deep', { max: MAX_CYCLE_WALK }, 'layerpiles');
    },
  );
  if (!loop) return;
  const pile = piles.find((p) => p.depot_id === loop.start)!;
  throw ApiError.badRequest(
    'layer_cycle',
    'layers:errors.layer_cycle',
    { name: String(layer.name), pile: pile.name || String(pile.depot_id) },
    'layerpiles',
  );
}

/**
 * The other side of refuseMetalayerCycle (a DatumWriteGuard of the Magazine): layer datums written
 * into a depot that metalayers stack must not lead back to one of those metalayers. A new loop
 * goes through the written depot, so the walk goes out from it alone; a depot no metalayer stacks
 * costs one query. 400 `layer_cycle`, field `value` (the datum field that names a layer); the
 * reason names the writer's depot, and the metalayer only when the writer may read it.
 */
export async function refuseLayerDatumCycle(req: ResourceRequest, depots: DepotAccess, write: DatumWriteTarget): Promise<void> {
  const stacking = (await req.manager.query(
    `SELECT DISTINCT l.id FROM layers_pile p JOIN layers_layer l ON l.id = p.layer_id
     WHERE p.depot_id = $1 AND l.type = 'metalayer'`,
    [write.depot_id],
  )) as { id: number }[];
  if (!stacking.length) return;
  const depot = await req.services.loadReadable(depotDefinition(req), write.depot_id, req);
  const depotName = String(depot?.name ?? write.depot_id);
  const loop = await findLoop(req, depots, [write.depot_id], new Set(stacking.map((l) => l.id)), () => {
    throw ApiError.badRequest(
      'layer_cycle',
      'layers:errors.layer_entry_stack_too_deep',
      { depot: depotName, max: MAX_CYCLE_WALK },
      'value',
    );
  });
  if (!loop) return;
  const layerDef = req.services.definitions().find((d) => d.kind === 'layer');
  const layer = layerDef ? await req.services.loadReadable(layerDef, loop.layer, req) : undefined;
  if (layer)
    throw ApiError.badRequest(
      'layer_cycle',
      'layers:errors.layer_entry_cycle',
      { name: String(layer.name), depot: depotName },
      'value',
    );
  throw ApiError.badRequest('layer_cycle', 'layers:errors.layer_entry_cycle_hidden', { depot: depotName }, 'value');
}
