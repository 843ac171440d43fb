import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  ApiError,
  canonicalJson,
  Disposable,
  DisposableCollection,
  returnedRows,
  type AuthUser,
  type EntityManager,
  type FrameItems,
  type FunctionDescriptor,
  type FunctionInputs,
  type FunctionOutputs,
  type Row,
  inject,
  injectable,
  ServerServices,
} from '@werkbank/sdk/node';
import { buildGraph, reachable } from './graph';
import { contentColumns } from './frame-write';
import { loadContents } from './frame-content';
import { publishLive } from './live';
import type { NodePort } from './links';
import { NODE_PATH, SWITCHBOARD_PATH, FRAME_PATH } from './switchboard-access';

/** The job that executes one node run (in the server, or in worker processes). */
export const NODE_RUN_JOB = 'switchboard_noderun';
/** Bus channel telling every process to stop the runs of an aborted execution. */
export const ABORT_CHANNEL = 'werkbank_switchboard_abort';
/** Longest log a node run keeps (characters). */
const LOG_LIMIT = 200_000;
/** Progress of a running node is written at most this often (ms). */
const PROGRESS_INTERVAL = 500;

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

/** One input frame of a run: which port (slot) it fed and its content hash. */
export interface InputRef {
  port: string;
  index: number | null;
  key: string | null;
  frame_id: number | null;
  hash: string | null;
}

interface OutputRef {
  port: string;
  frame_id: number;
  hash: string;
}

class NodeRunError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

/** The run key of a node: function name and version, parameters, and the content of its inputs. */
export function runKey(fn: { id: string; version?: string }, parameters: Record<string, unknown>, inputs: InputRef[]): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        func: fn.id,
        version: fn.version ?? '1',
        parameters,
        inputs: inputs.map((i) => [i.port, i.index, i.key, i.hash]),
      }),
    )
    .digest('hex');
}

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);

/**
 * Executes switchboards (decision 0014). Every node run is a job: the run rows of an execution are
 * written at its start with the number of upstream runs each waits for; a finished run counts its
 * downstream runs down and queues those that reach zero, in the same transaction. So any process
 * (server or worker) can finish any run, and the state lives in the database only. Runs report a
 * heartbeat; a run whose process stopped beating is failed by the next sweep.
 */
@injectable()
export class Engine implements Disposable {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<number, { controller: AbortController; executionId: number }>();
  private readonly toDispose = new DisposableCollection();
  private disposed = false;
  /** Resolves when every run in this process has finished (tests, shutdown). */
  private idleWaiters: Array<() => void> = [];

  constructor(@inject(ServerServices) private readonly services: ServerServices) {}

  private get db() {
    return this.services.dataSource;
  }

  private get inline(): boolean {
    return this.services.jobs.mode === 'inline';
  }

  async start(): Promise<void> {
    // One process on the embedded database: runs left by a previous process cannot be running.
    if (!this.services.config.databaseUrl && this.services.role === 'server') await this.sweep(true);
    this.toDispose.push(
      this.services.jobs.work<{ run_id: number; force?: boolean }>(
        NODE_RUN_JOB,
        (data) => this.runJob(data.run_id, !!data.force),
        {
          concurrency: this.services.config.executionConcurrency,
        },
      ),
    );
    this.toDispose.push(
      this.services.bus.subscribe(ABORT_CHANNEL, (msg) => this.abortLocal(Number(msg.execution_id), String(msg.message ?? ''))),
    );
    const every = Math.max(1000, (this.services.config.workerTimeoutSeconds * 1000) / 3);
    const timer = setInterval(() => {
      void this.beat()
        .then(() => this.sweep(false))
        .catch((e: Error) => this.services.log(`Switchboard heartbeat failed: ${e.message}`));
    }, every);
    timer.unref();
    this.toDispose.push(Disposable.create(() => clearInterval(timer)));
  }

  dispose(): void {
    this.disposed = true;
    for (const r of this.running.values()) r.controller.abort(new Error('The server is shutting down.'));
    this.toDispose.dispose();
  }

  /** Resolves once no run executes in this process. */
  idle(): Promise<void> {
    if (!this.running.size) return Promise.resolve();
    return new Promise((res) => this.idleWaiters.push(res));
  }

  // ---------------------------------------------------------------- starting

