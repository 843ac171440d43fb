import { Readable } from 'node:stream';
import { BlobStore, Database, inject, injectable, Logger, WorkerPool, type DataSource } from '@werkbank/sdk/node';
import { layerServiceName } from '@werkbank/plugin-layers/api';
import { tileWindow, type TileAddress } from '../common/web-mercator-quad';
import { PublishedLayers, type Publication } from './published-layers';
import { cutVectorTile, TILE_BUFFER, TILE_EXTENT, type TileFeatureInput, type VectorTileInput } from './vector-tile-task';

const TASK = { module: new URL('./vector-tile-task.ts', import.meta.url).href, name: 'cutVectorTile' };

/** Largest tile the cache stores (bytes); larger ones are served but cut again on every request. */
const MAX_CACHED_BYTES = 64 * 1024 ** 2;
/** Bytes of recently served tiles this process keeps in memory, in front of the blob store. */
const MEMORY_BYTES = 32 * 1024 ** 2;
/**
 * Tiles of at most this many positions are cut on the main thread: cutting them takes less time than
 * handing them to the worker pool and back (about 0.3 ms of both threads' time and 1 ms of waiting).
 */
const IN_PROCESS_POSITIONS = 500;
/** Largest tile kept in memory. */
const MEMORY_TILE_BYTES = 1024 ** 2;

/** A tile as served: its bytes, none when no feature reaches it; `cached` when they came from the cache. */
export interface VectorTile {
  bytes?: Buffer;
  cached: boolean;
}

/**
 * Vector tiles of a publication (decision 0083): cut from the features whose extent meets the tile
 * and its buffer (the Magazine's spatial index through `PublishedLayers.features`), in the server's
 * worker pool, and cached per publication: the bytes in the blob store, a row of
 * `services_vector_tile` per tile (none for an empty one). A publication's key names every moment it
 * serves, so an approval gives new keys and needs no invalidation; the first tile of a layer served
 * under a new key in this process deletes the rows of the layer's other keys (their blobs go to the
 * blob sweep).
 */
@injectable()
export class VectorTileService {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(Database) protected readonly dataSource!: DataSource;
  @inject(BlobStore) protected readonly blobs!: BlobStore;
  @inject(WorkerPool) protected readonly pool!: WorkerPool;
  @inject(Logger) protected readonly log!: Logger;

  /** The key whose older siblings this process last deleted, by layer id. */
  protected readonly pruned = new Map<number, string>();
  /** Recently served tiles by publication key and address (least recently used first); null: empty. */
  protected readonly recent = new Map<string, Buffer | null>();
  protected recentBytes = 0;
  /** Cache writes under way. */
  protected readonly storing = new Set<Promise<unknown>>();

  /** Tile `at` of the publication; `cache` false (a draft preview) cuts it without reading or writing the cache. */
  async tile(publication: Publication, at: TileAddress, cache: boolean): Promise<VectorTile> {
    if (!cache) return { bytes: await this.cut(publication, at), cached: false };
    const id = `${publication.key}|${at.z}/${at.x}/${at.y}`;
    const kept = this.recent.get(id);
    if (kept !== undefined) {
      this.recent.delete(id);
      this.recent.set(id, kept);
      return { bytes: kept ?? undefined, cached: true };
    }
    let tile = await this.cached(publication.key, at);
    if (!tile) {
      tile = { bytes: await this.cut(publication, at), cached: false };
      // Recorded after the answer: the caller does not wait for the blob store and the row.
      const stored = this.store(publication, at, tile.bytes)
        .catch((e: Error) => this.log.log(`Caching vector tile ${id} failed: ${e.message}`))
        .finally(() => this.storing.delete(stored));
      this.storing.add(stored);
    }
    this.remember(id, tile.bytes);
    return tile;
  }

  /** Resolves when the tiles cut so far are recorded in the cache (tests and benches wait for it). */
  async settled(): Promise<void> {
    while (this.storing.size) await Promise.all([...this.storing]);
  }

