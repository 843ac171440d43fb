import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  ApiError,
  Disposable,
  DisposableCollection,
  inject,
  injectable,
  returnedRows,
  ServerServices,
  type AuthUser,
  type EntityManager,
  type FrameItems,
  type FunctionDescriptor,
  type FunctionInputs,
  type FunctionOutputs,
  type Row,
} from '@werkbank/sdk/node';
import { reachable } from './graph';
import { hashItems, textRepr } from './frame-content';
import { frameLive, nodeLive, switchboardLive } from './live';
import type { NodePort } from './links';
import { CLAIM_SQL, FINISH_SQL } from './engine-sql';
import {
  functionInputs,
  nodeLinks,
  runInputs,
  runKey,
  unchanged,
  type InputRef,
  type NodeLink,
  type PreviousRun,
} from './run-plan';
import { startExecution, startReplay, stopExecution, type ExecuteOptions } from './execution-start';

export type { ExecuteOptions, Trigger } from './execution-start';

/** The job that executes one node run (in the server, or in worker processes). */
export const NODE_RUN_JOB = 'switchboard_noderun';
/** Bus channel telling every process to stop the runs of an aborted execution. */
export const ABORT_CHANNEL = 'werkbank_switchboard_abort';
/** Longest log a node run keeps (characters). */
const LOG_LIMIT = 200_000;
/** Progress of a running node is written at most this often (ms). */
const PROGRESS_INTERVAL = 500;
/** How long a loaded user is reused for the runs of one process (ms). */
const USER_CACHE_MS = 5000;

class NodeRunError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

type Lineage = Array<{ depot_id: number; moment_id: number }>;

/**
 * Executes switchboards (decision 0014). Every node run is a job: the run rows of an execution are
 * written at its start with the number of upstream runs each waits for; a finished run counts its
 * downstream runs down and queues those that reach zero, in the same statement. So any process
 * (server or worker) can finish any run, and the state lives in the database only. Runs report a
 * heartbeat; a run whose process stopped beating is failed by the next sweep.
 */
@injectable()
export class Engine implements Disposable {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<number, { controller: AbortController; executionId: number }>();
  private readonly toDispose = new DisposableCollection();
  private readonly users = new Map<number, { user: AuthUser | undefined; at: number }>();
  private disposed = false;
  private idleWaiters: Array<() => void> = [];

  constructor(@inject(ServerServices) private readonly services: ServerServices) {}

  private get db() {
    return this.services.dataSource;
  }