  /**
   * Starts an execution: writes its run rows and queues the runs that wait for nothing. Refuses
   * while the switchboard runs (409), for unknown functions (400) and for superuser-only
   * functions when the user is not one (403).
   */
  async execute(opts: ExecuteOptions): Promise<Row> {
    const { execution, ready } = await this.db.transaction(async (m) => {
      const [sb] = (await m.query(`SELECT id, status FROM switchboard WHERE id = $1 FOR UPDATE`, [opts.switchboardId])) as Row[];
      if (!sb) throw ApiError.notFound();
      if (sb.status === 'started') throw new ApiError(409, 'switchboard_running', 'switchboards:errors.already_running');
      const nodes = (await m.query(`SELECT id, func FROM switchboard_node WHERE switchboard_id = $1`, [sb.id])) as Row[];
      const links = (await m.query(`SELECT node_id, frame_id, is_input FROM switchboard_link WHERE switchboard_id = $1`, [
        sb.id,
      ])) as Row[];
      const graph = buildGraph(
        nodes.map((n) => n.id),
        links.map((l) => ({ node_id: l.node_id as number, frame_id: l.frame_id as number, is_input: !!l.is_input })),
      );
      let chosen: Set<number>;
      if (opts.node !== undefined) {
        if (!nodes.some((n) => n.id === opts.node))
          throw ApiError.badRequest('invalid_field', 'switchboards:errors.run_node', {}, 'node');
        chosen = new Set([opts.node, ...(opts.fromHere ? reachable([opts.node], graph.downstream) : [])]);
      } else {
        chosen = new Set(nodes.map((n) => n.id));
      }
      const runNodes = nodes.filter((n) => chosen.has(n.id));
      for (const n of runNodes) {
        const fn = this.services.functions.get(String(n.func));
        if (!fn)
          throw ApiError.badRequest('unknown_function', 'switchboards:errors.unknown_function', { name: String(n.func) }, 'node');
        if (fn.superuser_required && !opts.user.isSuperuser) {
          throw new ApiError(403, 'superuser_required', 'switchboards:errors.superuser_function', { name: fn.id });
        }
      }
      for (const [frameId, items] of opts.inputs ?? []) {
        const [f] = (await m.query(`SELECT id, content_type FROM switchboard_frame WHERE id = $1`, [frameId])) as Row[];
        const cols = await contentColumns(m, this.services, String(f.content_type), items);
        await m.query(`UPDATE switchboard_frame SET content_hash = $2, size = $3, text_repr = $4 WHERE id = $1`, [
          frameId,
          cols.content_hash,
          cols.size,
          cols.text_repr,
        ]);
        publishLive(this.services, m, {
          switchboard_id: sb.id,
          event: 'UPDATE',
          resource_uri: `${FRAME_PATH}${frameId}/`,
          fields: { size: cols.size, text_repr: cols.text_repr },
        });
      }
      const [exec] = (await m.query(
        `INSERT INTO switchboard_execution (switchboard_id, status, trigger, user_id, total, from_node_id, force, workflow_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          sb.id,
          runNodes.length ? 'started' : 'success',
          opts.trigger,
          opts.user.id,
          runNodes.length,
          opts.node ?? null,
          !!opts.force,
          opts.workflowId ?? null,
        ],
      )) as Row[];
      let readyRuns: Row[] = [];
      if (runNodes.length) {
        const plan = runNodes.map((n) => ({
          node_id: n.id,
          func: n.func,
          func_version: this.services.functions.get(String(n.func))!.version ?? '1',
          pending_deps: [...graph.upstream.get(n.id)!].filter((u) => chosen.has(u)).length,
          downstream: [...graph.downstream.get(n.id)!].filter((d) => chosen.has(d)),
        }));
        const inserted = (await m.query(
          `INSERT INTO switchboard_noderun (node_id, switchboard_id, execution_id, status, user_id, func, func_version, pending_deps, downstream, worker, heartbeat)
           SELECT x.node_id, $2, $3, 'waiting', $4, x.func, x.func_version, x.pending_deps, x.downstream, $5::text, CASE WHEN $5::text IS NULL THEN NULL ELSE now() END
             FROM jsonb_to_recordset($1::jsonb) AS x(node_id int, func text, func_version text, pending_deps int, downstream jsonb)
           RETURNING id, node_id, pending_deps`,
          [JSON.stringify(plan), sb.id, exec.id, opts.user.id, this.inline ? this.workerId : null],
        )) as Row[];
        readyRuns = inserted.filter((r) => r.pending_deps === 0);
        await m.query(
          `UPDATE switchboard_node SET status = 'waiting', status_changed = now(), progress = 0, exception = '' WHERE id = ANY($1)`,
          [runNodes.map((n) => n.id)],
        );
        for (const n of runNodes) this.nodeLive(m, sb.id, n.id, { status: 'waiting', runinfo: { progress: 0, exception: '' } });
      }
      const status = runNodes.length ? 'started' : 'success';
      await m.query(`UPDATE switchboard SET status = $2, progress = $3, execution_id = $4 WHERE id = $1`, [
        sb.id,
        status,
        runNodes.length ? 0 : 100,
        exec.id,
      ]);
      this.switchboardLive(m, sb.id, { status, progress: { total: runNodes.length ? 0 : 100 }, execution: exec.id });
      return { execution: exec, ready: readyRuns };
    });
    await this.queue(
      ready.map((r) => r.id as number),
      !!opts.force,
    );
    return execution;
  }

  /** Re-runs a node against exactly the inputs of an earlier run (its content is kept for this). */
  async replay(runId: number, user: AuthUser): Promise<Row> {
    const { execution, run } = await this.db.transaction(async (m) => {
      const [old] = (await m.query(`SELECT * FROM switchboard_noderun WHERE id = $1`, [runId])) as Row[];
      if (!old) throw ApiError.notFound();
      if (!old.inputs) throw new ApiError(409, 'replay_unavailable', 'switchboards:errors.replay_unavailable');
      const [sb] = (await m.query(`SELECT id, status FROM switchboard WHERE id = $1 FOR UPDATE`, [old.switchboard_id])) as Row[];
      if (sb.status === 'started') throw new ApiError(409, 'switchboard_running', 'switchboards:errors.already_running');
      const fn = this.services.functions.get(String(old.func));
      if (!fn)
        throw ApiError.badRequest('unknown_function', 'switchboards:errors.unknown_function', { name: String(old.func) }, 'node');
      if (fn.superuser_required && !user.isSuperuser) {
        throw new ApiError(403, 'superuser_required', 'switchboards:errors.superuser_function', { name: fn.id });
      }
      const [exec] = (await m.query(
        `INSERT INTO switchboard_execution (switchboard_id, status, trigger, user_id, total, from_node_id, force)
         VALUES ($1, 'started', 'replay', $2, 1, $3, true) RETURNING *`,
        [sb.id, user.id, old.node_id],
      )) as Row[];
      const [created] = (await m.query(
        `INSERT INTO switchboard_noderun (node_id, switchboard_id, execution_id, status, user_id, func, func_version, inputs, parameters, replay_of, worker, heartbeat)
         VALUES ($1, $2, $3, 'waiting', $4, $5, $6, $7, $8, $9, $10::text, CASE WHEN $10::text IS NULL THEN NULL ELSE now() END) RETURNING *`,
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
          this.inline ? this.workerId : null,
        ],
      )) as Row[];
      await m.query(`UPDATE switchboard_node SET status = 'waiting', status_changed = now(), progress = 0 WHERE id = $1`, [
        old.node_id,
      ]);
      await m.query(`UPDATE switchboard SET status = 'started', progress = 0, execution_id = $2 WHERE id = $1`, [sb.id, exec.id]);
      this.nodeLive(m, sb.id, old.node_id as number, { status: 'waiting' });
      this.switchboardLive(m, sb.id, { status: 'started', progress: { total: 0 }, execution: exec.id });
      return { execution: exec, run: created };
    });
    await this.queue([run.id as number], true);
    return execution;
  }

  private async queue(runIds: number[], force: boolean): Promise<void> {
    for (const id of runIds) await this.services.jobs.send(NODE_RUN_JOB, { run_id: id, force });
  }

  // ---------------------------------------------------------------- stopping

  /** Stops the switchboard's execution: waiting runs are cancelled, running ones fail at once. */
  async abort(switchboardId: number, user: AuthUser): Promise<Row> {
    const exec = await this.db.transaction(async (m) => {
      const [sb] = (await m.query(`SELECT id, execution_id FROM switchboard WHERE id = $1 FOR UPDATE`, [switchboardId])) as Row[];
      if (!sb) throw ApiError.notFound();
      const [e] = (await m.query(`SELECT * FROM switchboard_execution WHERE id = $1 AND status = 'started' FOR UPDATE`, [
        sb.execution_id,
      ])) as Row[];
      if (!e) throw new ApiError(409, 'not_running', 'switchboards:errors.not_running');
      const message = this.services.translate(user.language ?? 'en', 'switchboards:messages.aborted_by', { user: user.username });
      const runs = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun
              SET status = CASE status WHEN 'waiting' THEN 'cancelled' ELSE 'failure' END, "end" = now(), exception = $2
            WHERE execution_id = $1 AND status IN ('waiting', 'started')
        RETURNING id, node_id, status`,
          [e.id, message],
        ),
      );
      for (const r of runs) {
        const status = r.status === 'failure' ? 'failure' : 'initialized';
        await m.query(`UPDATE switchboard_node SET status = $2, status_changed = now(), exception = $3 WHERE id = $1`, [
          r.node_id,
          status,
          r.status === 'failure' ? message : '',
        ]);
        this.nodeLive(m, switchboardId, r.node_id as number, {
          status,
          runinfo: { exception: r.status === 'failure' ? message : '' },
        });
      }
      const [done] = (await m.query(
        `UPDATE switchboard_execution SET status = 'failure', "end" = now(), done = total, message = $2 WHERE id = $1 RETURNING *`,
        [e.id, message],
      )) as Row[];
      await m.query(`UPDATE switchboard SET status = 'failure' WHERE id = $1`, [switchboardId]);
      this.switchboardLive(m, switchboardId, { status: 'failure' });
      return Array.isArray(done) ? (done[0] as Row) : done;
    });
    const message = String(exec.message);
    this.abortLocal(exec.id, message);
    await this.services.bus.publish(ABORT_CHANNEL, { execution_id: exec.id, message });
    return exec;
  }

