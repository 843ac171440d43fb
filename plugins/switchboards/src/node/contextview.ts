import type { ResourceDefinition, ResourceExtension, ResourceRequest, Row } from '@werkbank/sdk/node';
import { definitionOf, FRAME_PATH, SWITCHBOARD_PATH, WORKFLOW_PATH } from './switchboard-access';
import { SwitchboardsServices } from './switchboards-services';

/** spec 000 §5 Context view: relation kinds between objects. */
export type RelationKind = 'provides_data_for' | 'executes' | 'is_used_by' | 'contains';

export interface Relation {
  from: string;
  kind: RelationKind;
  to: string;
}

interface Related {
  relations: Relation[];
  objects: Array<{ type: string; resource_uri: string; name: string }>;
}

const DEPOT_PATH = '/api/v1/depot/';

/** Depots the switchboard's node runs read and wrote (lineage), each once. */
async function depotLineage(
  m: ResourceRequest['manager'],
  where: string,
  param: number,
): Promise<{ read: number[]; written: number[] }> {
  const rows = (await m.query(
    `SELECT DISTINCT r.switchboard_id, (x.e->>'depot_id')::int AS depot_id, x.kind
       FROM switchboard_noderun r
       CROSS JOIN LATERAL (
         SELECT e, 'read' AS kind FROM jsonb_array_elements(r.moments_read) e
         UNION ALL SELECT e, 'written' FROM jsonb_array_elements(r.moments_written) e
       ) x
      WHERE ${where}`,
    [param],
  )) as { switchboard_id: number; depot_id: number; kind: string }[];
  return {
    read: [...new Set(rows.filter((r) => r.kind === 'read').map((r) => r.depot_id))],
    written: [...new Set(rows.filter((r) => r.kind === 'written').map((r) => r.depot_id))],
  };
}

/** Of `ids`, the objects of `kind` the caller may read, with their names. */
async function readable(req: ResourceRequest, kind: string, ids: number[]): Promise<Row[]> {
  const def = req.services.definitions().find((d) => d.kind === kind);
  if (!def) return [];
  const out: Row[] = [];
  for (const id of ids) {
    const row = await req.services.loadReadable(def, id, req);
    if (row) out.push(row);
  }
  return out;
}

/** A switchboard's relations: depots it reads and writes, workflows that execute it, its input and output frames. */
export async function switchboardContextview(row: Row, req: ResourceRequest, _services: SwitchboardsServices): Promise<Related> {
  const me = `${SWITCHBOARD_PATH}${row.id}/`;
  const out: Related = { relations: [], objects: [] };
  const lineage = await depotLineage(req.manager, 'r.switchboard_id = $1', row.id);
  for (const d of await readable(req, 'depot', lineage.read)) {
    out.relations.push({ from: `${DEPOT_PATH}${d.id}/`, kind: 'provides_data_for', to: me });
    out.objects.push({ type: 'depot', resource_uri: `${DEPOT_PATH}${d.id}/`, name: String(d.name) });
  }
  for (const d of await readable(req, 'depot', lineage.written)) {
    out.relations.push({ from: me, kind: 'provides_data_for', to: `${DEPOT_PATH}${d.id}/` });
    if (!out.objects.some((o) => o.resource_uri === `${DEPOT_PATH}${d.id}/`))
      out.objects.push({ type: 'depot', resource_uri: `${DEPOT_PATH}${d.id}/`, name: String(d.name) });
  }
  const workflows = (await req.manager.query(`SELECT id FROM switchboard_workflow WHERE switchboard_id = $1`, [row.id])) as Row[];
  for (const w of await readable(
    req,
    'workflow',
    workflows.map((w) => w.id),
  )) {
    out.relations.push({ from: `${WORKFLOW_PATH}${w.id}/`, kind: 'executes', to: me });
    out.objects.push({ type: 'workflow', resource_uri: `${WORKFLOW_PATH}${w.id}/`, name: String(w.name) });
  }
  const frames = (await req.manager.query(
    `SELECT id, name, frame_type FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type IN (1, 2) ORDER BY id`,
    [row.id],
  )) as Row[];
  for (const f of frames) {
    const uri = `${FRAME_PATH}${f.id}/`;
    out.relations.push({ from: me, kind: 'contains', to: uri });
    // Input frames feed the switchboard; it fills its output frames.
    out.relations.push(
      f.frame_type === 1 ? { from: uri, kind: 'is_used_by', to: me } : { from: me, kind: 'provides_data_for', to: uri },
    );
    out.objects.push({ type: 'frame', resource_uri: uri, name: String(f.name) });
  }
  return out;
}

/** Relations other kinds get from switchboards: depots (read by, written by) and workflows (executes). */
export function switchboardRelations(): ResourceExtension {
  return {
    id: 'switchboards.relations',
    async contextview(def: ResourceDefinition, row: Row, req: ResourceRequest) {
      const out: Related = { relations: [], objects: [] };
      if (def.kind === 'depot') {
        const me = `${DEPOT_PATH}${row.id}/`;
        const rows = (await req.manager.query(
          `SELECT DISTINCT r.switchboard_id,
                  r.moments_read @> jsonb_build_array(jsonb_build_object('depot_id', $1::int)) AS reads,
                  r.moments_written @> jsonb_build_array(jsonb_build_object('depot_id', $1::int)) AS writes
             FROM switchboard_noderun r
            WHERE r.moments_read @> jsonb_build_array(jsonb_build_object('depot_id', $1::int))
               OR r.moments_written @> jsonb_build_array(jsonb_build_object('depot_id', $1::int))`,
          [row.id],
        )) as { switchboard_id: number; reads: boolean; writes: boolean }[];
        const sbDef = definitionOf(req, 'switchboard');
        const seen = new Set<number>();
        for (const r of rows) {
          const sb = await req.services.loadReadable(sbDef, r.switchboard_id, req);
          if (!sb) continue;
          const uri = `${SWITCHBOARD_PATH}${sb.id}/`;
          if (r.reads) out.relations.push({ from: me, kind: 'provides_data_for', to: uri });
          if (r.writes) out.relations.push({ from: uri, kind: 'provides_data_for', to: me });
          if (!seen.has(sb.id)) out.objects.push({ type: 'switchboard', resource_uri: uri, name: String(sb.name) });
          seen.add(sb.id);
        }
        return out;
      }
      if (def.kind === 'workflow' && typeof row.switchboard_id === 'number') {
        const [sb] = await readable(req, 'switchboard', [row.switchboard_id]);
        if (sb) {
          const uri = `${SWITCHBOARD_PATH}${sb.id}/`;
          out.relations.push({ from: `${WORKFLOW_PATH}${row.id}/`, kind: 'executes', to: uri });
          out.objects.push({ type: 'switchboard', resource_uri: uri, name: String(sb.name) });
        }
        return out;
      }
      return undefined;
    },
  };
}
