import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * The uploaded preview image of a view (decision 0092): its blob's sha256, size and type. When a
 * view lets go of an image blob (replaced, removed, its `image` set to another address, or the view
 * deleted) a trigger releases it to the server's blob sweep (decision 0017);
 * view-image-blob-references.ts answers which blobs views still use.
 */
export class ViewsImage1797200000004 implements MigrationInterface {
  name = 'ViewsImage1797200000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE views_view ADD COLUMN image_blob varchar(64) NULL, ADD COLUMN image_size integer NOT NULL DEFAULT 0,
         ADD COLUMN image_mime varchar(40) NOT NULL DEFAULT ''`,
    );
    await q.query(`CREATE INDEX views_view_image_blob ON views_view (image_blob) WHERE image_blob IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION views_image_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.image_blob);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER views_image_replaced AFTER UPDATE OF image_blob ON views_view
      FOR EACH ROW WHEN (OLD.image_blob IS NOT NULL AND OLD.image_blob IS DISTINCT FROM NEW.image_blob)
      EXECUTE FUNCTION views_image_release()`);
    await q.query(`
      CREATE TRIGGER views_image_removed AFTER DELETE ON views_view
      FOR EACH ROW WHEN (OLD.image_blob IS NOT NULL) EXECUTE FUNCTION views_image_release()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER views_image_removed ON views_view`);
    await q.query(`DROP TRIGGER views_image_replaced ON views_view`);
    await q.query(`DROP FUNCTION views_image_release()`);
    await q.query(`ALTER TABLE views_view DROP COLUMN image_blob, DROP COLUMN image_size, DROP COLUMN image_mime`);
  }
}