  private abortLocal(executionId: number, message: string): void {
    for (const r of this.running.values()) {
      if (r.executionId === executionId && !r.controller.signal.aborted) r.controller.abort(new Error(message || 'Aborted'));
    }
  }

  // ---------------------------------------------------------------- liveness

  private async beat(): Promise<void> {
    if (this.disposed) return;
    // In inline mode this process also owns the runs it queued and has not started yet.
    // Only runs that really execute here beat: one whose handler died is swept after the timeout.
    await this.db.query(
      `UPDATE switchboard_noderun SET heartbeat = now()
        WHERE worker = $1 AND (status = 'waiting' OR (status = 'started' AND id = ANY($2)))`,
      [this.workerId, [...this.running.keys()]],
    );
  }

  /**
   * Fails runs whose process stopped: no heartbeat for WORKER_TIMEOUT_SECONDS (or, with `all`, every
   * unfinished run: the embedded database at start, where no other process can run them).
   */
  async sweep(all: boolean): Promise<number> {
    if (this.disposed) return 0;
    const lost = returnedRows<Row>(
      await this.db.query(
        `UPDATE switchboard_noderun
            SET status = 'failure', "end" = now(),
                exception = CASE WHEN status = 'started' THEN 'worker_lost' ELSE 'server_restart' END,
                stacktrace = 'The process executing this run stopped (no heartbeat).'
          WHERE status IN ('waiting', 'started') AND (${all ? 'true' : `worker IS NOT NULL AND heartbeat < now() - make_interval(secs => $1)`})
      RETURNING *`,
        all ? [] : [this.services.config.workerTimeoutSeconds],
      ),
    );
    for (const run of lost) {
      const message = this.services.translate('en', `switchboards:errors.${String(run.exception)}`);
      await this.db.transaction(async (m) => {
        await m.query(`UPDATE switchboard_noderun SET exception = $2 WHERE id = $1`, [run.id, message]);
        await this.nodeFailed(m, run, message);
        const ready = await this.advance(m, run, true);
        return ready;
      });
    }
    return lost.length;
  }

