import { returnedRows, type BlobStore, type EntityManager, type StartupServices } from '@werkbank/sdk/node';

type DataSource = StartupServices['dataSource'];

/**
 * Minutes a blob stays after its last datum version went. An upload whose content already exists
 * reuses the stored blob and refers to it only when its transaction commits; the grace period
 * keeps such a blob from being swept in between.
 */
export const BLOB_GRACE_MINUTES = 60;

/**
 * Deletes the blobs no datum version refers to any more (after the grace period); returns how
 * many. Each candidate is settled in its own transaction that holds its row, so an upload reusing
 * the blob at the same moment (uploaded-file.ts claims the row) either wins or notices the loss.
 */
export async function sweepBlobs(dataSource: DataSource, blobs: BlobStore, graceMinutes = BLOB_GRACE_MINUTES): Promise<number> {
  const due = (await dataSource.query(
    `SELECT hash FROM magazine_blob_candidate WHERE since <= now() - make_interval(mins => $1) ORDER BY hash LIMIT 1000`,
    [graceMinutes],
  )) as { hash: string }[];
  let removed = 0;
  for (const { hash } of due) {
    await dataSource.transaction(async (m) => {
      const claimed = returnedRows(
        await m.query(
          `DELETE FROM magazine_blob_candidate WHERE hash = $1 AND since <= now() - make_interval(mins => $2) RETURNING hash`,
          [hash, graceMinutes],
        ),
      );
      if (!claimed.length) return;
      const [{ used }] = (await m.query(`SELECT EXISTS (SELECT 1 FROM magazine_datum_version WHERE blob = $1) AS used`, [
        hash,
      ])) as {
        used: boolean;
      }[];
      if (used) return;
      await blobs.delete(hash);
      removed++;
    });
  }
  return removed;
}

/** Makes a blob a sweep candidate (again), e.g. one an upload stored but no datum took. */
export async function markBlobCandidate(m: EntityManager, hash: string): Promise<void> {
  await m.query(`INSERT INTO magazine_blob_candidate (hash) VALUES ($1) ON CONFLICT (hash) DO UPDATE SET since = now()`, [hash]);
}
