import { ApiError, type ResourceRequest } from '@werkbank/sdk/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import { depotDefinition, pilesOf } from './pile-store';

/**
 * The items of a layer's piles as the layer shows them: each depot at its latest approved moment,
 * or at its head when it has none (an unapproved depot still shows its attributes in the editor).
 * Piles whose depot the caller cannot read are passed over. Reads through the Magazine's API.
 */
export async function* layerItems(
  req: ResourceRequest,
  depots: DepotAccess,
  layerId: number,
): AsyncIterable<Record<string, unknown>> {
  yield* depotItems(
    req,
    depots,
    (await pilesOf(req, [layerId])).map((p) => p.depot_id),
  );
}

/** The items of the given depots as a layer stacking them would show them (see layerItems). */
export async function* depotItems(
  req: ResourceRequest,
  depots: DepotAccess,
  depotIds: number[],
): AsyncIterable<Record<string, unknown>> {
  const def = depotDefinition(req);
  for (const depotId of depotIds) {
    const row = await req.services.loadReadable(def, depotId, req);
    if (!row) continue;
    let items: Record<string, unknown>[];
    try {
      items = (await depots.read(req.user, depotId)).items;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'no_approved_moment') throw e;
      const [depot] = await req.services.serialize(def, [row], req);
      const head = (depot.current_moment as { id: number } | null)?.id;
      if (head === undefined) continue;
      items = (await depots.read(req.user, depotId, head)).items;
    }
    yield* items;
  }
}

/** Collects an async iterable (the attribute helpers take plain iterables). */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}