  // ---------------------------------------------------------------- running

  /** Executes one queued run (the job handler). */
  async runJob(runId: number, force: boolean): Promise<void> {
    if (this.disposed) throw new Error('The engine has stopped.');
    const [run] = returnedRows<Row>(
      await this.db.query(
        `UPDATE switchboard_noderun SET status = 'started', start = now(), worker = $2, heartbeat = now(), attempt = attempt + 1
          WHERE id = $1 AND status = 'waiting' RETURNING *`,
        [runId, this.workerId],
      ),
    );
    if (!run) return;
    const controller = new AbortController();
    this.running.set(run.id, { controller, executionId: run.execution_id as number });
    const logs: string[] = [];
    let logLength = 0;
    const reads: Array<{ depot_id: number; moment_id: number }> = [];
    const writes: Array<{ depot_id: number; moment_id: number }> = [];
    let inputs: InputRef[] = [];
    let parameters: Record<string, unknown> = {};
    let key: string | null = null;
    const user = run.user_id ? await this.services.loadUser(run.user_id as number) : undefined;
    const lang = user?.language ?? 'en';
    try {
      if (!user) throw new NodeRunError('switchboards:errors.run_user_missing');
      const [node] = (await this.db.query(
        `SELECT id, switchboard_id, func, ports, last_run_id FROM switchboard_node WHERE id = $1`,
        [run.node_id],
      )) as Row[];
      const fn = this.services.functions.get(String(run.func));
      if (!fn) throw new NodeRunError('switchboards:errors.unknown_function', { name: String(run.func) });
      if (fn.superuser_required && !user.isSuperuser)
        throw new NodeRunError('switchboards:errors.superuser_function', { name: fn.id });
      const ports = node.ports as NodePort[];
      ({ inputs, parameters } = run.replay_of
        ? { inputs: run.inputs as InputRef[], parameters: (run.parameters as Record<string, unknown>) ?? {} }
        : await this.inputsOf(node.id, ports));
      key = runKey(fn, parameters, inputs);
      const outputLinks = (await this.db.query(
        `SELECT name, frame_id FROM switchboard_link WHERE node_id = $1 AND NOT is_input ORDER BY id`,
        [node.id],
      )) as Row[];
      if (!force && !run.replay_of && (await this.unchanged(node.id, key, outputLinks))) {
        await this.finish(run, force, {
          status: 'success',
          skipped: true,
          key,
          inputs,
          parameters,
          reads,
          writes,
          logs,
          outputs: undefined,
        });
        return;
      }
      await this.db.query(`UPDATE switchboard_node SET status = 'started', status_changed = now(), progress = 0 WHERE id = $1`, [
        node.id,
      ]);
      this.nodeLive(undefined, node.switchboard_id as number, node.id, { status: 'started', runinfo: { progress: 0 } });
      const fnInputs = await this.materialise(ports, inputs, parameters);
      const progress = this.progressReporter(node, run.id);
      const outputs = await this.call(fn, fnInputs, controller, {
        signal: controller.signal,
        progress,
        log: (message: string) => {
          if (logLength > LOG_LIMIT) return;
          const line = `${new Date().toISOString()} ${message}`;
          logs.push(line);
          logLength += line.length + 1;
        },
        user,
        nodeRunId: run.id,
        recordRead: (r) => reads.push({ depot_id: r.depot_id, moment_id: r.moment_id }),
        recordWrite: (w) => writes.push({ depot_id: w.depot_id, moment_id: w.moment_id }),
        lang,
      });
      progress.stop();
      await this.finish(run, force, {
        status: 'success',
        skipped: false,
        key,
        inputs,
        parameters,
        reads,
        writes,
        logs,
        outputs,
        outputLinks,
      });
    } catch (e) {
      const err = e as Error;
      const message =
        e instanceof NodeRunError
          ? this.services.translate(lang, e.key, e.params)
          : e instanceof ApiError
            ? this.services.translate(lang, e.key, e.params)
            : err?.message || String(e);
      await this.finish(run, force, {
        status: 'failure',
        skipped: false,
        key,
        inputs,
        parameters,
        reads,
        writes,
        logs,
        outputs: undefined,
        message,
        stack: err?.stack ?? message,
      });
    } finally {
      this.running.delete(run.id);
      if (!this.running.size) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  /** The function's result, or the abort's reason as soon as the run is stopped (even if the function ignores it). */
  private call(
    fn: FunctionDescriptor,
    inputs: FunctionInputs,
    controller: AbortController,
    ctx: Parameters<FunctionDescriptor['run']>[1],
  ) {
    return new Promise<FunctionOutputs>((resolve, reject) => {
      const onAbort = () => reject(controller.signal.reason instanceof Error ? controller.signal.reason : new Error('Aborted'));
      if (controller.signal.aborted) return onAbort();
      controller.signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve()
        .then(() => fn.run(inputs, ctx))
        .then(
          (out) => {
            controller.signal.removeEventListener('abort', onAbort);
            if (!out || typeof out !== 'object')
              return reject(new NodeRunError('switchboards:errors.bad_outputs', { name: fn.id }));
            for (const [port, items] of Object.entries(out)) {
              if (!Array.isArray(items) || items.some((i) => !i || typeof i !== 'object' || Array.isArray(i))) {
                return reject(new NodeRunError('switchboards:errors.bad_output_items', { name: fn.id, port }));
              }
            }
            resolve(out);
          },
          (e) => {
            controller.signal.removeEventListener('abort', onAbort);
            reject(e instanceof Error || e instanceof ApiError ? e : new Error(String(e)));
          },
        );
    });
  }

  private progressReporter(node: Row, runId: number) {
    let last = 0;
    let pending: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      if (pending === undefined) return;
      const pct = Math.round(Math.min(1, Math.max(0, pending)) * 1000) / 10;
      pending = undefined;
      last = Date.now();
      void this.db
        .query(`UPDATE switchboard_node SET progress = $2 WHERE id = $1 AND status = 'started'`, [node.id, pct])
        .then(() => this.db.query(`UPDATE switchboard_noderun SET progress = $2 WHERE id = $1`, [runId, pct]))
        .catch(() => undefined);
      this.nodeLive(undefined, node.switchboard_id as number, node.id as number, { runinfo: { progress: pct } });
    };
    const report = (fraction: number) => {
      if (!Number.isFinite(fraction)) return;
      pending = fraction;
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, PROGRESS_INTERVAL - (Date.now() - last)));
      timer.unref();
    };
    report.stop = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    };
    return report;
  }

  /** The node's input frames (hashes) and its parameters (defaults of unlinked inputs). */
  private async inputsOf(
    nodeId: number,
    ports: NodePort[],
  ): Promise<{ inputs: InputRef[]; parameters: Record<string, unknown> }> {
    const links = (await this.db.query(
      `SELECT l.name, l.list_index, l.dict_key, f.id AS frame_id, f.content_hash
         FROM switchboard_link l JOIN switchboard_frame f ON f.id = l.frame_id
        WHERE l.node_id = $1 AND l.is_input
        ORDER BY l.name, l.list_index NULLS FIRST, l.dict_key NULLS FIRST`,
      [nodeId],
    )) as Row[];
    const inputs: InputRef[] = links.map((l) => ({
      port: String(l.name),
      index: (l.list_index as number | null) ?? null,
      key: (l.dict_key as string | null) ?? null,
      frame_id: l.frame_id as number,
      hash: l.content_hash ? String(l.content_hash).trim() : null,
    }));
    const parameters: Record<string, unknown> = {};
    for (const p of ports) {
      if (!p.is_input || inputs.some((i) => i.port === p.name)) continue;
      if (p.default_value) parameters[p.name] = p.default_value;
      else if (!p.is_optional && !p.is_list && !p.is_dict)
        throw new NodeRunError('switchboards:errors.input_missing', { name: p.name });
    }
    return { inputs, parameters };
  }

  /** What the function receives per port (spec: FunctionInputs). */
  private async materialise(ports: NodePort[], inputs: InputRef[], parameters: Record<string, unknown>): Promise<FunctionInputs> {
    const contents = await loadContents(
      this.db.manager,
      inputs.map((i) => i.hash).filter((h): h is string => !!h),
    );
    const itemsOf = (ref: InputRef): FrameItems => {
      if (!ref.hash) return [];
      const items = contents.get(ref.hash);
      if (!items) throw new NodeRunError('switchboards:errors.content_missing', { name: ref.port });
      return items;
    };
    const out: FunctionInputs = {};
    for (const p of ports.filter((x) => x.is_input)) {
      const refs = inputs.filter((i) => i.port === p.name);
      if (p.is_list) out[p.name] = refs.sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map(itemsOf);
      else if (p.is_dict) out[p.name] = Object.fromEntries(refs.map((r) => [r.key ?? '', itemsOf(r)]));
      else if (refs.length) out[p.name] = itemsOf(refs[0]);
      else if (parameters[p.name]) out[p.name] = [parameters[p.name] as Record<string, unknown>];
      else out[p.name] = undefined;
    }
    return out;
  }

  /** True when the node's last successful run had this key and its output frames still hold what it wrote. */
  private async unchanged(nodeId: number, key: string, outputLinks: Row[]): Promise<boolean> {
    const [prev] = (await this.db.query(
      `SELECT run_key, outputs FROM switchboard_noderun WHERE node_id = $1 AND status = 'success' ORDER BY id DESC LIMIT 1`,
      [nodeId],
    )) as Row[];
    if (!prev || String(prev.run_key ?? '').trim() !== key) return false;
    const wrote = (prev.outputs as OutputRef[] | null) ?? [];
    if (!outputLinks.length) return true;
    const frames = (await this.db.query(`SELECT id, content_hash FROM switchboard_frame WHERE id = ANY($1)`, [
      outputLinks.map((l) => l.frame_id),
    ])) as Row[];
    return outputLinks.every((l) => {
      const w = wrote.find((o) => o.frame_id === l.frame_id && o.port === l.name);
      const f = frames.find((x) => x.id === l.frame_id);
      return !!w && !!f && String(f.content_hash ?? '').trim() === w.hash;
    });
  }

  // ---------------------------------------------------------------- finishing

  private async finish(
    run: Row,
    force: boolean,
    r: {
      status: 'success' | 'failure';
      skipped: boolean;
      key: string | null;
      inputs: InputRef[];
      parameters: Record<string, unknown>;
      reads: Array<{ depot_id: number; moment_id: number }>;
      writes: Array<{ depot_id: number; moment_id: number }>;
      logs: string[];
      outputs: FunctionOutputs | undefined;
      outputLinks?: Row[];
      message?: string;
      stack?: string;
    },
  ): Promise<void> {
    const ready = await this.db.transaction(async (m) => {
      let outputs: OutputRef[] | null = null;
      const written: Array<{ frame_id: number; hash: string; size: number; text_repr: string }> = [];
      if (r.skipped) {
        const [prev] = (await m.query(
          `SELECT outputs FROM switchboard_noderun WHERE node_id = $1 AND status = 'success' ORDER BY id DESC LIMIT 1`,
          [run.node_id],
        )) as Row[];
        outputs = (prev?.outputs as OutputRef[]) ?? [];
      } else if (r.outputs) {
        outputs = [];
        const links = r.outputLinks ?? [];
        const types = new Map(
          (
            (await m.query(`SELECT id, content_type FROM switchboard_frame WHERE id = ANY($1)`, [
              links.map((l) => l.frame_id),
            ])) as Row[]
          ).map((f) => [f.id, String(f.content_type)]),
        );
        for (const link of links) {
          const frameId = link.frame_id as number;
          const cols = await contentColumns(m, this.services, types.get(frameId) ?? 'any', r.outputs[String(link.name)] ?? []);
          outputs.push({ port: String(link.name), frame_id: frameId, hash: cols.content_hash });
          written.push({ frame_id: frameId, hash: cols.content_hash, size: cols.size, text_repr: cols.text_repr });
        }
      }
      const [mine] = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun
              SET status = $3::text, "end" = now(), run_key = $4, inputs = $5, parameters = $6, outputs = $7, moments_read = $8,
                  moments_written = $9, log = $10, exception = $11, stacktrace = $12, skipped = $13,
                  progress = CASE WHEN $3::text = 'success' THEN 100 ELSE progress END
            WHERE id = $1 AND status = 'started' AND worker = $2
        RETURNING *`,
          [
            run.id,
            this.workerId,
            r.status,
            r.key,
            JSON.stringify(r.inputs),
            JSON.stringify(r.parameters),
            outputs ? JSON.stringify(outputs) : null,
            JSON.stringify(r.reads),
            JSON.stringify(r.writes),
            r.logs.join('\n'),
            r.message ?? '',
            r.stack ?? '',
            r.skipped,
          ],
        ),
      );
      // Aborted or swept meanwhile: what this run produced is dropped.
      if (!mine) return [];
      if (r.status === 'success') {
        for (const w of written) {
          await m.query(
            `UPDATE switchboard_frame SET content_hash = $2, size = $3, text_repr = $4, outdated = false WHERE id = $1`,
            [w.frame_id, w.hash, w.size, w.text_repr],
          );
          publishLive(this.services, m, {
            switchboard_id: run.switchboard_id as number,
            event: 'UPDATE',
            resource_uri: `${FRAME_PATH}${w.frame_id}/`,
            fields: { size: w.size, text_repr: w.text_repr, outdated: false },
          });
        }
        const [node] = (await m.query(
          `UPDATE switchboard_node SET status = 'success', status_changed = now(), progress = 100, exception = '',
                  run_count = run_count + 1, last_run_id = $2, outdated = false
            WHERE id = $1 RETURNING run_count`,
          [run.node_id, run.id],
        )) as Row[];
        const count = Array.isArray(node) ? (node[0] as Row)?.run_count : node?.run_count;
        this.nodeLive(m, run.switchboard_id as number, run.node_id as number, {
          status: 'success',
          outdated: false,
          skipped: r.skipped,
          runinfo: { progress: 100, count, exception: '' },
        });
      } else {
        await this.nodeFailed(m, run, r.message ?? '');
      }
      return this.advance(m, run, r.status === 'failure', r.skipped);
    });
    // A forced execution stays forced for the runs it releases.
    await this.queue(ready, force);
  }

  private async nodeFailed(m: EntityManager, run: Row, message: string): Promise<void> {
    await m.query(
      `UPDATE switchboard_node SET status = 'failure', status_changed = now(), exception = $2, run_count = run_count + 1, last_run_id = $3
        WHERE id = $1`,
      [run.node_id, message, run.id],
    );
    this.nodeLive(m, run.switchboard_id as number, run.node_id as number, { status: 'failure', runinfo: { exception: message } });
  }

  /**
   * Counts a finished run in its execution: a success releases the runs downstream (those left
   * waiting for nothing are returned to be queued); a failure cancels everything downstream. The
   * last run to finish decides the execution's and the switchboard's status.
   */
  private async advance(m: EntityManager, run: Row, failed: boolean, skipped = false): Promise<number[]> {
    const downstream = (run.downstream as number[]) ?? [];
    let ready: number[] = [];
    let cancelled = 0;
    if (!failed && downstream.length) {
      const rows = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun SET pending_deps = pending_deps - 1,
                  worker = CASE WHEN pending_deps = 1 AND $3::text IS NOT NULL THEN $3::text ELSE worker END,
                  heartbeat = CASE WHEN pending_deps = 1 AND $3::text IS NOT NULL THEN now() ELSE heartbeat END
            WHERE execution_id = $1 AND node_id = ANY($2) AND status = 'waiting'
        RETURNING id, pending_deps`,
          [run.execution_id, downstream, this.inline ? this.workerId : null],
        ),
      );
      ready = rows.filter((r) => r.pending_deps === 0).map((r) => r.id);
    } else if (failed && downstream.length) {
      const all = (await m.query(`SELECT id, node_id, downstream, status FROM switchboard_noderun WHERE execution_id = $1`, [
        run.execution_id,
      ])) as Row[];
      const edges = new Map(all.map((r) => [r.node_id as number, new Set((r.downstream as number[]) ?? [])]));
      const hit = reachable([run.node_id as number], edges);
      const [node] = (await m.query(`SELECT func FROM switchboard_node WHERE id = $1`, [run.node_id])) as Row[];
      const note = this.services.translate('en', 'switchboards:errors.upstream_failed', { name: String(node?.func ?? '') });
      const gone = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun SET status = 'cancelled', "end" = now(), exception = $3
            WHERE execution_id = $1 AND node_id = ANY($2) AND status = 'waiting' RETURNING node_id`,
          [run.execution_id, [...hit], note],
        ),
      );
      cancelled = gone.length;
      if (gone.length) {
        await m.query(`UPDATE switchboard_node SET status = 'initialized', status_changed = now() WHERE id = ANY($1)`, [
          gone.map((g) => g.node_id),
        ]);
        for (const g of gone) this.nodeLive(m, run.switchboard_id as number, g.node_id as number, { status: 'initialized' });
      }
    }
    const [exec] = returnedRows<Row>(
      await m.query(
        `UPDATE switchboard_execution SET done = done + $2, failed = failed + $3, skipped = skipped + $4
          WHERE id = $1 AND status = 'started' RETURNING *`,
        [run.execution_id, 1 + cancelled, failed ? 1 : 0, skipped ? 1 : 0],
      ),
    );
    if (!exec) return ready;
    const total = Number(exec.total);
    const done = Number(exec.done);
    const progress = total ? Math.round((done / total) * 1000) / 10 : 100;
    if (done >= total) {
      const status = Number(exec.failed) > 0 ? 'failure' : 'success';
      await m.query(`UPDATE switchboard_execution SET status = $2, "end" = now() WHERE id = $1`, [exec.id, status]);
      await m.query(`UPDATE switchboard SET status = $2, progress = $3 WHERE id = $1 AND execution_id = $4`, [
        run.switchboard_id,
        status,
        progress,
        exec.id,
      ]);
      this.switchboardLive(m, run.switchboard_id as number, { status, progress: { total: progress } });
    } else {
      await m.query(`UPDATE switchboard SET progress = $2 WHERE id = $1 AND execution_id = $3`, [
        run.switchboard_id,
        progress,
        exec.id,
      ]);
      this.switchboardLive(m, run.switchboard_id as number, { progress: { total: progress } });
    }
    return ready;
  }

  // ---------------------------------------------------------------- live

  private nodeLive(m: EntityManager | undefined, switchboardId: number, nodeId: number, fields: Record<string, unknown>): void {
    publishLive(this.services, m, {
      switchboard_id: switchboardId,
      event: 'UPDATE',
      resource_uri: `${NODE_PATH}${nodeId}/`,
      fields,
    });
  }

  private switchboardLive(m: EntityManager | undefined, switchboardId: number, fields: Record<string, unknown>): void {
    publishLive(this.services, m, {
      switchboard_id: switchboardId,
      event: 'UPDATE',
      resource_uri: `${SWITCHBOARD_PATH}${switchboardId}/`,
      fields,
    });
  }
}

/** A node run as the API replies it (spec 000 §3 Node run, plus what replay and lineage need). */
export function nodeRunJson(r: Row, full = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    resource_uri: `/api/v1/noderun/${r.id}/`,
    node: `${NODE_PATH}${String(r.node_id)}/`,
    status: r.status,
    start: iso(r.start),
    end: iso(r.end),
    user: r.user_id ? `/api/v1/user/${String(r.user_id)}/` : null,
    user_name: r.user_name ?? null,
    stacktrace: r.stacktrace,
    exception: r.exception,
    skipped: !!r.skipped,
    func: r.func,
    func_version: r.func_version,
    execution: r.execution_id ? `/api/v1/execution/${String(r.execution_id)}/` : null,
    replay_of: r.replay_of ? `/api/v1/noderun/${String(r.replay_of)}/` : null,
    run_key: r.run_key ? String(r.run_key).trim() : null,
    inputs: r.inputs ?? [],
    moments_read: r.moments_read ?? [],
    moments_written: r.moments_written ?? [],
    attempt: r.attempt,
    replayable: !!r.inputs && ['failure', 'success'].includes(String(r.status)),
  };
  if (full) {
    out.log = r.log;
    out.parameters = r.parameters ?? {};
    out.outputs = r.outputs ?? [];
  }
  return out;
}
