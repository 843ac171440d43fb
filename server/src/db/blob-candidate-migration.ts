import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The blob sweep's candidates (decision 0017): blobs that may no longer be used, with the time
 * they became one. `werkbank_blob_release(hash)` makes a blob a candidate (again); plugins call it
 * when they drop a reference, typically from a trigger, and the blob store calls it for every put.
 */
export class BlobCandidates1764400000000 implements MigrationInterface {
  name = 'BlobCandidates1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE werkbank_blob_candidate (
        hash varchar(64) PRIMARY KEY,
        since timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE FUNCTION werkbank_blob_release(blob varchar) RETURNS void LANGUAGE sql AS $$
        INSERT INTO werkbank_blob_candidate (hash) VALUES (blob) ON CONFLICT (hash) DO UPDATE SET since = now()
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION werkbank_blob_release(varchar)`);
    await q.query(`DROP TABLE werkbank_blob_candidate`);
  }
}
