import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Blobs a removed datum version referred to become sweep candidates (a trigger catches every
 * removal, including cascades from a deleted depot); the sweep deletes those nobody refers to.
 */
export class MagazineBlobSweep1764100001000 implements MigrationInterface {
  name = 'MagazineBlobSweep1764100001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE magazine_blob_candidate (
        hash varchar(64) PRIMARY KEY,
        since timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE FUNCTION magazine_blob_candidate_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO magazine_blob_candidate (hash) VALUES (OLD.blob)
          ON CONFLICT (hash) DO UPDATE SET since = now();
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER magazine_version_blob_removed AFTER DELETE ON magazine_datum_version
      FOR EACH ROW WHEN (OLD.blob IS NOT NULL) EXECUTE FUNCTION magazine_blob_candidate_add()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER magazine_version_blob_removed ON magazine_datum_version`);
    await q.query(`DROP FUNCTION magazine_blob_candidate_add()`);
    await q.query(`DROP TABLE magazine_blob_candidate`);
  }
}
