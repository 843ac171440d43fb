import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * pmtiles layers (decision 0062): the tile generation settings, the blob of the last built archive
 * and what the build wrote. A trigger releases the archive's blob (decision 0017) when a rebuild
 * replaces it or the layer is deleted; `tiles-blob-references.ts` keeps the current one.
 */
export class LayersTiles1796100000000 implements MigrationInterface {
  name = 'LayersTiles1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE layers_layer ADD COLUMN tile_settings jsonb NULL`);
    await q.query(`ALTER TABLE layers_layer ADD COLUMN tile_archive jsonb NULL`);
    await q.query(`ALTER TABLE layers_layer ADD COLUMN tiles_blob varchar(64) NULL`);
    await q.query(`CREATE INDEX layers_layer_tiles_blob ON layers_layer (tiles_blob) WHERE tiles_blob IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION layers_tiles_blob_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.tiles_blob IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.tiles_blob IS DISTINCT FROM OLD.tiles_blob) THEN
          PERFORM werkbank_blob_release(OLD.tiles_blob);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER layers_tiles_blob_release AFTER UPDATE OF tiles_blob OR DELETE ON layers_layer
      FOR EACH ROW EXECUTE FUNCTION layers_tiles_blob_release()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER layers_tiles_blob_release ON layers_layer`);
    await q.query(`DROP FUNCTION layers_tiles_blob_release()`);
    await q.query(`ALTER TABLE layers_layer DROP COLUMN tiles_blob`);
    await q.query(`ALTER TABLE layers_layer DROP COLUMN tile_archive`);
    await q.query(`ALTER TABLE layers_layer DROP COLUMN tile_settings`);
  }
}
