import { ApiError, returnedRows, type AuthUser, type EntityManager, type FrameItems, type Row } from '@werkbank/sdk/node';
import { buildGraph, reachable, topologicalOrder } from './graph';
import { contentColumns } from './frame-write';
import { frameLive, nodeLive, switchboardLive } from './live';
import { checkRunLinks, type NodePort } from './links';
import { nodeLinks, runInputs, runKey, unchanged, type NodeLink, type PreviousRun } from './run-plan';
import { SwitchboardsServices } from './switchboards-services';

export type Trigger = 'manual' | 'automatic' | 'periodic' | 'api' | 'workflow' | 'replay';

export interface ExecuteOptions {
  switchboardId: number;
  user: AuthUser;
  trigger: Trigger;
  /** Run only this node, or (with fromHere) it and everything downstream. */
  node?: number;
  fromHere?: boolean;
  /** Run every node even when its key is unchanged and its outputs are intact. */
  force?: boolean;
  workflowId?: number;
  /** Items written into input frames (frame id → items, validated) before the run. */
  inputs?: Map<number, FrameItems>;
}

/** A planned run: waiting for `pending_deps` upstream runs, or skipped at the start. */
interface PlannedRun {
  node_id: number;
  func: string;
  func_version: string;
  pending_deps: number;
  downstream: number[];
  skipped: boolean;
  run_key: string | null;
  inputs: null;
  parameters: null;
  outputs: unknown;
}

function checkFunctions(services: SwitchboardsServices, user: AuthUser, funcs: string[]): void {
  for (const name of funcs) {
    const fn = services.functions.get(name);
    if (!fn) throw ApiError.badRequest('unknown_function', 'switchboards:errors.unknown_function', { name }, 'node');
    if (fn.superuser_required && !user.isSuperuser) {
      throw new ApiError(403, 'superuser_required', 'switchboards:errors.superuser_function', { name: fn.id });
    }
  }
}

/** Locks the switchboard; 404 when it is gone, 409 while it runs. */
async function lockIdle(m: EntityManager, id: number): Promise<Row> {
  const [sb] = (await m.query(`SELECT id, status FROM switchboard WHERE id = $1 FOR UPDATE`, [id])) as Row[];
  if (!sb) throw ApiError.notFound();
  if (sb.status === 'started') throw new ApiError(409, 'switchboard_running', 'switchboards:errors.already_running');
  return sb;
}

/**
 * Plans the runs. Without `force`, a node whose upstream nodes are all skipped, whose key (from the
 * frames as they are) equals its last successful run's and whose outputs are intact is skipped
 * here already: an unchanged switchboard costs a few statements, not one job per node.
 */