  /** Keeps a tile in memory, forgetting the least recently used beyond MEMORY_BYTES. */
  protected remember(id: string, bytes: Buffer | undefined): void {
    if (bytes && bytes.length > MEMORY_TILE_BYTES) return;
    this.recent.set(id, bytes ?? null);
    this.recentBytes += bytes?.length ?? 0;
    for (const [old, b] of this.recent) {
      if (this.recentBytes <= MEMORY_BYTES) break;
      this.recent.delete(old);
      this.recentBytes -= b?.length ?? 0;
    }
  }

  /** The cached tile, or undefined when it is not cached (or its blob is gone). */
  protected async cached(key: string, { z, x, y }: TileAddress): Promise<VectorTile | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT blob FROM services_vector_tile WHERE publication = $1 AND z = $2 AND x = $3 AND y = $4`,
      [key, z, x, y],
    )) as { blob: string | null }[];
    if (!rows.length) return undefined;
    if (rows[0].blob === null) return { cached: true };
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of this.blobs.open(rows[0].blob)) chunks.push(chunk as Buffer);
      return { bytes: Buffer.concat(chunks), cached: true };
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
      return undefined;
    }
  }

  /** Cuts the tile from the features whose extent meets it or its buffer: in the worker pool unless they are few. */
  protected async cut(publication: Publication, at: TileAddress): Promise<Buffer | undefined> {
    const features: TileFeatureInput[] = [];
    let positions = 0;
    for await (const batch of this.published.features(publication, {
      window: tileWindow(at, TILE_BUFFER / TILE_EXTENT),
      // An MVT's keys are a table in order of first use; the order of a feature's properties means nothing there.
      keyOrder: false,
    }))
      for (const f of batch) {
        if (positions <= IN_PROCESS_POSITIONS) positions += positionsIn(f.geometry?.coordinates ?? f.geometry?.geometries);
        features.push({
          id: typeof f.id === 'number' && Number.isSafeInteger(f.id) && f.id >= 0 ? f.id : undefined,
          geometry: f.geometry as GeoJSON.Geometry | null,
          properties: f.properties,
        });
      }
    if (!features.length) return undefined;
    const input: VectorTileInput = { ...at, layerName: layerServiceName(publication.layer), features };
    // A few features cut here in a fraction of a millisecond, less than the worker round trip costs.
    const out =
      positions <= IN_PROCESS_POSITIONS
        ? cutVectorTile(input)
        : await this.pool.run<VectorTileInput, Uint8Array | undefined>(TASK, input);
    return out ? Buffer.from(out.buffer, out.byteOffset, out.byteLength) : undefined;
  }

  /**
   * Records the tile under the publication's key (its bytes put first, outside any transaction, as
   * the blob store asks); a tile another request recorded meanwhile stays as it is.
   */
  protected async store(publication: Publication, { z, x, y }: TileAddress, bytes: Buffer | undefined): Promise<void> {
    if (bytes && bytes.length > MAX_CACHED_BYTES) return;
    const layerId = publication.layer.id;
    if (this.pruned.get(layerId) !== publication.key) {
      await this.dataSource.query(`DELETE FROM services_vector_tile WHERE layer_id = $1 AND publication <> $2`, [
        layerId,
        publication.key,
      ]);
      this.pruned.set(layerId, publication.key);
    }
    const blob = bytes ? (await this.blobs.put(Readable.from([bytes]), { maxBytes: MAX_CACHED_BYTES })).hash : null;
    await this.dataSource.query(
      `INSERT INTO services_vector_tile (publication, z, x, y, layer_id, blob) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [publication.key, z, x, y, layerId, blob],
    );
  }
}

/** How many positions coordinates (or a collection's geometries) hold, counted up to a little past IN_PROCESS_POSITIONS. */
function positionsIn(value: unknown): number {
  if (!Array.isArray(value)) {
    const g = value as { coordinates?: unknown; geometries?: unknown } | null;
    return g && typeof g === 'object' ? positionsIn(g.coordinates ?? g.geometries) : 0;
  }
  if (typeof value[0] === 'number') return 1;
  let n = 0;
  for (const part of value) {
    n += positionsIn(part);
    if (n > IN_PROCESS_POSITIONS) break;
  }
  return n;
}
