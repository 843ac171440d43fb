import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { ApiError, type WorkerPool, type WorkerRunOptions, type WorkerTask } from '@werkbank/sdk/node';
import { pluginHookData } from '../plugin-loading';

export interface PiscinaWorkerPoolOptions {
  /** Threads at most (WORKER_THREADS); default one less than the cores, at least one. */
  threads?: number;
  /** Longest a task may run (WORKER_TIME_LIMIT_SECONDS), in ms. */
  timeLimitMs: number;
}

/**
 * WorkerPool on piscina: tasks run in worker threads that inherit the process's loaders (tsx), so
 * a plugin's TypeScript task module works as it does in the server. A task that is aborted or runs
 * past its time limit has its thread ended (piscina replaces it).
 */
export class PiscinaWorkerPool implements WorkerPool {
  private readonly pool: Piscina;
  constructor(private readonly options: PiscinaWorkerPoolOptions) {
    const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
    this.pool = new Piscina({
      filename: new URL('./worker-task-entry.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      workerData: { pluginHook: pluginHookData() },
    });
  }

  async run<I, O>(task: WorkerTask, input: I, options: WorkerRunOptions = {}): Promise<O> {
    const limit = Math.min(options.timeLimitMs ?? this.options.timeLimitMs, this.options.timeLimitMs);
    const timeout = AbortSignal.timeout(limit);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let reply: {
      output?: O;
      apiError?: { status: number; code: string; key: string; params: Record<string, unknown>; field?: string };
    };
    try {
      reply = await this.pool.run({ module: task.module, name: task.name, input }, { signal });
    } catch (e) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) throw new ApiError(408, 'time_limit', 'errors.time_limit', { seconds: Math.round(limit / 1000) });
      throw e;
    }
    const err = reply.apiError;
    if (err) throw new ApiError(err.status, err.code, err.key, err.params, err.field);
    return reply.output as O;
  }

  /** Ends every thread (running tasks are aborted). */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
