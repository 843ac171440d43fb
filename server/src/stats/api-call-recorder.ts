import type { DataSource } from 'typeorm';
import { DDSketch } from './dd-sketch';

/** The sketches' relative accuracy: p50 and p95 are within 1 % of the true values (decision 0044). */
export const API_STATS_ACCURACY = 0.01;

/** One series of the statistics (spec 002 §3): month, path template, status code and user. */
export interface ApiCallKey {
  /** `YYYY-MM` in UTC. */
  month: string;
  /** The matched route template, e.g. `/api/v1/layer/{id}/`. */
  path: string;
  status: number;
  /** 0 for calls without a signed-in user. */
  userId: number;
}

interface Series extends ApiCallKey {
  sketch: DDSketch;
}

/** Rows per INSERT when flushing (each column goes as one array parameter). */
const FLUSH_BATCH = 5000;

/**
 * The per-process API call histograms (issue 19): `record` only touches memory; `flush` adds the
 * bucket counts of everything recorded since the last flush to `werkbank_api_call_bucket` in one
 * transaction, so processes merge exactly (DDSketch buckets add). A failed flush keeps its counts
 * for the next one.
 */
export class ApiCallRecorder {
  private series = new Map<string, Series>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** Counts one call of `durationMs`. Cheap: a map lookup and a bucket increment. */
  record(key: ApiCallKey, durationMs: number): void {
    const id = `${key.month}\t${key.path}\t${key.status}\t${key.userId}`;
    let s = this.series.get(id);
    if (!s) {
      s = { ...key, sketch: new DDSketch(API_STATS_ACCURACY) };
      this.series.set(id, s);
    }
    s.sketch.add(durationMs);
  }

  /** Series recorded and not yet flushed. */
  get pending(): number {
    return this.series.size;
  }

  /** Flushes every `seconds` until stop(); the timer does not keep the process alive. */
  start(seconds: number): void {
    this.timer = setInterval(() => {
      this.flush().catch((e: Error) => this.log(`API statistics flush failed: ${e.message}`));
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and flushes what is left (server shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Adds the counts recorded so far to the table; flushes run one after another. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    if (!this.series.size) return;
    const taken = this.series;
    this.series = new Map();
    const rows: Array<[string, string, number, number, number, number]> = [];
    for (const s of taken.values())
      for (const [bucket, count] of s.sketch.buckets()) rows.push([s.month, s.path, s.status, s.userId, bucket, count]);
    try {
      // One transaction: a failed flush writes nothing, so putting its counts back stays exact.
      await this.db.transaction(async (m) => {
        for (let i = 0; i < rows.length; i += FLUSH_BATCH) {
          const batch = rows.slice(i, i + FLUSH_BATCH);
          const column = (n: number) => batch.map((r) => r[n]);
          await m.query(
            `INSERT INTO werkbank_api_call_bucket (month, path, status_code, user_id, bucket, count)
             SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::bigint[])
             ON CONFLICT (user_id, month, path, status_code, bucket)
             DO UPDATE SET count = werkbank_api_call_bucket.count + EXCLUDED.count`,
            [column(0), column(1), column(2), column(3), column(4), column(5)],
          );
        }
      });
    } catch (e) {
      for (const s of taken.values()) this.putBack(s);
      throw e;
    }
  }

  private putBack(s: Series): void {
    const id = `${s.month}\t${s.path}\t${s.status}\t${s.userId}`;
    const now = this.series.get(id);
    if (now) now.sketch.merge(s.sketch);
    else this.series.set(id, s);
  }
}
