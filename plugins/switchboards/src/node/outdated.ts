import { returnedRows, type EntityManager, type Row } from '@werkbank/sdk/node';
import { buildGraph, reachable } from './graph';
import { publishLive } from './live';
import { FRAME_PATH, NODE_PATH } from './switchboard-access';
import { SwitchboardsServices } from './switchboards-services';

/**
 * Marks what an edit makes stale: the nodes reading the changed frames, the changed nodes
 * themselves (`includeSelf`), everything downstream of them, and the frames those nodes write.
 * 'outdated' is shown on the canvas; a run clears it. Whether a node runs again is decided by its
 * run key, not by this flag.
 */
export async function markOutdated(
  m: EntityManager,
  services: Pick<SwitchboardsServices, 'bus' | 'log'>,
  switchboardId: number,
  changed: { nodes?: number[]; frames?: number[]; includeSelf?: boolean },
): Promise<void> {
  const links = (await m.query(`SELECT node_id, frame_id, is_input FROM switchboard_link WHERE switchboard_id = $1`, [
    switchboardId,
  ])) as Row[];
  const nodeIds = (await m.query(`SELECT id FROM switchboard_node WHERE switchboard_id = $1`, [switchboardId])) as Row[];
  const graph = buildGraph(
    nodeIds.map((n) => n.id),
    links.map((l) => ({ node_id: l.node_id as number, frame_id: l.frame_id as number, is_input: !!l.is_input })),
  );
  const frames = new Set(changed.frames ?? []);
  const start = new Set<number>(changed.includeSelf ? (changed.nodes ?? []) : []);
  for (const l of links) if (l.is_input && frames.has(l.frame_id as number)) start.add(l.node_id as number);
  const nodes = new Set([...start, ...reachable([...start, ...(changed.nodes ?? [])], graph.downstream)]);
  if (!nodes.size) return;
  const written = links.filter((l) => !l.is_input && nodes.has(l.node_id as number)).map((l) => l.frame_id as number);
  const marked = returnedRows<Row>(
    await m.query(`UPDATE switchboard_node SET outdated = true WHERE id = ANY($1) AND NOT outdated RETURNING id`, [[...nodes]]),
  );
  const markedFrames = written.length
    ? returnedRows<Row>(
        await m.query(`UPDATE switchboard_frame SET outdated = true WHERE id = ANY($1) AND NOT outdated RETURNING id`, [written]),
      )
    : [];
  for (const r of marked)
    publishLive(services, m, {
      switchboard_id: switchboardId,
      event: 'UPDATE',
      resource_uri: `${NODE_PATH}${r.id}/`,
      fields: { outdated: true },
    });
  for (const r of markedFrames)
    publishLive(services, m, {
      switchboard_id: switchboardId,
      event: 'UPDATE',
      resource_uri: `${FRAME_PATH}${r.id}/`,
      fields: { outdated: true },
    });
}
