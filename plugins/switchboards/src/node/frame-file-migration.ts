import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Which blobs were uploaded into which frame (frame-file-records.ts): the server's own record, so a
 * file datum written by hand cannot make a frame serve a blob it never received. Type and size are
 * the blob store's. Rows go with their frame. Frame files uploaded before this table existed are
 * not recorded (a hand-made datum cannot be told from an upload): they are served again once
 * uploaded again.
 */
export class SwitchboardFrameFiles1764400003000 implements MigrationInterface {
  name = 'SwitchboardFrameFiles1764400003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE switchboard_frame_file (
        frame_id integer NOT NULL REFERENCES switchboard_frame(id) ON DELETE CASCADE,
        hash varchar(64) NOT NULL,
        mime_type text NOT NULL,
        size bigint NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (frame_id, hash)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE switchboard_frame_file`);
  }
}
