import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * The uploaded legend of a layer (decision 0063): its blob's sha256 and size. When a layer lets go
 * of a legend blob (replaced, removed, or the layer deleted) a trigger releases it to the server's
 * blob sweep (decision 0017); legend-blob-references.ts answers which blobs layers still use.
 */
export class LayersLegend1796200000000 implements MigrationInterface {
  name = 'LayersLegend1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE layers_layer ADD COLUMN legend_blob varchar(64) NULL, ADD COLUMN legend_size integer NOT NULL DEFAULT 0`,
    );
    await q.query(`CREATE INDEX layers_layer_legend_blob ON layers_layer (legend_blob) WHERE legend_blob IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION layers_legend_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.legend_blob);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER layers_legend_replaced AFTER UPDATE OF legend_blob ON layers_layer
      FOR EACH ROW WHEN (OLD.legend_blob IS NOT NULL AND OLD.legend_blob IS DISTINCT FROM NEW.legend_blob)
      EXECUTE FUNCTION layers_legend_release()`);
    await q.query(`
      CREATE TRIGGER layers_legend_removed AFTER DELETE ON layers_layer
      FOR EACH ROW WHEN (OLD.legend_blob IS NOT NULL) EXECUTE FUNCTION layers_legend_release()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER layers_legend_removed ON layers_layer`);
    await q.query(`DROP TRIGGER layers_legend_replaced ON layers_layer`);
    await q.query(`DROP FUNCTION layers_legend_release()`);
    await q.query(`ALTER TABLE layers_layer DROP COLUMN legend_blob, DROP COLUMN legend_size`);
  }
}
