import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/** The blob of a frame file datum: the sha256 in its `download_url` (frame-file-routes.ts). */
const BLOB_OF_ITEM = `substring(e->>'download_url' from '^/api/v1/frame/[0-9]+/file/([0-9a-f]{64})/download/$')`;

/**
 * Which blobs stored frame content holds (decision 0017), for the server's blob sweep: a trigger
 * records the blobs of the file datums of every new content row, and a row's entries go with it
 * (sweepContent in frame-content.ts removes content no frame and no node run refers to), releasing
 * their blobs.
 */
export class SwitchboardContentBlobs1764400002000 implements MigrationInterface {
  name = 'SwitchboardContentBlobs1764400002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE switchboard_content_blob (
        blob varchar(64) NOT NULL,
        content_hash char(64) NOT NULL REFERENCES switchboard_content(hash) ON DELETE CASCADE,
        PRIMARY KEY (blob, content_hash)
      )`);
    await q.query(`CREATE INDEX switchboard_content_blob_content ON switchboard_content_blob (content_hash)`);
    await q.query(`
      CREATE FUNCTION switchboard_content_blob_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO switchboard_content_blob (blob, content_hash)
        SELECT DISTINCT x.blob, NEW.hash FROM (SELECT ${BLOB_OF_ITEM} AS blob FROM jsonb_array_elements(NEW.items) e) x
         WHERE x.blob IS NOT NULL;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER switchboard_content_blobs AFTER INSERT ON switchboard_content
      FOR EACH ROW WHEN (NEW.items @? '$[*].download_url') EXECUTE FUNCTION switchboard_content_blob_add()`);
    await q.query(`
      CREATE FUNCTION switchboard_content_blob_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.blob);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER switchboard_content_blob_removed AFTER DELETE ON switchboard_content_blob
      FOR EACH ROW EXECUTE FUNCTION switchboard_content_blob_release()`);
    await q.query(`
      INSERT INTO switchboard_content_blob (blob, content_hash)
      SELECT DISTINCT x.blob, x.hash FROM (SELECT c.hash, ${BLOB_OF_ITEM} AS blob FROM switchboard_content c, jsonb_array_elements(c.items) e) x
       WHERE x.blob IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER switchboard_content_blobs ON switchboard_content`);
    await q.query(`DROP FUNCTION switchboard_content_blob_add()`);
    await q.query(`DROP TABLE switchboard_content_blob`);
    await q.query(`DROP FUNCTION switchboard_content_blob_release()`);
  }
}
