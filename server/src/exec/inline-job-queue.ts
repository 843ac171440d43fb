import { randomUUID } from 'node:crypto';
import { Disposable } from '@werkbank/kernel';
import type { JobQueue } from '@werkbank/sdk/node';

type Handler = (data: Record<string, unknown>, job: { id: string; attempt: number }) => Promise<void>;

interface Pending {
  id: string;
  data: Record<string, unknown>;
  attempt: number;
  retryLimit: number;
}

/** Jobs run in this process, first in first out, at most `concurrency` at a time per name. */
export class InlineJobQueue implements JobQueue {
  readonly mode = 'inline' as const;
  private readonly queues = new Map<string, { handler?: Handler; concurrency: number; running: number; pending: Pending[] }>();
  private closed = false;

  constructor(
    private readonly defaultConcurrency: number,
    private readonly log: (m: string) => void,
  ) {}

  private queue(name: string) {
    let q = this.queues.get(name);
    if (!q) this.queues.set(name, (q = { concurrency: this.defaultConcurrency, running: 0, pending: [] }));
    return q;
  }

  work<T extends Record<string, unknown>>(
    name: string,
    handler: (data: T, job: { id: string; attempt: number }) => Promise<void>,
    options: { concurrency?: number } = {},
  ): Disposable {
    const q = this.queue(name);
    q.handler = handler as Handler;
    if (options.concurrency) q.concurrency = options.concurrency;
    this.pump(name);
    return Disposable.create(() => {
      if (q.handler === handler) q.handler = undefined;
    });
  }

  send(name: string, data: Record<string, unknown>, options: { retryLimit?: number } = {}): Promise<string> {
    const id = randomUUID();
    this.queue(name).pending.push({ id, data, attempt: 0, retryLimit: options.retryLimit ?? 0 });
    this.pump(name);
    return Promise.resolve(id);
  }

  private pump(name: string): void {
    const q = this.queue(name);
    while (!this.closed && q.handler && q.running < q.concurrency && q.pending.length) {
      const job = q.pending.shift()!;
      const handler = q.handler;
      q.running++;
      void handler(job.data, { id: job.id, attempt: job.attempt })
        .catch((e: Error) => {
          if (job.attempt < job.retryLimit) q.pending.push({ ...job, attempt: job.attempt + 1 });
          else this.log(`Job ${name} ${job.id} failed: ${e.stack ?? e.message}`);
        })
        .finally(() => {
          q.running--;
          this.pump(name);
        });
    }
  }

  dispose(): void {
    this.closed = true;
  }
}