  /** The process that owns queued runs: this one in-process, none with workers (pg-boss keeps them). */
  private get owner(): string | null {
    return this.services.jobs.mode === 'inline' ? this.workerId : null;
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

  /**
   * Starts an execution and queues the runs that wait for nothing. Refuses while the switchboard
   * runs (409), for unknown functions (400) and superuser-only functions of other users (403).
   */
  async execute(opts: ExecuteOptions): Promise<Row> {
    const { execution, ready } = await this.db.transaction((m) => startExecution(m, this.services, opts, this.owner));
    await this.queue(ready, !!opts.force);
    return execution;
  }

  /** Re-runs a node against exactly the inputs of an earlier run (their content is kept for this). */
  async replay(runId: number, user: AuthUser): Promise<Row> {
    const { execution, ready } = await this.db.transaction((m) => startReplay(m, this.services, runId, user, this.owner));
    await this.queue(ready, true);
    return execution;
  }

  /** Stops the switchboard's execution: waiting runs are cancelled, running ones fail at once. */
  async abort(switchboardId: number, user: AuthUser): Promise<Row> {
    const exec = await this.db.transaction((m) => stopExecution(m, this.services, switchboardId, user));
    const message = String(exec.message);
    this.abortLocal(exec.id, message);
    await this.services.bus.publish(ABORT_CHANNEL, { execution_id: exec.id, message });
    return exec;
  }

  private async queue(runIds: number[], force: boolean): Promise<void> {
    for (const id of runIds) await this.services.jobs.send(NODE_RUN_JOB, { run_id: id, force });
  }

  private abortLocal(executionId: number, message: string): void {
    for (const r of this.running.values()) {
      if (r.executionId === executionId && !r.controller.signal.aborted) r.controller.abort(new Error(message || 'Aborted'));
    }
  }

  private async user(id: number | null): Promise<AuthUser | undefined> {
    if (!id) return undefined;
    const hit = this.users.get(id);
    if (hit && Date.now() - hit.at < USER_CACHE_MS) return hit.user;
    const user = await this.services.loadUser(id);
    this.users.set(id, { user, at: Date.now() });
    return user;
  }

  // ---------------------------------------------------------------- liveness

  private async beat(): Promise<void> {
    if (this.disposed) return;
    // Only runs that really execute here beat: one whose handler died is swept after the timeout.
    await this.db.query(
      `UPDATE switchboard_noderun SET heartbeat = now()
        WHERE worker = $1 AND (status = 'waiting' OR (status = 'started' AND id = ANY($2)))`,
      [this.workerId, [...this.running.keys()]],
    );
  }

  /**
   * Fails runs whose process stopped: no heartbeat for WORKER_TIMEOUT_SECONDS (or, with `all`, every
   * unfinished run: the embedded database at start, where no other process can run them). Each run
   * fails in one transaction with what follows from it (its node, cancelled downstream runs, the
   * execution's counts), so a sweeper that stops half-way leaves no run failed but uncounted, and of
   * concurrent sweepers exactly one takes each run.
   */
  async sweep(all: boolean): Promise<number> {
    if (this.disposed) return 0;
    const timeout = this.services.config.workerTimeoutSeconds;
    const stale = (p: string) => (all ? 'true' : `worker IS NOT NULL AND heartbeat < now() - make_interval(secs => ${p})`);
    const candidates = (await this.db.query(
      `SELECT id FROM switchboard_noderun WHERE status IN ('waiting', 'started') AND (${stale('$1')}) ORDER BY id`,
      all ? [] : [timeout],
    )) as Row[];
    let swept = 0;
    for (const { id } of candidates) {
      const lost = await this.db.transaction(async (m) => {
        const [run] = returnedRows<Row>(
          await m.query(
            `UPDATE switchboard_noderun
                SET status = 'failure', "end" = now(), exception = CASE WHEN status = 'started' THEN $2::text ELSE $3::text END,
                    stacktrace = 'The process executing this run stopped (no heartbeat).'
              WHERE id = $1 AND status IN ('waiting', 'started') AND (${stale('$4')})
          RETURNING *`,
            [
              id,
              this.services.translate('en', 'switchboards:errors.worker_lost'),
              this.services.translate('en', 'switchboards:errors.server_restart'),
              ...(all ? [] : [timeout]),
            ],
          ),
        );
        if (!run) return false;
        await this.failed(m, run, String(run.exception));
        return true;
      });
      if (lost) swept++;
    }
    return swept;
  }

  // ---------------------------------------------------------------- running

  /** Executes one queued run (the job handler). */
  async runJob(runId: number, force: boolean): Promise<void> {
    if (this.disposed) throw new Error('The engine has stopped.');
    const [run] = await this.services.prepared<Row>('switchboard_claim', CLAIM_SQL, [runId, this.workerId]);
    if (!run) return;
    const controller = new AbortController();
    this.running.set(run.id, { controller, executionId: run.execution_id as number });
    const logs: string[] = [];
    const reads: Lineage = [];
    const writes: Lineage = [];
    let inputs: InputRef[] = [];
    let parameters: Record<string, unknown> = {};
    let key: string | null = null;
    const user = await this.user(run.user_id as number | null);
    const lang = user?.language ?? 'en';
    try {
      if (!user) throw new NodeRunError('switchboards:errors.run_user_missing');
      const fn = this.services.functions.get(String(run.func));
      if (!fn) throw new NodeRunError('switchboards:errors.unknown_function', { name: String(run.func) });
      if (fn.superuser_required && !user.isSuperuser)
        throw new NodeRunError('switchboards:errors.superuser_function', { name: fn.id });
      const ports = run.ports as NodePort[];
      const links = nodeLinks(run.links as Array<Record<string, unknown>>);
      if (run.replay_of) {
        inputs = run.inputs as InputRef[];
        parameters = (run.parameters as Record<string, unknown>) ?? {};
      } else {
        const planned = runInputs(ports, links);
        if (planned.missing) throw new NodeRunError('switchboards:errors.input_missing', { name: planned.missing });
        ({ inputs, parameters } = planned);
      }
      key = runKey(fn, parameters, inputs);
      if (!force && !run.replay_of && unchanged(run.prev as PreviousRun | null, key, links)) {
        const prev = run.prev as PreviousRun;
        await this.succeed(run, {
          key,
          inputs,
          parameters,
          reads,
          writes,
          logs,
          skipped: true,
          outputs: prev.outputs ?? [],
          frames: [],
        });
      } else {
        await this.execute1(run, fn, { controller, inputs, parameters, key, links, logs, reads, writes, lang, user });
      }
    } catch (e) {
      const err = e as Error;
      const message =
        e instanceof NodeRunError || e instanceof ApiError
          ? this.services.translate(lang, e.key, e.params)
          : err?.message || String(e);
      await this.fail(run, { key, inputs, parameters, reads, writes, logs, message, stack: err?.stack ?? message });
    } finally {
      this.running.delete(run.id);
      if (!this.running.size) for (const w of this.idleWaiters.splice(0)) w();
    }
    await this.queueReleased(run, force);
  }

  /** Runs the node's function on its inputs and stores what it returned. */
  private async execute1(
    run: Row,
    fn: FunctionDescriptor,
    c: {
      controller: AbortController;
      inputs: InputRef[];
      parameters: Record<string, unknown>;
      key: string;
      links: NodeLink[];
      logs: string[];
      reads: Lineage;
      writes: Lineage;
      lang: string;
      user: AuthUser;
    },
  ): Promise<void> {
    const sbId = run.switchboard_id as number;
    const ports = run.ports as NodePort[];
    const { controller, inputs, parameters, key, links, logs, reads, writes, lang, user } = c;
    let logLength = 0;
    nodeLive(this.services, undefined, sbId, run.node_id as number, { status: 'started', runinfo: { progress: 0 } });
    // The claim brought the items of the input frames; a replay reads the contents it names.
    const contents = new Map<string, FrameItems>();
    for (const l of run.links as Array<{ hash: string | null; items?: FrameItems }>)
      if (l.hash && l.items) contents.set(l.hash.trim(), l.items);
    const missing = [...new Set(inputs.map((i) => i.hash).filter((h): h is string => !!h && !contents.has(h)))];
    if (missing.length) {
      const rows = await this.services.prepared<{ hash: string; items: FrameItems }>(
        'switchboard_contents',
        `SELECT hash, items FROM switchboard_content WHERE hash = ANY($1)`,
        [missing],
      );
      for (const r of rows) contents.set(r.hash.trim(), r.items);
    }
    const fnInputs = functionInputs(ports, { inputs, parameters }, contents, (port) => {
      throw new NodeRunError('switchboards:errors.content_missing', { name: port });
    });
    const progress = this.progressReporter(sbId, run.node_id as number, run.id);
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
    await this.succeed(run, { key, inputs, parameters, reads, writes, logs, skipped: false, ...this.written(outputs, links) });
  }

  /** The contents and frame updates of a run's outputs (each output link gets its port's items). */
  private written(outputs: FunctionOutputs, links: NodeLink[]) {
    const contents = new Map<string, { hash: string; items: unknown[]; size: number }>();
    const frames: Array<{ frame_id: number; hash: string; size: number; text_repr: string }> = [];
    const refs: Array<{ port: string; frame_id: number; hash: string }> = [];
    for (const link of links.filter((l) => !l.is_input)) {
      const items = outputs[link.name] ?? [];
      const hash = hashItems(items);
      contents.set(hash, { hash, items, size: items.length });
      frames.push({ frame_id: link.frame_id, hash, size: items.length, text_repr: textRepr(items, link.type, this.services) });
      refs.push({ port: link.name, frame_id: link.frame_id, hash });
    }
    return { outputs: refs, frames, contents: [...contents.values()] };
  }

  /** The runs a finished run released, queued after its statement committed. */
  private readonly released = new Map<number, number[]>();

  private async queueReleased(run: Row, force: boolean): Promise<void> {
    const ready = this.released.get(run.id) ?? [];
    this.released.delete(run.id);
    // A forced execution stays forced for the runs it releases.
    await this.queue(ready, force);
  }

  private async succeed(
    run: Row,
    r: {
      key: string;
      inputs: InputRef[];
      parameters: Record<string, unknown>;
      reads: Lineage;
      writes: Lineage;
      logs: string[];
      skipped: boolean;
      outputs: Array<{ port: string; frame_id: number; hash: string }>;
      frames: Array<{ frame_id: number; hash: string; size: number; text_repr: string }>;
      contents?: Array<{ hash: string; items: unknown[]; size: number }>;
    },
  ): Promise<void> {
    const [out] = await this.services.prepared<Row>('switchboard_finish', FINISH_SQL, [
      run.id,
      this.workerId,
      r.key,
      JSON.stringify(r.inputs),
      JSON.stringify(r.parameters),
      JSON.stringify(r.outputs),
      JSON.stringify(r.reads),
      JSON.stringify(r.writes),
      r.logs.join('\n'),
      r.skipped,
      JSON.stringify(r.contents ?? []),
      JSON.stringify(r.frames),
      (run.downstream as number[]) ?? [],
      this.owner,
    ]);
    // Aborted or swept meanwhile: what this run produced is dropped.
    if (!out || !out.mine) return;
    this.released.set(run.id, (out.ready as number[]) ?? []);
    const sbId = run.switchboard_id as number;
    for (const f of r.frames)
      frameLive(this.services, undefined, sbId, f.frame_id, { size: f.size, text_repr: f.text_repr, outdated: false });
    nodeLive(this.services, undefined, sbId, run.node_id as number, {
      status: 'success',
      outdated: false,
      skipped: r.skipped,
      runinfo: { progress: 100, count: out.run_count, exception: '' },
    });
    const sb = out.switchboard as { status: string; progress: number } | null;
    if (sb) switchboardLive(this.services, undefined, sbId, { status: sb.status, progress: { total: Number(sb.progress) } });
  }

  private async fail(
    run: Row,
    r: {
      key: string | null;
      inputs: InputRef[];
      parameters: Record<string, unknown>;
      reads: Lineage;
      writes: Lineage;
      logs: string[];
      message: string;
      stack: string;
    },
  ): Promise<void> {
    await this.db.transaction(async (m) => {
      const [mine] = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun
              SET status = 'failure', "end" = now(), run_key = $3, inputs = $4, parameters = $5, moments_read = $6,
                  moments_written = $7, log = $8, exception = $9, stacktrace = $10
            WHERE id = $1 AND status = 'started' AND worker = $2
        RETURNING *`,
          [
            run.id,
            this.workerId,
            r.key,
            JSON.stringify(r.inputs),
            JSON.stringify(r.parameters),
            JSON.stringify(r.reads),
            JSON.stringify(r.writes),
            r.logs.join('\n'),
            r.message,
            r.stack,
          ],
        ),
      );
      if (mine) await this.failed(m, mine, r.message);
    });
  }

  /**
   * After a run failed: marks its node, cancels everything downstream in its execution, and counts
   * them; the execution (and switchboard) end as failure when nothing else runs.
   */
  private async failed(m: EntityManager, run: Row, message: string): Promise<void> {
    const sbId = run.switchboard_id as number;
    await m.query(
      `UPDATE switchboard_node SET status = 'failure', status_changed = now(), exception = $2, run_count = run_count + 1, last_run_id = $3
        WHERE id = $1`,
      [run.node_id, message, run.id],
    );
    nodeLive(this.services, m, sbId, run.node_id as number, { status: 'failure', runinfo: { exception: message } });
    let cancelled = 0;
    if (((run.downstream as number[]) ?? []).length) {
      const all = (await m.query(`SELECT node_id, downstream FROM switchboard_noderun WHERE execution_id = $1`, [
        run.execution_id,
      ])) as Row[];
      const edges = new Map(all.map((r) => [r.node_id as number, new Set((r.downstream as number[]) ?? [])]));
      const note = this.services.translate('en', 'switchboards:errors.upstream_failed', { name: String(run.func ?? '') });
      const gone = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun SET status = 'cancelled', "end" = now(), exception = $3
            WHERE execution_id = $1 AND node_id = ANY($2) AND status = 'waiting' RETURNING node_id`,
          [run.execution_id, [...reachable([run.node_id as number], edges)], note],
        ),
      );
      cancelled = gone.length;
      if (gone.length) {
        await m.query(`UPDATE switchboard_node SET status = 'initialized', status_changed = now() WHERE id = ANY($1)`, [
          gone.map((g) => g.node_id),
        ]);
        for (const g of gone) nodeLive(this.services, m, sbId, g.node_id as number, { status: 'initialized' });
      }
    }
    const [exec] = returnedRows<Row>(
      await m.query(
        `UPDATE switchboard_execution SET done = done + $2, failed = failed + 1,
                status = CASE WHEN done + $2 >= total THEN 'failure' ELSE status END,
                "end" = CASE WHEN done + $2 >= total THEN now() ELSE "end" END
          WHERE id = $1 AND status = 'started' RETURNING *`,
        [run.execution_id, 1 + cancelled],
      ),
    );
    if (!exec) return;
    const progress = Number(exec.total) ? Math.round((Number(exec.done) / Number(exec.total)) * 1000) / 10 : 100;
    const status = exec.status === 'failure' ? 'failure' : undefined;
    await m.query(`UPDATE switchboard SET progress = $2, status = coalesce($3, status) WHERE id = $1 AND execution_id = $4`, [
      sbId,
      progress,
      status ?? null,
      exec.id,
    ]);
    switchboardLive(this.services, m, sbId, { ...(status ? { status } : {}), progress: { total: progress } });
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

  /** Progress reports of a running node, written at most every PROGRESS_INTERVAL ms. */
  private progressReporter(sbId: number, nodeId: number, runId: number) {
    let last = Date.now();
    let pending: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      if (pending === undefined) return;
      const pct = Math.round(Math.min(1, Math.max(0, pending)) * 1000) / 10;
      pending = undefined;
      last = Date.now();
      void this.db
        .query(
          `WITH r AS (UPDATE switchboard_noderun SET progress = $3 WHERE id = $2 AND status = 'started' RETURNING node_id)
           UPDATE switchboard_node SET progress = $3 FROM r WHERE switchboard_node.id = $1 AND r.node_id = $1`,
          [nodeId, runId, pct],
        )
        .catch(() => undefined);
      nodeLive(this.services, undefined, sbId, nodeId, { runinfo: { progress: pct } });
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
}
