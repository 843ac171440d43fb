import type {
  BlobReferenceContribution,
  EntityContribution,
  MigrationInterface,
  QueryRunner,
  ResourceExtensionContribution,
} from '@werkbank/sdk/node';

/**
 * The first vector tile cache of the OGC API – Tiles service (decision 0083), replaced by
 * `services_tile_cache` (ServicesTileCacheInline1797190000000); kept so that migrations run in order: one row per tile cut for a
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

/**
 * The services' tile cache (decision 0083): one row per tile made for a publication (`publication`
 * is its key, which names every served moment) in a tile set (`tileset`, e.g.
 * `wmts/WebMercatorQuad/png`), with the blob of its bytes. Rows of a layer's older publications are
 * deleted when a newer one is served; a trigger then releases their blobs to the server's blob sweep
 * (decision 0017), and `tileCacheBlobReferences` keeps the blobs of the remaining rows. Any tiled
 * service (WMTS images, vector tiles) can share it with its own `tileset`.
 */
export class ServicesTileCache1797180000000 implements MigrationInterface {
  name = 'ServicesTileCache1797180000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE services_tile_cache (
        publication text NOT NULL,
        tileset text NOT NULL,
        z smallint NOT NULL,
        y integer NOT NULL,
        x integer NOT NULL,
        layer_id integer NOT NULL,
        blob varchar(64) NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (publication, tileset, z, y, x)
      )`);
    await q.query(`CREATE INDEX services_tile_cache_layer ON services_tile_cache (layer_id, publication)`);
    await q.query(`CREATE INDEX services_tile_cache_blob ON services_tile_cache (blob) WHERE blob IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION services_tile_cache_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.blob);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER services_tile_cache_removed AFTER DELETE ON services_tile_cache
      FOR EACH ROW WHEN (OLD.blob IS NOT NULL) EXECUTE FUNCTION services_tile_cache_release()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER services_tile_cache_removed ON services_tile_cache`);
    await q.query(`DROP FUNCTION services_tile_cache_release()`);
    await q.query(`DROP TABLE services_tile_cache`);
  }
}

/**
 * One tile cache for every tiled service (decision 0085): a small tile's bytes in its row (`bytes`),
 * a larger one's in the blob store (`blob`), neither for an empty tile. The vector tiles' own table
 * goes: its rows are deleted first (the trigger releases their blobs to the sweep), then the table.
 */
export class ServicesTileCacheInline1797190000000 implements MigrationInterface {
  name = 'ServicesTileCacheInline1797190000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE services_tile_cache ADD COLUMN bytes bytea NULL`);
    await q.query(`DELETE FROM services_vector_tile`);
    await q.query(`DROP TRIGGER services_vector_tile_removed ON services_vector_tile`);
    await q.query(`DROP FUNCTION services_vector_tile_release()`);
    await q.query(`DROP TABLE services_vector_tile`);
  }

  async down(q: QueryRunner): Promise<void> {
    await new ServicesVectorTiles1797170000000().up(q);
    await q.query(`DELETE FROM services_tile_cache WHERE bytes IS NOT NULL`);
    await q.query(`ALTER TABLE services_tile_cache DROP COLUMN bytes`);
  }
}

/** The services plugin's tables: the tile cache. */
export const tileCacheEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({
      id: 'services.tile-cache',
      entities: [],
      migrations: [ServicesVectorTiles1797170000000, ServicesTileCache1797180000000, ServicesTileCacheInline1797190000000],
    }),
};

/** The tile cache's part in the server's blob sweep (decision 0017): a blob is used while a cached tile is it. */
export const tileCacheBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'services.tile-cache',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT blob FROM services_tile_cache WHERE blob = ANY($1)`, [hashes])) as {
          blob: string;
        }[];
        return rows.map((r) => r.blob);
      },
    }),
};

/** A deleted layer's cached tiles go with it, in the deleting transaction (the trigger releases their blobs to the sweep). */
export const tileCacheOfDeletedLayers: ResourceExtensionContribution = {
  registerResourceExtensions: (registry) =>
    registry.add({
      id: 'services.tile-cache',
      onDelete: async (def, row, req) => {
        if (def.kind === 'layer') await req.manager.query(`DELETE FROM services_tile_cache WHERE layer_id = $1`, [row.id]);
      },
    }),
};
