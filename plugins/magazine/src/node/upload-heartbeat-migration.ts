import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Uploads in progress show they are alive (issue 14 item 28): `heartbeat` is renewed while the
 * file's bytes arrive, so a row left 'uploading' by a stopped process can be told from a slow one.
 */
export class MagazineUploadHeartbeat1764900001000 implements MigrationInterface {
  name = 'MagazineUploadHeartbeat1764900001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_upload_file ADD COLUMN heartbeat timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX magazine_upload_file_uploading ON magazine_upload_file (heartbeat) WHERE status = 'uploading'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX magazine_upload_file_uploading`);
    await q.query(`ALTER TABLE magazine_upload_file DROP COLUMN heartbeat`);
  }
}
