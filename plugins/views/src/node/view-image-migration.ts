import { blobColumnTriggers, type MigrationInterface, type QueryRunner } from '@werkbank/sdk/node';

/** The image_blob column's blob is released when it changes or the row goes. */
const VIEWS_IMAGE_TRIGGERS = blobColumnTriggers('views_view', 'image_blob', 'views_image');

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
    for (const sql of VIEWS_IMAGE_TRIGGERS.up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of VIEWS_IMAGE_TRIGGERS.down) await q.query(sql);
    await q.query(`ALTER TABLE views_view DROP COLUMN image_blob, DROP COLUMN image_size, DROP COLUMN image_mime`);
  }
}
