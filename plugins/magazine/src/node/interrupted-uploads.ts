import { MagazineServices } from './magazine-services';

/**
 * Seconds after which a file row still 'uploading' whose heartbeat stopped belongs to a process
 * that is gone: a live upload renews its heartbeat at least every HEARTBEAT_SECONDS while bytes
 * arrive, and readMultipartUpload stops one that sends nothing for two minutes.
 */
export const UPLOAD_STALE_SECONDS = 300;
/** How often a running upload renews its row's heartbeat (at most). */
export const HEARTBEAT_SECONDS = 30;

/**
 * Marks file rows left 'uploading' by a stopped process as failed, with the reason in their
 * uploader's language (issue 14 item 28). `since` given: every such row whose heartbeat is not
 * later (at start on the embedded database, where no other process uploads); otherwise the rows
 * whose heartbeat is older than UPLOAD_STALE_SECONDS. Returns how many. Their partial files go
 * with the blob store's sweep of temporary files.
 */
export async function failInterruptedUploads(services: MagazineServices, since?: Date): Promise<number> {
  const cutoff = since ? `f.heartbeat <= $1` : `f.heartbeat < now() - make_interval(secs => $1)`;
  const param = since ?? UPLOAD_STALE_SECONDS;
  const rows = (await services.dataSource.query(
    `SELECT f.id, u.language FROM magazine_upload_file f
       JOIN magazine_upload up ON up.id = f.upload_id JOIN werkbank_user u ON u.id = up.user_id
      WHERE f.status = 'uploading' AND ${cutoff} ORDER BY f.id`,
    [param],
  )) as { id: number; language: string | null }[];
  for (const row of rows) {
    await services.dataSource.query(
      `UPDATE magazine_upload_file f SET status = 'failed', reason = $3 WHERE f.id = $2 AND f.status = 'uploading' AND ${cutoff}`,
      [param, row.id, services.translate(row.language ?? 'en', 'magazine:errors.upload_interrupted')],
    );
  }
  return rows.length;
}
