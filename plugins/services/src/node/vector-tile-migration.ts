import type { EntityContribution, MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * The vector tile cache of the OGC API – Tiles service (decision 0083): one row per tile cut for a
 * publication (`publication` is its key, which names every served moment), with the blob of its
 * bytes or none for an empty tile. Rows of a layer's older publications are deleted when a newer
 * one is served; a trigger then releases their blobs to the server's blob sweep (decision 0017),
 * and vector-tile-blob-references.ts keeps the blobs of the remaining rows.
 */
export class ServicesVectorTiles1797170000000 implements MigrationInterface {
  name = 'ServicesVectorTiles1797170000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE services_vector_tile (
        publication text NOT NULL,
        z smallint NOT NULL,
        x integer NOT NULL,
        y integer NOT NULL,
        layer_id integer NOT NULL,
        blob varchar(64) NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (publication, z, x, y)
      )`);
    await q.query(`CREATE INDEX services_vector_tile_layer ON services_vector_tile (layer_id, publication)`);
    await q.query(`CREATE INDEX services_vector_tile_blob ON services_vector_tile (blob) WHERE blob IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION services_vector_tile_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.blob);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER services_vector_tile_removed AFTER DELETE ON services_vector_tile
      FOR EACH ROW WHEN (OLD.blob IS NOT NULL) EXECUTE FUNCTION services_vector_tile_release()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER services_vector_tile_removed ON services_vector_tile`);
    await q.query(`DROP FUNCTION services_vector_tile_release()`);
    await q.query(`DROP TABLE services_vector_tile`);
  }
}

/** The services plugin's tables: the vector tile cache. */
export const vectorTileEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({ id: 'services.vector-tiles', entities: [], migrations: [ServicesVectorTiles1797170000000] }),
};
