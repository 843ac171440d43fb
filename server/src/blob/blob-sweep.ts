import type { DataSource, EntityManager } from 'typeorm';
import { returnedRows, type BlobReferenceSource, type BlobStore } from '@werkbank/sdk/node';

/**
 * Minutes a candidate waits before the sweep looks at it. A put holds its blob this long, so the
 * transaction that records a reference to fresh bytes (or to bytes that were already stored)
 * commits before the sweep could take them; a dropped reference waits as long.
 */
export const BLOB_GRACE_MINUTES = 60;
const HOUR_MS = 3600 * 1000;
/** Candidates settled per transaction. */
const BATCH = 100;

/**
 * Makes a blob a sweep candidate for the next grace period, outside any transaction (a rollback
 * must not undo it). Waits while a sweep settles the same blob, so afterwards the caller sees
 * whether the bytes are still there. FileBlobStore calls it for every put (the `hold` option).
 */
export async function holdBlob(m: EntityManager, hash: string): Promise<void> {
  await m.query(`SELECT werkbank_blob_release($1)`, [hash]);
}

/**
 * The one clean-up of the blob store (decision 0017): deletes the candidates older than the grace
 * period that no BlobReferenceSource names. Several processes may sweep at once.
 */
export class BlobSweep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly blobs: BlobStore,
    private readonly sources: { all(): BlobReferenceSource[] },
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Sweeps all due candidates, a batch per transaction; returns how many blobs were deleted. A
   * source that throws rolls its batch back (nothing of it is deleted) and rejects the sweep.
   */
  async sweep(graceMinutes = BLOB_GRACE_MINUTES): Promise<number> {
    let removed = 0;
    let after = '';
    for (;;) {
      const due = (await this.dataSource.query(
        `SELECT hash FROM werkbank_blob_candidate
          WHERE since <= now() - make_interval(mins => $1) AND hash > $2 ORDER BY hash LIMIT ${BATCH}`,
        [graceMinutes, after],
      )) as { hash: string }[];
      if (!due.length) return removed;
      after = due[due.length - 1].hash;
      const hashes = due.map((d) => d.hash);
      removed += await this.dataSource.transaction((m) => this.settle(m, hashes, graceMinutes));
    }
  }

  /**
   * Claims the candidates still due (rows another transaction holds are skipped, so the sweep
   * never waits on a lock and cannot deadlock), asks every source which of them it uses, and
   * deletes the rest. The claimed rows stay locked until the commit: a put of the same bytes
   * waits in holdBlob until then and stores them anew.
   */
  private async settle(m: EntityManager, hashes: string[], graceMinutes: number): Promise<number> {
    const claimed = returnedRows<{ hash: string }>(
      await m.query(
        `DELETE FROM werkbank_blob_candidate WHERE hash IN (
           SELECT hash FROM werkbank_blob_candidate
            WHERE hash = ANY($1) AND since <= now() - make_interval(mins => $2)
            FOR UPDATE SKIP LOCKED)
         RETURNING hash`,
        [hashes, graceMinutes],
      ),
    );
    const unused = new Set(claimed.map((c) => c.hash));
    for (const source of this.sources.all()) {
      if (!unused.size) break;
      for (const hash of await source.usedOf(m, [...unused])) unused.delete(hash);
    }
    for (const hash of unused) await this.blobs.delete(hash);
    return unused.size;
  }

  /** Sweeps now in the background and then hourly; logs what it removed and what failed. */
  start(): void {
    const run = () => {
      if (this.running) return;
      this.running = this.sweep()
        .then((n) => {
          if (n) this.log(`Blob store: removed ${n} files nothing refers to any more`);
        })
        .catch((e: Error) => this.log(`Blob store: sweep failed: ${e.message}`))
        .finally(() => (this.running = undefined));
    };
    run();
    this.timer = setInterval(run, HOUR_MS);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a running sweep (called before the database closes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
