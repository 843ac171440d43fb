import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SwitchboardsServices } from './switchboards-services';

/**
 * This process's share of the engine: its worker id, the runs executing here (so aborts, heartbeats
 * and shutdown reach them) and whether the engine has stopped. The engine's parts share one.
 */
export class LocalRuns {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<number, { controller: AbortController; executionId: number }>();
  private idleWaiters: Array<() => void> = [];
  private disposed = false;

  constructor(private readonly services: SwitchboardsServices) {}

  /** The process that owns queued runs: this one in-process, none with workers (pg-boss keeps them). */
  get owner(): string | null {
    return this.services.jobs.mode === 'inline' ? this.workerId : null;
  }

  /** True once the engine has stopped: no run starts, no heartbeat or sweep happens. */
  get stopped(): boolean {
    return this.disposed;
  }

  /** The ids of the runs executing here. */
  ids(): number[] {
    return [...this.running.keys()];
  }

  /** Registers a run that starts executing here; the returned controller aborts it. */
  add(runId: number, executionId: number): AbortController {
    const controller = new AbortController();
    this.running.set(runId, { controller, executionId });
    return controller;
  }

  /** Unregisters a run that ended; resolves the idle() waiters once none is left. */
  delete(runId: number): void {
    this.running.delete(runId);
    if (!this.running.size) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves once no run executes in this process. */
  idle(): Promise<void> {
    if (!this.running.size) return Promise.resolve();
    return new Promise((res) => this.idleWaiters.push(res));
  }

  /** Stops the runs of an execution that execute here; they fail with `message`. */
  abortExecution(executionId: number, message: string): void {
    for (const r of this.running.values()) {
      if (r.executionId === executionId && !r.controller.signal.aborted) r.controller.abort(new Error(message || 'Aborted'));
    }
  }

  /** Marks the engine stopped and aborts every run executing here. */
  stop(): void {
    this.disposed = true;
    for (const r of this.running.values()) r.controller.abort(new Error('The server is shutting down.'));
  }
}
