import { GeodataServices } from '../geodata-services';

/** A node of a live dataset function on a switchboard marked automatic, with its datasets. */
export interface LiveTarget {
  switchboardId: number;
  nodeId: number;
  func: string;
  /** The datum fields of the `dataset` input: the linked frame's items, else the node's parameter. */
  datasets: Array<Record<string, unknown>>;
}

type Rows = Array<Record<string, unknown>>;
type Query = Pick<GeodataServices['dataSource'], 'query'>;

/**
 * The live dataset nodes (functions `funcs`) of switchboards marked automatic that have a user to
 * run as. Reads the switchboards plugin's tables read-only (decision 0021): the node's ports (its
 * parameter is the `default_value` of port `dataset`) and the content of a frame linked to it.
 */
export async function liveTargets(db: Query, funcs: string[]): Promise<LiveTarget[]> {
  const nodes = (await db.query(
    `SELECT n.id, n.switchboard_id, n.func, n.ports FROM switchboard_node n JOIN switchboard s ON s.id = n.switchboard_id
      WHERE s.automatic AND s.scheduled_by IS NOT NULL AND n.func = ANY($1) ORDER BY n.id`,
    [funcs],
  )) as Rows;
  if (!nodes.length) return [];
  const linked = (await db.query(
    `SELECT l.node_id, c.items FROM switchboard_link l JOIN switchboard_frame f ON f.id = l.frame_id
       JOIN switchboard_content c ON c.hash = f.content_hash
      WHERE l.node_id = ANY($1) AND l.is_input AND l.name = 'dataset' ORDER BY l.id`,
    [nodes.map((n) => n.id)],
  )) as Rows;
  return nodes.map((n) => {
    const frames = linked.filter((l) => l.node_id === n.id).flatMap((l) => (Array.isArray(l.items) ? l.items : []));
    const port = (n.ports as Array<{ name: string; is_input: boolean; default_value: Record<string, unknown> | null }>).find(
      (p) => p.is_input && p.name === 'dataset',
    );
    const linkedAny = linked.some((l) => l.node_id === n.id);
    return {
      switchboardId: n.switchboard_id as number,
      nodeId: n.id as number,
      func: String(n.func),
      datasets: linkedAny ? frames : port?.default_value ? [port.default_value] : [],
    };
  });
}

/** Whether the switchboard runs now (an execution is under way). */
export async function isRunning(db: Query, switchboardId: number): Promise<boolean> {
  const [row] = (await db.query(`SELECT status FROM switchboard WHERE id = $1`, [switchboardId])) as Rows;
  return row?.status === 'started';
}
