import { Readable } from 'node:stream';
import { BlobStore, Database, inject, injectable, type DataSource } from '@werkbank/sdk/node';
import type { Publication } from './published-layers';

/** A tile's place: tile set (service, matrix set and format, e.g. `wmts/WebMercatorQuad/png`), matrix level, row, column. */
export interface TileKey {
  tileset: string;
  z: number;
  y: number;
  x: number;
}

/** Largest tile the cache stores (bytes); larger ones are served but made again on every request. */
const MAX_CACHED_BYTES = 16 * 1024 ** 2;

/** Tiles kept in memory per process (the hottest; the blob store holds every one). */
const MEMORY_TILES = 2048;

/**
 * The services' tile cache (decision 0083): tiles of a publication kept per publication key — the
 * bytes in the blob store, a row of `services_tile_cache` per tile (blob null: an empty tile) — and
 * the most recently used in memory. The key names every moment served, so an approval gives new keys
 * and needs no invalidation; the first tile of a layer stored under a new key in this process deletes
 * the rows of the layer's other keys (their blobs go to the blob sweep).
 */
@injectable()
export class TileCache {
  @inject(Database) protected readonly dataSource!: DataSource;
  @inject(BlobStore) protected readonly blobs!: BlobStore;

  /** The key whose older siblings this process last deleted, by layer id. */
  protected readonly pruned = new Map<number, string>();
  /** Recently served tiles by publication key and tile (insertion order is use order). */
  protected readonly memory = new Map<string, Buffer | null>();

  /**
   * The tile from the cache, or made by `make` and stored (`store` false — a draft preview — makes it
   * without reading or writing the cache). `cached` tells where it came from; bytes null: empty tile.
   */
  async tile(
    publication: Publication,
    at: TileKey,
    make: () => Promise<Buffer | null>,
    store = true,
  ): Promise<{ bytes: Buffer | null; cached: boolean }> {
    if (!store) return { bytes: await make(), cached: false };
    const hit = await this.cached(publication.key, at);
    if (hit !== undefined) return { bytes: hit, cached: true };
    const bytes = await make();
    await this.store(publication, at, bytes);
    return { bytes, cached: false };
  }

  private memoryKey(key: string, { tileset, z, y, x }: TileKey): string {
    return `${key}|${tileset}|${z}|${y}|${x}`;
  }

  private remember(name: string, bytes: Buffer | null): void {
    this.memory.delete(name);
    this.memory.set(name, bytes);
    if (this.memory.size > MEMORY_TILES) this.memory.delete(this.memory.keys().next().value as string);
  }

  /** The cached tile (null: empty), or undefined when it is not cached (or its blob is gone). */
  async cached(key: string, at: TileKey): Promise<Buffer | null | undefined> {
    const name = this.memoryKey(key, at);
    const mem = this.memory.get(name);
    if (mem !== undefined) {
      this.remember(name, mem);
      return mem;
    }
    const rows = (await this.dataSource.query(
      `SELECT blob FROM services_tile_cache WHERE publication = $1 AND tileset = $2 AND z = $3 AND y = $4 AND x = $5`,
      [key, at.tileset, at.z, at.y, at.x],
    )) as { blob: string | null }[];
    if (!rows.length) return undefined;
    if (rows[0].blob === null) {
      this.remember(name, null);
      return null;
    }
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of this.blobs.open(rows[0].blob)) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      this.remember(name, bytes);
      return bytes;
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
      return undefined;
    }
  }

  /**
   * Records the tile under the publication's key (its bytes put first, outside any transaction, as
   * the blob store asks); a tile another request recorded meanwhile stays as it is.
   */
  protected async store(publication: Publication, at: TileKey, bytes: Buffer | null): Promise<void> {
    if (bytes && bytes.length > MAX_CACHED_BYTES) return;
    const layerId = publication.layer.id;
    if (this.pruned.get(layerId) !== publication.key) {
      await this.dataSource.query(`DELETE FROM services_tile_cache WHERE layer_id = $1 AND publication <> $2`, [
        layerId,
        publication.key,
      ]);
      for (const name of [...this.memory.keys()])
        if (name.startsWith(`${layerId}.`) && !name.startsWith(`${publication.key}|`)) this.memory.delete(name);
      this.pruned.set(layerId, publication.key);
    }
    const blob = bytes ? (await this.blobs.put(Readable.from([bytes]), { maxBytes: MAX_CACHED_BYTES })).hash : null;
    await this.dataSource.query(
      `INSERT INTO services_tile_cache (publication, tileset, z, y, x, layer_id, blob) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING`,
      [publication.key, at.tileset, at.z, at.y, at.x, layerId, blob],
    );
    this.remember(this.memoryKey(publication.key, at), bytes);
  }
}
