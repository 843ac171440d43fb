import PgBoss from 'pg-boss';
import { Disposable } from '@werkbank/kernel';
import type { JobQueue } from '@werkbank/sdk/node';

export interface PgBossJobQueueOptions {
  /** The PostgreSQL server and database; pg-boss keeps its tables in the schema `pgboss`. */
  url: string;
  /** Only 'worker' processes take jobs; servers only send. */
  role: 'server' | 'worker';
  /** Pollers per job name when `work` names none (EXECUTION_CONCURRENCY). */
  concurrency: number;
  log: (message: string) => void;
  /** Seconds an idle poller waits between polls (pg-boss's minimum, 0.5, by default). */
  pollingIntervalSeconds?: number;
  /** How long `close` waits for running handlers before pg-boss fails their jobs (default 5 s). */
  stopTimeoutMs?: number;
}

/**
 * pg-boss's expiry, just under its limit of 24 hours. Deliberately generous: a job is taken by one
 * worker only (FOR UPDATE SKIP LOCKED), and whether a long run is still alive is decided by the
 * switchboard engine's own heartbeat (WORKER_TIMEOUT_SECONDS), not by pg-boss. A handler still
 * running after this time has its job failed by pg-boss (the handler itself is not stopped).
 */
export const JOB_EXPIRE_IN_SECONDS = 23 * 60 * 60;

type Handler<T> = (data: T, job: { id: string; attempt: number }) => Promise<void>;

/**
 * The job queue of 'workers' mode (EXECUTION=workers, PostgreSQL only): pg-boss 10. Every process
 * sends; only processes in the 'worker' role (`npm run worker`) take jobs, each with `concurrency`
 * pollers per job name that fetch one job at a time. A handler that throws fails the job, which
 * pg-boss retries up to the job's `retryLimit` (default 0).
 */
export class PgBossJobQueue implements JobQueue, Disposable {
  readonly mode = 'workers' as const;
  private readonly boss: PgBoss;
  private readonly queues = new Map<string, Promise<void>>();
  private closing?: Promise<void>;

  private constructor(private readonly options: PgBossJobQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: 'pgboss',
      application_name: `werkbank_${options.role}_jobs`,
      max: Math.max(4, options.concurrency + 2),
      schedule: false,
      expireInSeconds: JOB_EXPIRE_IN_SECONDS,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
    });
    // An EventEmitter 'error' without a listener would end the process.
    this.boss.on('error', (e) => options.log(`Job queue error: ${e.stack ?? e.message}`));
  }

  /** Creates pg-boss's schema when missing (or migrates it) and starts it. */
  static async start(options: PgBossJobQueueOptions): Promise<PgBossJobQueue> {
    const queue = new PgBossJobQueue(options);
    await queue.boss.start();
    return queue;
  }

  async send(name: string, data: Record<string, unknown>, options: { retryLimit?: number } = {}): Promise<string> {
    await this.ensureQueue(name);
    const id = await this.boss.send(name, data, { retryLimit: options.retryLimit ?? 0, expireInSeconds: JOB_EXPIRE_IN_SECONDS });
    if (!id) throw new Error(`The job queue did not accept a job for '${name}'.`);
    return id;
  }

  /** In the 'server' role a no-op. Registration finishes in the background; failures are logged. */
  work<T extends Record<string, unknown>>(name: string, handler: Handler<T>, options: { concurrency?: number } = {}): Disposable {
    if (this.options.role !== 'worker' || this.closing) return Disposable.create(() => undefined);
    const pollers = Math.max(1, options.concurrency ?? this.options.concurrency);
    const workOptions = {
      batchSize: 1,
      includeMetadata: true as const,
      pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 0.5,
    };
    const run = async ([job]: PgBoss.JobWithMetadata<T>[]) => {
      try {
        await handler(job.data, { id: job.id, attempt: job.retryCount });
      } catch (e) {
        this.options.log(`Job ${name} ${job.id} failed (attempt ${job.retryCount + 1}): ${(e as Error).stack ?? String(e)}`);
        throw e;
      }
    };
    const ids = this.ensureQueue(name).then(() =>
      Promise.all(Array.from({ length: pollers }, () => this.boss.work<T>(name, workOptions, run))),
    );
    ids.catch((e: Error) => this.options.log(`Could not take jobs of '${name}': ${e.message}`));
    return Disposable.create(() => {
      void ids.then((list) => Promise.all(list.map((id) => this.boss.offWork({ id })))).catch(() => undefined);
    });
  }

  dispose(): void {
    void this.close();
  }

  /**
   * Stops polling, waits up to `stopTimeoutMs` for running handlers, fails the jobs of those still
   * running (retried elsewhere if their retryLimit allows) and closes pg-boss's connections.
   */
  close(): Promise<void> {
    this.closing ??= this.boss
      .stop({ graceful: true, wait: true, timeout: this.options.stopTimeoutMs ?? 5000 })
      .catch((e: Error) => this.options.log(`Job queue did not stop cleanly: ${e.message}`));
    return this.closing;
  }

  /** pg-boss 10 takes jobs only for queues it knows; creating one that exists is a no-op. */
  private ensureQueue(name: string): Promise<void> {
    let created = this.queues.get(name);
    if (!created) {
      created = this.createQueue(name);
      created.catch(() => this.queues.delete(name));
      this.queues.set(name, created);
    }
    return created;
  }

  /**
   * pg-boss's create_queue attaches a partition to its job table; processes creating queues at
   * the same moment (a server sending, workers registering) can deadlock there. PostgreSQL aborts
   * one of them, which tries again.
   */
  private async createQueue(name: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(name)) return;
      try {
        await this.boss.createQueue(name, { name, expireInSeconds: JOB_EXPIRE_IN_SECONDS });
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== '40P01' || attempt >= 5) throw e;
      }
    }
  }
}
