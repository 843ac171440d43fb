import { inject, injectable, WorkerPool } from '@werkbank/sdk/node';
import { layerServiceName } from '@werkbank/plugin-layers/api';
import type { DepotDatumText } from '@werkbank/plugin-magazine/api';
import { tileWindow, type TileAddress } from '../common/web-mercator-quad';
import { PublishedLayers, type Publication } from './published-layers';
import { TileCache } from './tile-cache';
import { cutVectorTile, TILE_BUFFER, TILE_EXTENT, type VectorTileInput } from './vector-tile-task';

const TASK = { module: new URL('./vector-tile-task.ts', import.meta.url).href, name: 'cutVectorTile' };

/** The vector tiles' tile set in the tile cache. */
const TILESET = 'ogc/WebMercatorQuad/mvt';
/**
 * Tiles whose datums' text is at most this long (about 500 positions) are cut on the main thread:
 * cutting them takes less time than handing them to the worker pool and back (about 0.3 ms of both
 * threads' time and 1 ms of waiting).
 */
const IN_PROCESS_CHARS = 20_000;

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

  /**
   * Cuts the tile from the datums whose extent meets it or its buffer, read as JSON text: in the
   * worker pool, where the text is parsed, unless they are few.
   */
  protected async cut(publication: Publication, at: TileAddress): Promise<Buffer | undefined> {
    const datums: DepotDatumText[] = [];
    let chars = 0;
    for await (const batch of this.published.featureTexts(publication, tileWindow(at, TILE_BUFFER / TILE_EXTENT)))
      for (const datum of batch) {
        datums.push(datum);
        chars += datum.text.length;
      }
    if (!datums.length) return undefined;
    const input: VectorTileInput = { ...at, layerName: layerServiceName(publication.layer), datums };
    const out =
      chars <= IN_PROCESS_CHARS
        ? cutVectorTile(input)
        : await this.pool.run<VectorTileInput, Uint8Array | undefined>(TASK, input);
    return out ? Buffer.from(out.buffer, out.byteOffset, out.byteLength) : undefined;
  }
}
