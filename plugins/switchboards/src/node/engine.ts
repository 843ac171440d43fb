import { Disposable, DisposableCollection, inject, injectable, type AuthUser, type Row } from '@werkbank/sdk/node';
import { startExecution, startReplay, stopExecution, type ExecuteOptions } from './execution-start';
import { ABORT_CHANNEL, NODE_RUN_JOB, queueRuns } from './engine-jobs';
import { LocalRuns } from './local-runs';
import { EngineLiveness } from './engine-liveness';
import { NodeRunner } from './node-runner';
import { SwitchboardsServices } from './switchboards-services';

export type { ExecuteOptions, Trigger } from './execution-start';
export { ABORT_CHANNEL, NODE_RUN_JOB } from './engine-jobs';

/**
 * Executes switchboards (decision 0014). Every node run is a job: the run rows of an execution are
 * written at its start with the number of upstream runs each waits for; a finished run counts its
 * downstream runs down and queues those that reach zero, in the same statement. So any process
 * (server or worker) can finish any run, and the state lives in the database only. Runs report a
 * heartbeat; a run whose process stopped beating is failed by the next sweep.
 *
 * The parts share this process's LocalRuns: NodeRunner executes one run, EngineLiveness beats and sweeps.
 */
@injectable()
export class Engine implements Disposable {
  private readonly runs: LocalRuns;
  private readonly liveness: EngineLiveness;
  private readonly runner: NodeRunner;
  private readonly toDispose = new DisposableCollection();

  constructor(@inject(SwitchboardsServices) private readonly services: SwitchboardsServices) {
    this.runs = new LocalRuns(services);
    this.liveness = new EngineLiveness(services, this.runs);
    this.runner = new NodeRunner(services, this.runs);
  }

  /** This process as the worker of its runs: `host:pid:random`. */
  get workerId(): string {
    return this.runs.workerId;
  }

  private get db() {
    return this.services.dataSource;
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
      this.services.bus.subscribe(ABORT_CHANNEL, (msg) =>
        this.runs.abortExecution(Number(msg.execution_id), String(msg.message ?? '')),
      ),
    );
    this.toDispose.push(this.liveness.startHeartbeat());
  }

  dispose(): void {
    this.runs.stop();
    this.toDispose.dispose();
  }

  /** Resolves once no run executes in this process. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /**
   * Starts an execution and queues the runs that wait for nothing. Refuses while the switchboard
   * runs (409), for unknown functions (400) and superuser-only functions of other users (403).
   */
  async execute(opts: ExecuteOptions): Promise<Row> {
    const { execution, ready } = await this.db.transaction((m) => startExecution(m, this.services, opts, this.runs.owner));
    await queueRuns(this.services, ready, !!opts.force);
    return execution;
  }

  /** Re-runs a node against exactly the inputs of an earlier run (their content is kept for this). */
  async replay(runId: number, user: AuthUser): Promise<Row> {
    const { execution, ready } = await this.db.transaction((m) => startReplay(m, this.services, runId, user, this.runs.owner));
    await queueRuns(this.services, ready, true);
    return execution;
  }

  /** Stops the switchboard's execution: waiting runs are cancelled, running ones fail at once. */
  async abort(switchboardId: number, user: AuthUser): Promise<Row> {
    const exec = await this.db.transaction((m) => stopExecution(m, this.services, switchboardId, user));
    const message = String(exec.message);
    this.runs.abortExecution(exec.id, message);
    await this.services.bus.publish(ABORT_CHANNEL, { execution_id: exec.id, message });
    return exec;
  }

  /** Fails runs whose process stopped (EngineLiveness.sweep); with `all`, every unfinished run. */
  sweep(all: boolean): Promise<number> {
    return this.liveness.sweep(all);
  }

  /** Executes one queued run (the job handler). */
  runJob(runId: number, force: boolean): Promise<void> {
    return this.runner.runJob(runId, force);
  }
}
