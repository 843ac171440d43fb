import { Readable } from 'node:stream';
import {
  BlobStore,
  Database,
  inject,
  injectable,
  type BlobReferenceContribution,
  type DataSource,
  type EntityContribution,
  type MigrationInterface,
  type QueryRunner,
} from '@werkbank/sdk/node';
import type { Publication } from './published-layers';

/** Largest image the cache keeps (bytes); larger ones are served but fetched again. */
const MAX_CACHED_BYTES = 16 * 1024 ** 2;

/** A cached image: its bytes and media type. */
export interface CachedImage {
  bytes: Buffer;
  type: string;
}

/**
 * The image cache of mapproxy layers (decision 0083, "External maps"): one row per image fetched
 * for a publication (`publication` is its key, which names the layer's revision and every served
 * moment) and a normalized request (`request`, a hash), with the blob of its bytes. The first image
 * of a layer stored under a new key in this process deletes the rows of the layer's other keys; a
 * trigger then releases their blobs to the server's blob sweep (decision 0017), and
 * `externalMapBlobReferences` keeps the blobs of the remaining rows.
 */
@injectable()
export class ExternalMapCache {
  @inject(Database) protected readonly dataSource!: DataSource;
  @inject(BlobStore) protected readonly blobs!: BlobStore;

  /** The key whose older siblings this process last deleted, by layer id. */
  protected readonly pruned = new Map<number, string>();

  /** The cached image, or undefined when there is none (or its blob is gone). */
  async get(publication: Publication, request: string): Promise<CachedImage | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT blob, mime FROM services_map_cache WHERE publication = $1 AND request = $2`,
      [publication.key, request],
    )) as { blob: string; mime: string }[];
    if (!rows.length) return undefined;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of this.blobs.open(rows[0].blob)) chunks.push(chunk as Buffer);
      return { bytes: Buffer.concat(chunks), type: rows[0].mime };
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
      return undefined;
    }
  }

  /**
   * Records the image under the publication's key (its bytes put first, outside any transaction, as
   * the blob store asks); an image another request recorded meanwhile stays as it is.
   */
  async put(publication: Publication, request: string, image: CachedImage): Promise<void> {
    if (image.bytes.length > MAX_CACHED_BYTES) return;
    const layerId = publication.layer.id;
    if (this.pruned.get(layerId) !== publication.key) {
      await this.dataSource.query(`DELETE FROM services_map_cache WHERE layer_id = $1 AND publication <> $2`, [
        layerId,
        publication.key,
      ]);
      this.pruned.set(layerId, publication.key);
    }
    const { hash } = await this.blobs.put(Readable.from([image.bytes]), { maxBytes: MAX_CACHED_BYTES });
    await this.dataSource.query(
      `INSERT INTO services_map_cache (publication, request, layer_id, blob, mime) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [publication.key, request, layerId, hash, image.type],
    );
  }
}

/** The table of the mapproxy image cache; deleting a row releases its blob to the sweep. */
export class ServicesMapCache1797180000000 implements MigrationInterface {
  name = 'ServicesMapCache1797180000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE services_map_cache (
        publication text NOT NULL,
        request varchar(64) NOT NULL,
        layer_id integer NOT NULL,
        blob varchar(64) NOT NULL,
        mime varchar(40) NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (publication, request)
      )`);
    await q.query(`CREATE INDEX services_map_cache_layer ON services_map_cache (layer_id, publication)`);
    await q.query(`CREATE INDEX services_map_cache_blob ON services_map_cache (blob)`);
    await q.query(`
      CREATE FUNCTION services_map_cache_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.blob);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER services_map_cache_removed AFTER DELETE ON services_map_cache
      FOR EACH ROW EXECUTE FUNCTION services_map_cache_release()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER services_map_cache_removed ON services_map_cache`);
    await q.query(`DROP FUNCTION services_map_cache_release()`);
    await q.query(`DROP TABLE services_map_cache`);
  }
}

/** The services plugin's table of the mapproxy image cache. */
export const externalMapEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({ id: 'services.map-cache', entities: [], migrations: [ServicesMapCache1797180000000] }),
};

/** The services' part in the server's blob sweep (decision 0017): a blob is used while a cached map image is it. */
export const externalMapBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'services.map-cache',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT blob FROM services_map_cache WHERE blob = ANY($1)`, [hashes])) as {
          blob: string;
        }[];
        return rows.map((r) => r.blob);
      },
    }),
};
