import { Worker } from 'node:worker_threads';

/**
 * One autocannon job: `connections` keep-alive connections on one URL, warm-up then measured
 * seconds; or, with `amount`, that many requests in all, every one measured (count mode).
 */
export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Load before the measured window; its responses are not counted. */
  warmupSeconds: number;
  seconds: number;
  /** Seconds a request may take before autocannon counts it as a timeout (its default: 10). */
  timeoutSeconds?: number;
  /**
   * Count mode: exactly this many requests over the connections, no warm-up; the measured window
   * is the job's wall time from its start until the last answer. For requests that take longer
   * than a time window could hold (a whole-layer map of 100,000 polygons).
   */
  amount?: number;
}

export interface LoadResult {
  /** Requests completed in the measured window. */
  requests: number;
  /** The measured window (count mode: the job's wall time). */
  seconds: number;
  /** Response times in milliseconds, one per request completed in the window. */
  latencies: number[];
  /** Over the whole job, warm-up included. */
  errors: number;
  timeouts: number;
  non2xx: number;
}

export type LoadReply = { id: number; result: LoadResult; error?: undefined } | { id: number; error: string };

/**
 * Runs autocannon on a worker thread of this process. The servers under test (Werkbank, the pg
 * peer and, for the embedded database, PGlite itself) all run on the main thread; a load
 * generator there would take its event loop from them. Await each job before the next: jobs
 * started together share the worker's one thread and disturb each other.
 */
export class LoadRunner {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  private seq = 0;

  constructor() {
    // The worker needs tsx's loader for its TypeScript; a worker does not inherit the parent's.
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./load-worker.ts', import.meta.url).href;
    const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
    this.worker = new Worker(boot, { eval: true });
    this.worker.on('message', (reply: LoadReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error !== undefined) waiting?.reject(new Error(`load generator: ${reply.error}`));
      else waiting?.resolve(reply.result);
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => this.failAll(new Error(`load generator exited with code ${code}`)));
  }

  /**
   * Rejects on autocannon errors only; the caller decides what errors, timeouts and non-2xx
   * answers mean. Throws for any target off this machine: load goes to loopback addresses only.
   */
  run(options: LoadOptions): Promise<LoadResult> {
    const host = new URL(options.url).hostname;
    if (!/^127\.\d+\.\d+\.\d+$/.test(host)) throw new Error(`load generator: ${host} is not a loopback address`);
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, options });
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private failAll(err: Error): void {
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }
}