async function plan(
  m: EntityManager,
  services: SwitchboardsServices,
  nodes: Row[],
  links: NodeLink[],
  chosen: Set<number>,
  force: boolean,
): Promise<PlannedRun[]> {
  const graph = buildGraph(
    nodes.map((n) => n.id),
    links,
  );
  const prevs = new Map<number, PreviousRun>();
  if (!force) {
    const rows = (await m.query(
      `SELECT DISTINCT ON (node_id) node_id, run_key, outputs FROM switchboard_noderun
        WHERE node_id = ANY($1) AND status = 'success' ORDER BY node_id, id DESC`,
      [[...chosen]],
    )) as Row[];
    for (const r of rows)
      prevs.set(r.node_id as number, { run_key: r.run_key as string, outputs: r.outputs as PreviousRun['outputs'] });
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const skipped = new Set<number>();
  const planned: PlannedRun[] = [];
  for (const id of topologicalOrder(graph, chosen)) {
    const node = byId.get(id)!;
    const fn = services.functions.get(String(node.func))!;
    const ups = [...graph.upstream.get(id)!].filter((u) => chosen.has(u));
    const own = links.filter((l) => l.node_id === id);
    let skip = false;
    let key: string | null = null;
    if (!force && ups.every((u) => skipped.has(u))) {
      const r = runInputs(node.ports as NodePort[], own);
      if (!r.missing) {
        key = runKey(fn, r.parameters, r.inputs);
        skip = unchanged(prevs.get(id), key, own);
      }
    }
    if (skip) skipped.add(id);
    planned.push({
      node_id: id,
      func: fn.id,
      func_version: fn.version ?? '1',
      pending_deps: ups.filter((u) => !skipped.has(u)).length,
      downstream: [...graph.downstream.get(id)!].filter((d) => chosen.has(d)),
      skipped: skip,
      run_key: skip ? key : null,
      // A skipped run executed nothing: it keeps its key and points at the outputs it left intact.
      inputs: null,
      parameters: null,
      outputs: skip ? (prevs.get(id)?.outputs ?? []) : null,
    });
  }
  return planned;
}

/**
 * Starts an execution in the caller's transaction: writes the inputs of a workflow call, the run
 * rows (skipped ones already finished), the nodes' and the switchboard's status. Returns the
 * execution and the runs to queue now. `owner` is the process that owns queued runs in-process.
 */
export async function startExecution(
  m: EntityManager,
  services: SwitchboardsServices,
  opts: ExecuteOptions,
  owner: string | null,
): Promise<{ execution: Row; ready: number[] }> {
  const sb = await lockIdle(m, opts.switchboardId);
  const nodes = (await m.query(`SELECT id, func, ports, status, outdated FROM switchboard_node WHERE switchboard_id = $1`, [
    sb.id,
  ])) as Row[];
  if (opts.node !== undefined && !nodes.some((n) => n.id === opts.node)) {
    throw ApiError.badRequest('invalid_field', 'switchboards:errors.run_node', {}, 'node');
  }
  let chosen: Set<number>;
  for (const [frameId, items] of opts.inputs ?? []) {
    const [f] = (await m.query(`SELECT id, content_type FROM switchboard_frame WHERE id = $1`, [frameId])) as Row[];
    const cols = await contentColumns(m, services, String(f.content_type), items);
    await m.query(`UPDATE switchboard_frame SET content_hash = $2, size = $3, text_repr = $4 WHERE id = $1`, [
      frameId,
      cols.content_hash,
      cols.size,
      cols.text_repr,
    ]);
    frameLive(services, m, sb.id, frameId, { size: cols.size, text_repr: cols.text_repr, content_hash: cols.content_hash });
  }
  const links = nodeLinks(
    (await m.query(
      `SELECT l.node_id, l.name, l.is_input, l.list_index, l.dict_key, f.id AS frame_id, f.content_hash AS hash, f.content_type AS type
         FROM switchboard_link l JOIN switchboard_frame f ON f.id = l.frame_id WHERE l.switchboard_id = $1 ORDER BY l.id`,
      [sb.id],
    )) as Row[],
  );
  if (opts.node !== undefined) {
    const graph = buildGraph(
      nodes.map((n) => n.id),
      links,
    );
    chosen = new Set([opts.node, ...(opts.fromHere ? reachable([opts.node], graph.downstream) : [])]);
  } else {
    chosen = new Set(nodes.map((n) => n.id));
  }
  checkFunctions(services, opts.user, [...new Set(nodes.filter((n) => chosen.has(n.id)).map((n) => String(n.func)))]);
  checkRunLinks(
    services.types,
    nodes.filter((n) => chosen.has(n.id)),
    links,
  );
  const planned = await plan(m, services, nodes, links, chosen, !!opts.force);
  const skippedCount = planned.filter((p) => p.skipped).length;
  const finished = skippedCount === planned.length;
  const [exec] = (await m.query(
    `INSERT INTO switchboard_execution (switchboard_id, status, trigger, user_id, total, done, skipped, from_node_id, force, workflow_id, "end")
     VALUES ($1, $2::text, $3, $4, $5, $6, $6, $7, $8, $9, CASE WHEN $2::text = 'success' THEN now() END) RETURNING *`,
    [
      sb.id,
      finished ? 'success' : 'started',
      opts.trigger,
      opts.user.id,
      planned.length,
      skippedCount,
      opts.node ?? null,
      !!opts.force,
      opts.workflowId ?? null,
    ],
  )) as Row[];
  let ready: number[] = [];
  if (planned.length) {
    const inserted = (await m.query(
      `INSERT INTO switchboard_noderun (node_id, switchboard_id, execution_id, status, user_id, func, func_version, pending_deps,
                                        downstream, worker, heartbeat, skipped, run_key, inputs, parameters, outputs, start, "end", progress)
       SELECT x.node_id, $2, $3, CASE WHEN x.skipped THEN 'success' ELSE 'waiting' END, $4, x.func, x.func_version, x.pending_deps,
              x.downstream, CASE WHEN x.skipped THEN NULL ELSE $5::text END,
              CASE WHEN x.skipped OR $5::text IS NULL THEN NULL ELSE now() END,
              x.skipped, x.run_key, x.inputs, x.parameters, x.outputs,
              CASE WHEN x.skipped THEN now() END, CASE WHEN x.skipped THEN now() END, CASE WHEN x.skipped THEN 100 ELSE 0 END
         FROM jsonb_to_recordset($1::jsonb) AS x(node_id int, func text, func_version text, pending_deps int, downstream jsonb,
                                                   skipped boolean, run_key text, inputs jsonb, parameters jsonb, outputs jsonb)
       RETURNING id, node_id, pending_deps, skipped`,
      [JSON.stringify(planned), sb.id, exec.id, opts.user.id, owner],
    )) as Row[];
    ready = inserted.filter((r) => !r.skipped && r.pending_deps === 0).map((r) => r.id as number);
    const waiting = planned.filter((p) => !p.skipped).map((p) => p.node_id);
    // Skipped nodes whose status already says so are not touched (an unchanged run writes little).
    const shown = new Map(nodes.map((n) => [n.id, n.status === 'success' && !n.outdated]));
    const skippedNodes = planned.filter((p) => p.skipped && !shown.get(p.node_id)).map((p) => p.node_id);
    if (waiting.length) {
      await m.query(
        `UPDATE switchboard_node SET status = 'waiting', status_changed = now(), progress = 0, exception = '' WHERE id = ANY($1)`,
        [waiting],
      );
    }
    if (skippedNodes.length) {
      await m.query(
        `UPDATE switchboard_node SET status = 'success', status_changed = now(), progress = 100, exception = '', outdated = false
          WHERE id = ANY($1)`,
        [skippedNodes],
      );
    }
    for (const id of waiting) nodeLive(services, m, sb.id, id, { status: 'waiting', runinfo: { progress: 0, exception: '' } });
    for (const id of skippedNodes) nodeLive(services, m, sb.id, id, { status: 'success', skipped: true, outdated: false });
  }
  const status = finished ? 'success' : 'started';
  const progress = planned.length ? Math.round((skippedCount / planned.length) * 1000) / 10 : 100;
  await m.query(`UPDATE switchboard SET status = $2, progress = $3, execution_id = $4 WHERE id = $1`, [
    sb.id,
    status,
    progress,
    exec.id,
  ]);
  switchboardLive(services, m, sb.id, { status, progress: { total: progress }, execution: exec.id });
  return { execution: exec, ready };
}

/** Starts a replay of one run against its stored inputs, in the caller's transaction. */
export async function startReplay(
  m: EntityManager,
  services: SwitchboardsServices,
  runId: number,
  user: AuthUser,
  owner: string | null,
): Promise<{ execution: Row; ready: number[] }> {
  const [old] = (await m.query(`SELECT * FROM switchboard_noderun WHERE id = $1`, [runId])) as Row[];
  if (!old) throw ApiError.notFound();
  if (!old.inputs) throw new ApiError(409, 'replay_unavailable', 'switchboards:errors.replay_unavailable');
  const sb = await lockIdle(m, old.switchboard_id as number);
  checkFunctions(services, user, [String(old.func)]);
  const fn = services.functions.get(String(old.func))!;
  const [exec] = (await m.query(
    `INSERT INTO switchboard_execution (switchboard_id, status, trigger, user_id, total, from_node_id, force)
     VALUES ($1, 'started', 'replay', $2, 1, $3, true) RETURNING *`,
    [sb.id, user.id, old.node_id],
  )) as Row[];
  const [created] = (await m.query(
    `INSERT INTO switchboard_noderun (node_id, switchboard_id, execution_id, status, user_id, func, func_version, inputs, parameters,
                                      replay_of, worker, heartbeat)
     VALUES ($1, $2, $3, 'waiting', $4, $5, $6, $7, $8, $9, $10::text, CASE WHEN $10::text IS NULL THEN NULL ELSE now() END) RETURNING id`,
    [
      old.node_id,
      sb.id,
      exec.id,
      user.id,
      fn.id,
      fn.version ?? '1',
      JSON.stringify(old.inputs),
      JSON.stringify(old.parameters ?? {}),
      old.id,
      owner,
    ],
  )) as Row[];
  await m.query(`UPDATE switchboard_node SET status = 'waiting', status_changed = now(), progress = 0 WHERE id = $1`, [
    old.node_id,
  ]);
  await m.query(`UPDATE switchboard SET status = 'started', progress = 0, execution_id = $2 WHERE id = $1`, [sb.id, exec.id]);
  nodeLive(services, m, sb.id, old.node_id as number, { status: 'waiting' });
  switchboardLive(services, m, sb.id, { status: 'started', progress: { total: 0 }, execution: exec.id });
  return { execution: exec, ready: [created.id as number] };
}

/** Stops the switchboard's execution in the caller's transaction; returns it (ended). */
export async function stopExecution(
  m: EntityManager,
  services: SwitchboardsServices,
  switchboardId: number,
  user: AuthUser,
): Promise<Row> {
  const [sb] = (await m.query(`SELECT id, execution_id FROM switchboard WHERE id = $1 FOR UPDATE`, [switchboardId])) as Row[];
  if (!sb) throw ApiError.notFound();
  const [e] = (await m.query(`SELECT * FROM switchboard_execution WHERE id = $1 AND status = 'started' FOR UPDATE`, [
    sb.execution_id,
  ])) as Row[];
  if (!e) throw new ApiError(409, 'not_running', 'switchboards:errors.not_running');
  const aborted = { key: 'switchboards:messages.aborted_by', params: { user: user.displayName } };
  const message = services.translate(user.language ?? 'en', aborted.key, aborted.params);
  const runs = returnedRows<Row>(
    await m.query(
      `UPDATE switchboard_noderun
          SET status = CASE status WHEN 'waiting' THEN 'cancelled' ELSE 'failure' END, "end" = now(), exception = $2,
              exception_i18n = $3
        WHERE execution_id = $1 AND status IN ('waiting', 'started')
    RETURNING id, node_id, status`,
      [e.id, message, JSON.stringify(aborted)],
    ),
  );
  const failed = runs.filter((r) => r.status === 'failure').map((r) => r.node_id as number);
  const cancelled = runs.filter((r) => r.status !== 'failure').map((r) => r.node_id as number);
  if (failed.length) {
    await m.query(
      `UPDATE switchboard_node SET status = 'failure', status_changed = now(), exception = $2, exception_i18n = $3 WHERE id = ANY($1)`,
      [failed, message, JSON.stringify(aborted)],
    );
  }
  if (cancelled.length) {
    await m.query(
      `UPDATE switchboard_node SET status = 'initialized', status_changed = now(), exception = '' WHERE id = ANY($1)`,
      [cancelled],
    );
  }
  for (const id of failed) nodeLive(services, m, switchboardId, id, { status: 'failure', runinfo: { exception: message } });
  for (const id of cancelled) nodeLive(services, m, switchboardId, id, { status: 'initialized', runinfo: { exception: '' } });
  const [done] = returnedRows<Row>(
    await m.query(
      `UPDATE switchboard_execution SET status = 'failure', "end" = now(), done = total, failed = failed + $3, message = $2
        WHERE id = $1 RETURNING *`,
      [e.id, message, failed.length],
    ),
  );
  await m.query(`UPDATE switchboard SET status = 'failure' WHERE id = $1`, [switchboardId]);
  switchboardLive(services, m, switchboardId, { status: 'failure' });
  return done;
}
