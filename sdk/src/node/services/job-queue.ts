import { token, type Disposable } from '@werkbank/kernel';

/**
 * Background jobs. In the default 'inline' mode the server runs them itself, up to the configured
 * concurrency per job name. In 'workers' mode (EXECUTION=workers, PostgreSQL only) jobs are queued
 * with pg-boss and taken by `npm run worker` processes on any machine that reaches the database;
 * the API servers only send. A job is delivered to one worker at a time; a worker that dies in the
 * middle of a job is noticed by its missing heartbeat and the job is retried or failed (retryLimit).
 */
export interface JobQueue {
  readonly mode: 'inline' | 'workers';
  /**
   * Registers the handler of a job name. Handlers run where jobs are taken: in the server in
   * 'inline' mode, in worker processes in 'workers' mode (elsewhere `work` registers nothing).
   * A handler that throws fails the job (retried up to `retryLimit` times).
   */
  work<T extends Record<string, unknown>>(
    name: string,
    handler: (data: T, job: { id: string; attempt: number }) => Promise<void>,
    options?: { concurrency?: number },
  ): Disposable;
  /** Queues a job; resolves with its id once it is stored (or scheduled in-process). */
  send(name: string, data: Record<string, unknown>, options?: { retryLimit?: number }): Promise<string>;
}
export const JobQueue = token<JobQueue>('JobQueue');
