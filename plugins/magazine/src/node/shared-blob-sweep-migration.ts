import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * The Magazine hands its blob candidates to the server's one sweep (decision 0017): removed
 * versions release their blob with `werkbank_blob_release`, and the pending candidates move over.
 */
export class MagazineSharedBlobSweep1764400001000 implements MigrationInterface {
  name = 'MagazineSharedBlobSweep1764400001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO werkbank_blob_candidate (hash, since) SELECT hash, since FROM magazine_blob_candidate
      ON CONFLICT (hash) DO UPDATE SET since = greatest(werkbank_blob_candidate.since, excluded.since)`);
    await q.query(`
      CREATE OR REPLACE FUNCTION magazine_blob_candidate_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.blob);
        RETURN NULL;
      END $$`);
    await q.query(`DROP TABLE magazine_blob_candidate`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE magazine_blob_candidate (
        hash varchar(64) PRIMARY KEY,
        since timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO magazine_blob_candidate (hash, since) SELECT hash, since FROM werkbank_blob_candidate`);
    await q.query(`
      CREATE OR REPLACE FUNCTION magazine_blob_candidate_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO magazine_blob_candidate (hash) VALUES (OLD.blob)
          ON CONFLICT (hash) DO UPDATE SET since = now();
        RETURN NULL;
      END $$`);
  }
}
