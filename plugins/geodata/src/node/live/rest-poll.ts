import { createHash } from 'node:crypto';
import type { Disposable, UrlFetcher } from '@werkbank/sdk/node';
import { fetchRestBody } from './rest-client';
import { reasonOf } from './live-settings';

/** What a poll needs: the guarded fetcher, a log, and what to call when the answer changed. */
export interface RestPollOptions {
  net: UrlFetcher;
  origin: string;
  /** Seconds between two requests. */
  interval: number;
  log(message: string): void;
  onDidChange(): void;
  /** Called after the first answer was read (the baseline), e.g. to announce that the origin is watched. */
  onBaseline?(): void;
}

/**
 * Polls a REST dataset's origin every `interval` seconds through the guarded fetcher and calls
 * `onDidChange` when the body differs from the one before (sha256). The first answer is the
 * baseline. Failures are logged and the poll goes on.
 */
export class RestPoll implements Disposable {
  private readonly abort = new AbortController();
  private timer?: NodeJS.Timeout;
  private last?: string;

  constructor(private readonly options: RestPollOptions) {}

  start(): void {
    void this.poll();
  }

  dispose(): void {
    this.abort.abort();
    clearTimeout(this.timer);
  }

  private async poll(): Promise<void> {
    try {
      const { bytes } = await fetchRestBody(this.options.net, this.options.origin, this.abort.signal);
      const hash = createHash('sha256').update(bytes).digest('hex');
      const first = this.last === undefined;
      const changed = !first && hash !== this.last;
      this.last = hash;
      if (first) this.options.onBaseline?.();
      if (changed) this.options.onDidChange();
    } catch (e) {
      if (this.abort.signal.aborted) return;
      this.options.log(`Live datasets: polling ${this.options.origin} failed: ${reasonOf(e)}`);
    }
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => void this.poll(), this.options.interval * 1000);
    this.timer.unref();
  }
}
