import { ApiError, parseRef, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { LAYER_PATH, PILE_PATH, type LayerPile } from '../common/layers-api';
import { PILE_TYPES, type LayerType } from '../common/layer-types';
import type { SwitchboardRuns } from '@werkbank/plugin-switchboards/api';

export const DEPOT_PATH = '/api/v1/depot/';
export const TYPE_PATH = '/api/v1/type/';

export interface PileRow {
  id: number;
  layer_id: number;
  depot_id: number;
  name: string;
  position: number;
}

/** A pile as a layer's body gives it: a depot (address or id), optionally a name and the id of a pile it keeps. */
export interface PileInput {
  id?: number;
  depotId: number;
  name?: string;
}

/** The depot kind of the Magazine, through the resource layer (the Magazine's own rules apply). */
export function depotDefinition(req: ResourceRequest): ResourceDefinition {
  const def = req.services.definitions().find((d) => d.kind === 'depot');
  if (!def) throw new ApiError(501, 'magazine_unavailable', 'layers:errors.magazine_unavailable');
  return def;
}

/** The piles of the given layers in their order. */
export async function pilesOf(req: ResourceRequest, layerIds: number[]): Promise<PileRow[]> {
  if (!layerIds.length) return [];
  return (await req.manager.query(
    `SELECT id, layer_id, depot_id, name, position FROM layers_pile WHERE layer_id = ANY($1) ORDER BY layer_id, position, id`,
    [layerIds],
  )) as PileRow[];
}

/** Parses `layerpiles` of a body; 400 naming the entry that is not a pile. */
export function parsePiles(value: unknown): PileInput[] {
  if (!Array.isArray(value)) throw ApiError.badRequest('invalid_field', 'layers:errors.list', {}, 'layerpiles');
  return value.map((entry, i) => {
    const field = `layerpiles[${i}]`;
    const raw: Record<string, unknown> =
      entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : { depot: entry };
    const depotId = parseRef(raw.depot as string | number, DEPOT_PATH);
    if (depotId === undefined) throw ApiError.badRequest('invalid_field', 'layers:errors.pile_depot', {}, `${field}.depot`);
    if (raw.name !== undefined && typeof raw.name !== 'string')
      throw ApiError.badRequest('invalid_field', 'layers:errors.pile_name', {}, `${field}.name`);
    const id = typeof raw.id === 'number' && Number.isInteger(raw.id) ? raw.id : undefined;
    return { id, depotId, name: (raw.name as string | undefined)?.slice(0, 200) };
  });
}

/**
 * Checks that every pile's depot exists, the caller may read it, and its type fits the layer type
 * (PILE_TYPES); returns the depots' rows by id. `skipUnreadable` passes over depots the caller
 * cannot read (a type change checks the piles it can see). 400 unknown_pile_depot / pile_type naming the entry.
 */
export async function checkPileDepots(
  req: ResourceRequest,
  type: LayerType,
  depotIds: number[],
  isAssignable: (from: string, to: string) => boolean,
  skipUnreadable = false,
): Promise<Map<number, Row>> {
  const def = depotDefinition(req);
  const rows = new Map<number, Row>();
  for (const [i, id] of depotIds.entries()) {
    const row = rows.get(id) ?? (await req.services.loadReadable(def, id, req));
    if (!row && skipUnreadable) continue;
    if (!row)
      throw ApiError.badRequest(
        'unknown_pile_depot',
        'layers:errors.unknown_pile_depot',
        { depot: id },
        `layerpiles[${i}].depot`,
      );
    const contentType = String(row.content_type);
    if (!PILE_TYPES[type].some((t) => isAssignable(contentType, t)))
      throw ApiError.badRequest(
        'pile_type',
        'layers:errors.pile_type',
        { name: String(row.name), depot_type: contentType, type, allowed: PILE_TYPES[type].join(', ') },
        `layerpiles[${i}].depot`,
      );
    rows.set(id, row);
  }
  return rows;
}

/** Replaces a layer's piles by `piles` in their order, keeping the ids of piles it names. */
export async function replacePiles(
  req: ResourceRequest,
  layerId: number,
  piles: PileInput[],
  names: Map<number, Row>,
): Promise<void> {
  const existing = new Set((await pilesOf(req, [layerId])).map((p) => p.id));
  const kept = new Set<number>();
  for (const [position, p] of piles.entries()) {
    const name = p.name ?? String(names.get(p.depotId)?.name ?? '');
    if (p.id !== undefined && existing.has(p.id) && !kept.has(p.id)) {
      kept.add(p.id);
      await req.manager.query(`UPDATE layers_pile SET depot_id = $2, name = $3, position = $4 WHERE id = $1`, [
        p.id,
        p.depotId,
        name,
        position,
      ]);
    } else {
      const [row] = (await req.manager.query(
        `INSERT INTO layers_pile (layer_id, depot_id, name, position) VALUES ($1, $2, $3, $4) RETURNING id`,
        [layerId, p.depotId, name, position],
      )) as { id: number }[];
      kept.add(row.id);
    }
  }
  const gone = [...existing].filter((id) => !kept.has(id));
  if (gone.length) await req.manager.query(`DELETE FROM layers_pile WHERE id = ANY($1)`, [gone]);
}

/**
 * Piles as replies carry them, with their depots as the caller reads them (Magazine rules): size,
 * type, and active when the depot has an approved moment. Piles of depots the caller cannot read
 * (or that were deleted) are left out.
 */
export async function pilesJson(req: ResourceRequest, piles: PileRow[], runs?: SwitchboardRuns): Promise<LayerPile[]> {
  if (!piles.length) return [];
  const def = depotDefinition(req);
  const rows: Row[] = [];
  for (const id of new Set(piles.map((p) => p.depot_id))) {
    const row = await req.services.loadReadable(def, id, req);
    if (row) rows.push(row);
  }
  const depots = new Map((await req.services.serialize(def, rows, req)).map((d) => [d.id as number, d]));
  // The switchboard that fills a depot: the one whose run wrote its newest moment a run wrote
  // (among the moments a depot reply lists), when the caller may read it (decision 0064).
  const runOf = new Map<number, number>();
  for (const [id, d] of depots) {
    const moments = Array.isArray(d.moments) ? (d.moments as Array<{ node_run?: number | null }>) : [];
    const run = moments.find((m) => typeof m.node_run === 'number')?.node_run;
    if (typeof run === 'number') runOf.set(id, run);
  }
  const switchboards = runs && runOf.size ? await runs.switchboardsOfRuns(req, [...runOf.values()]) : new Map();
  return piles
    .filter((p) => depots.has(p.depot_id))
    .map((p) => {
      const d = depots.get(p.depot_id)!;
      const run = runOf.get(p.depot_id);
      const switchboard = run === undefined ? undefined : switchboards.get(run);
      return {
        id: p.id,
        resource_uri: `${PILE_PATH}${p.id}/`,
        layer: `${LAYER_PATH}${p.layer_id}/`,
        depot: `${DEPOT_PATH}${p.depot_id}/`,
        depot_id: p.depot_id,
        active: d.approved_moment !== null && d.approved_moment !== undefined,
        name: p.name || String(d.name),
        content_type: String(d.content_type),
        size: Number(d.size ?? 0),
        switchboard: switchboard?.resource_uri ?? null,
        switchboard_name: switchboard?.name ?? null,
        position: p.position,
      };
    });
}
