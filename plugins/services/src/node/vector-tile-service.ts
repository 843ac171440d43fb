import { inject, injectable, WorkerPool } from '@werkbank/sdk/node';
import { layerServiceName } from '@werkbank/plugin-layers/api';
import { tileWindow, type TileAddress } from '../common/web-mercator-quad';
import { PublishedLayers, type Publication } from './published-layers';
import { TileCache } from './tile-cache';
import { cutVectorTile, TILE_BUFFER, TILE_EXTENT, type TileFeatureInput, type VectorTileInput } from './vector-tile-task';

const TASK = { module: new URL('./vector-tile-task.ts', import.meta.url).href, name: 'cutVectorTile' };

/** The vector tiles' tile set in the tile cache. */
const TILESET = 'ogc/WebMercatorQuad/mvt';
/**
 * Tiles of at most this many positions are cut on the main thread: cutting them takes less time than
 * handing them to the worker pool and back (about 0.3 ms of both threads' time and 1 ms of waiting).
 */
const IN_PROCESS_POSITIONS = 500;

/** A tile as served: its bytes, none when no feature reaches it; `cached` when they came from the cache. */
export interface VectorTile {
  bytes?: Buffer;
  cached: boolean;
}

/**
 * Vector tiles of a publication (decision 0083): cut from the features whose extent meets the tile
 * and its buffer (the Magazine's spatial index through `PublishedLayers.features`), in the server's
 * worker pool unless they are few, and kept in the services' tile cache (tile-cache.ts, decision
 * 0085) per publication, so an approval needs no invalidation.
 */
@injectable()
export class VectorTileService {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(TileCache) protected readonly cache!: TileCache;
  @inject(WorkerPool) protected readonly pool!: WorkerPool;

  /** Tile `at` of the publication; `cache` false (a draft preview) cuts it without reading or writing the cache. */
  async tile(publication: Publication, at: TileAddress, cache: boolean): Promise<VectorTile> {
    const { bytes, cached } = await this.cache.tile(
      publication,
      { tileset: TILESET, z: at.z, y: at.y, x: at.x },
      async () => (await this.cut(publication, at)) ?? null,
      cache,
    );
    return { bytes: bytes ?? undefined, cached };
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
