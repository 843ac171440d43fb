import { Readable } from 'node:stream';
import { BlobStore, Database, inject, injectable, Logger, type DataSource } from '@werkbank/sdk/node';
import type { Publication } from './published-layers';

/** A tile's place: tile set (service, matrix set and format, e.g. `wmts/WebMercatorQuad/png`), matrix level, row, column. */
export interface TileKey {
  tileset: string;
  z: number;
  y: number;
  x: number;
}

/** A tile as served: its bytes (null: an empty tile); `cached` when they came from the cache. */
export interface CachedTile {
  bytes: Buffer | null;
  cached: boolean;
}

/** Largest tile the cache stores (bytes); larger ones are served but made again on every request. */
const MAX_CACHED_BYTES = 64 * 1024 ** 2;
/** Bytes of recently served tiles each process keeps in memory, in front of the table. */
const MEMORY_BYTES = 32 * 1024 ** 2;
/** Largest tile kept in memory. */
const MEMORY_TILE_BYTES = 1024 ** 2;
/** Tiles written by one statement. */
const ROWS_PER_WRITE = 100;

/** A tile waiting to be recorded. */
interface PendingTile {
  publication: string;
  layerId: number;
  at: TileKey;
  bytes: Buffer | null;
}

/**
 * The services' tile cache (decisions 0083, 0085): every tiled service's tiles (WMTS images, OGC API
 * vector tiles, mapproxy images, metalayer composites), kept per publication key and tile set. A row
 * of `services_tile_cache` per tile holds a small tile's bytes itself (up to `inlineBytes`), a larger
 * one's blob in the blob store, or neither for an empty tile; the most recently used tiles are also
 * kept in memory. The key names every moment served, so an approval gives new keys and needs no
 * invalidation; the first tile of a layer recorded under a new key in this process deletes the rows
 * of the layer's other keys (their blobs go to the blob sweep).
 *
 * A new tile is answered before it is recorded: the rows are written after the answer, many in one
 * statement, so a cold tile costs its caller one cache lookup and the making, not the write.
 */
@injectable()
export class TileCache {
  @inject(Database) protected readonly dataSource!: DataSource;
  @inject(BlobStore) protected readonly blobs!: BlobStore;
  @inject(Logger) protected readonly log!: Logger;

  /** Tiles up to this many bytes are kept in their row, larger ones in the blob store. */
  inlineBytes = 512 * 1024;

  /** The key whose older siblings this process last deleted, by layer id. */
  protected readonly pruned = new Map<number, string>();
  /** Recently served tiles by publication key and tile (insertion order is use order); null: empty. */
  protected readonly memory = new Map<string, Buffer | null>();
  protected memoryBytes = 0;
  /** Tiles made but not yet recorded, in the order they were made. */
  protected pending: PendingTile[] = [];
  /** The write under way, if any. */
  protected writing: Promise<void> | undefined;

  /**
   * The tile from the cache, or made by `make` and recorded (`store` false — a draft preview — makes it
   * without reading or writing the cache).
   */
  async tile(publication: Publication, at: TileKey, make: () => Promise<Buffer | null>, store = true): Promise<CachedTile> {
    // Drafts (store false) and frozen views (decision 0086: their pins would take turns with the live
    // publication in the layer's cache) are made on each request.
    if (!store || publication.frozenView !== undefined) return { bytes: await make(), cached: false };
    const hit = await this.cached(publication.key, at);
    if (hit !== undefined) return { bytes: hit, cached: true };
    const bytes = await make();
    this.remember(this.memoryKey(publication.key, at), bytes);
    if (!bytes || bytes.length <= MAX_CACHED_BYTES) {
      this.pending.push({ publication: publication.key, layerId: publication.layer.id, at, bytes });
      this.writing ??= this.write();
    }
    return { bytes, cached: false };
  }

  /** Resolves when the tiles made so far are recorded (tests and benches wait for it). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
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
      `SELECT blob, bytes FROM services_tile_cache WHERE publication = $1 AND tileset = $2 AND z = $3 AND y = $4 AND x = $5`,
      [key, at.tileset, at.z, at.y, at.x],
    )) as { blob: string | null; bytes: Buffer | Uint8Array | null }[];
    if (!rows.length) return undefined;
    let bytes: Buffer | null = null;
    if (rows[0].bytes !== null) bytes = Buffer.from(rows[0].bytes.buffer, rows[0].bytes.byteOffset, rows[0].bytes.byteLength);
    else if (rows[0].blob !== null)
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of this.blobs.open(rows[0].blob)) chunks.push(chunk as Buffer);
        bytes = Buffer.concat(chunks);
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOENT') throw e;
        return undefined;
      }
    this.remember(name, bytes);
    return bytes;
  }

  private memoryKey(key: string, { tileset, z, y, x }: TileKey): string {
    return `${key}|${tileset}|${z}|${y}|${x}`;
  }

  /** Keeps a tile in memory as the most recently used, forgetting the least recently used beyond MEMORY_BYTES. */
  private remember(name: string, bytes: Buffer | null): void {
    const old = this.memory.get(name);
    if (old !== undefined) {
      this.memory.delete(name);
      this.memoryBytes -= old?.length ?? 0;
    }
    if (bytes && bytes.length > MEMORY_TILE_BYTES) return;
    this.memory.set(name, bytes);
    this.memoryBytes += bytes?.length ?? 0;
    for (const [n, b] of this.memory) {
      if (this.memoryBytes <= MEMORY_BYTES) break;
      this.memory.delete(n);
      this.memoryBytes -= b?.length ?? 0;
    }
  }

  /** Records the pending tiles until none is left; a failure is logged (the tiles are made again when asked). */
  private async write(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, ROWS_PER_WRITE);
        await this.record(batch).catch((e: Error) =>
          this.log.log(`Recording ${batch.length} tiles in the tile cache failed: ${e.message}`),
        );
      }
    } finally {
      this.writing = undefined;
    }
  }

  /**
   * Writes the rows of `batch` in one statement (large tiles' bytes put in the blob store first,
   * outside any transaction, as the blob store asks); a tile another process recorded meanwhile stays
   * as it is. The first tile of a layer under a new key deletes the layer's rows of other keys.
   */
  protected async record(batch: PendingTile[]): Promise<void> {
    for (const { layerId, publication } of batch) {
      if (this.pruned.get(layerId) === publication) continue;
      await this.dataSource.query(`DELETE FROM services_tile_cache WHERE layer_id = $1 AND publication <> $2`, [
        layerId,
        publication,
      ]);
      const prefix = `${publication}|`;
      for (const [name, bytes] of this.memory)
        if (name.startsWith(`${layerId}.`) && !name.startsWith(prefix)) {
          this.memory.delete(name);
          this.memoryBytes -= bytes?.length ?? 0;
        }
      this.pruned.set(layerId, publication);
    }
    const params: unknown[] = [];
    const rows: string[] = [];
    for (const { publication, layerId, at, bytes } of batch) {
      let blob: string | null = null;
      let inline: Buffer | null = null;
      if (bytes && bytes.length > this.inlineBytes)
        blob = (await this.blobs.put(Readable.from([bytes]), { maxBytes: MAX_CACHED_BYTES })).hash;
      else inline = bytes;
      const n = params.push(publication, at.tileset, at.z, at.y, at.x, layerId, blob, inline);
      rows.push(`($${n - 7}, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::bytea)`);
    }
    await this.dataSource.query(
      `INSERT INTO services_tile_cache (publication, tileset, z, y, x, layer_id, blob, bytes) VALUES ${rows.join(', ')}
       ON CONFLICT DO NOTHING`,
      params,
    );
  }
}
