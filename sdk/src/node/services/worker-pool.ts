import { token } from '@werkbank/kernel';

/** A function exported by a module that a worker thread loads: `{ module: new URL('./x-task.ts', import.meta.url).href, name: 'buffer' }`. */
export interface WorkerTask {
  /** The module's file URL. It runs in a worker thread: it may import packages, but no service. */
  module: string;
  /** The name of the exported function; it takes the input and returns (or resolves to) the output. */
  name: string;
}

export interface WorkerRunOptions {
  /** Stops the task: its thread is ended and `run` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Longest the task may run (default and ceiling: WORKER_TIME_LIMIT_SECONDS); more rejects with ApiError 408 `time_limit`. */
  timeLimitMs?: number;
}

/**
 * CPU-heavy work off the event loop (DESIGN §3): geometry, parsing, rendering run in a pool of
 * worker threads (WORKER_THREADS), so a long computation never holds up other requests. Input and
 * output are copied (structured clone): pass plain data, not streams or services.
 */
export interface WorkerPool {
  run<I, O>(task: WorkerTask, input: I, options?: WorkerRunOptions): Promise<O>;
}
export const WorkerPool = token<WorkerPool>('WorkerPool');
