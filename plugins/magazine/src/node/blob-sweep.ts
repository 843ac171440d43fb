import type { BlobStore, StartupServices } from '@werkbank/sdk/node';

type DataSource = StartupServices['dataSource'];

/**
 * Minutes a blob stays after its last datum version went. An upload whose content already exists
 * reuses the stored blob and refers to it only when its transaction commits; the grace period
 * keeps such a blob from being swept in between.
 */
export const BLOB_GRACE_MINUTES = 60;

/** Deletes the blobs no datum version refers to any more (after the grace period); returns how many. */
export async function sweepBlobs(dataSource: DataSource, blobs: BlobStore, graceMinutes = BLOB_GRACE_MINUTES): Promise<number> {
  const due = (await dataSource.query(
    `SELECT c.hash, EXISTS (SELECT 1 FROM magazine_datum_version v WHERE v.blob = c.hash) AS used
     FROM magazine_blob_candidate c WHERE c.since <= now() - make_interval(mins => $1) ORDER BY c.hash LIMIT 1000`,
    [graceMinutes],
  )) as { hash: string; used: boolean }[];
  let removed = 0;
  for (const { hash, used } of due) {
    if (!used) {
      await blobs.delete(hash);
      removed++;
    }
    await dataSource.query(`DELETE FROM magazine_blob_candidate WHERE hash = $1 AND since <= now() - make_interval(mins => $2)`, [
      hash,
      graceMinutes,
    ]);
  }
  return removed;
}
