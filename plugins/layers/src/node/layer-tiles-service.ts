import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, BlobStore, inject, injectable, WorkerPool, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { tileArchivePath, type TileArchive } from '../common/layers-api';
import { layerServiceName } from '../common/layer-slug';
import { resolveTileSettings } from '../common/tile-settings';
import { depotDefinition, pilesOf } from './pile-store';
import { LayersServices } from './layers-services';
import type { TileBuildInput, TileBuildOutput } from './tiles/tile-build-task';

const TASK = { module: new URL('./tiles/tile-build-task.ts', import.meta.url).href, name: 'buildTileArchive' };

/** Largest archive the blob store takes from a build (bytes). */
export const MAX_ARCHIVE_BYTES = 4 * 1024 ** 3;

/**
 * Builds the tile archive of a pmtiles layer (decision 0062). The features of the layer's piles are
 * streamed (batch by batch, DepotAccess.readStream) to a scratch file — each depot at its latest
 * approved moment, at its head when it has none, as the layer's other reads; the tiling runs in
 * the server's worker pool; the archive goes to the blob store and the layer records it. One
 * build per layer at a time in this process (409 `tiles_building`).
 */
@injectable()
export class LayerTilesService {
  @inject(LayersServices) protected readonly services!: LayersServices;
  @inject(WorkerPool) protected readonly pool!: WorkerPool;
  @inject(BlobStore) protected readonly blobs!: BlobStore;

  protected readonly running = new Set<number>();

  /** Builds and records the archive of `row` (a layer the caller may change); the layer's new `tile_archive`. */
  async build(req: ResourceRequest, row: Row): Promise<TileArchive> {
    if (row.type !== 'pmtiles') throw ApiError.badRequest('not_pmtiles', 'layers:tiles.errors.not_pmtiles', { type: row.type });
    if (this.running.has(row.id)) throw new ApiError(409, 'tiles_building', 'layers:tiles.errors.building');
    this.running.add(row.id);
    const dir = await mkdtemp(join(tmpdir(), 'werkbank-tiles-'));
    try {
      const featuresPath = join(dir, 'features.ndjson');
      const { count, moments } = await this.writeFeatures(req, row.id, featuresPath);
      if (!count) throw ApiError.badRequest('no_features', 'layers:tiles.errors.no_features');
      const settings = resolveTileSettings(
        typeof row.tile_settings === 'string' ? JSON.parse(row.tile_settings) : row.tile_settings,
      );
      const input: TileBuildInput = {
        featuresPath,
        scratchPath: join(dir, 'tiles.bin'),
        outPath: join(dir, 'archive.pmtiles'),
        settings,
        layerName: layerServiceName({ id: row.id, slug: String(row.slug ?? '') }),
        title: String(row.name),
        description: String(row.description ?? ''),
      };
      const out = await this.pool.run<TileBuildInput, TileBuildOutput>(TASK, input);
      // Outside any transaction (BlobHold writes on its own connection), then recorded at once.
      const blob = await this.blobs.put(createReadStream(input.outPath), { maxBytes: MAX_ARCHIVE_BYTES });
      const built = new Date();
      const archive: TileArchive = {
        url: tileArchivePath(row.id),
        size: blob.size,
        built: built.toISOString(),
        min_zoom: out.minZoom,
        max_zoom: out.maxZoom,
        guessed_max_zoom: out.guessed,
        tiles: out.tiles,
        features: out.features,
        dropped: out.dropped,
        coalesced: out.coalesced,
        bounds: out.bounds,
        moments,
      };
      await this.services.dataSource.query(
        `UPDATE layers_layer SET tiles_blob = $1, tile_archive = $2, persistent_size = $3, persistent_size_modified = $4 WHERE id = $5`,
        [blob.hash, JSON.stringify(archive), blob.size, built, row.id],
      );
      return archive;
    } finally {
      this.running.delete(row.id);
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Streams the GeoJSON features of the layer's readable piles to `path`, one per line. */
  protected async writeFeatures(
    req: ResourceRequest,
    layerId: number,
    path: string,
  ): Promise<{ count: number; moments: TileArchive['moments'] }> {
    const file = createWriteStream(path);
    const moments: TileArchive['moments'] = [];
    let count = 0;
    try {
      const def = depotDefinition(req);
      for (const pile of await pilesOf(req, [layerId])) {
        const depot = await req.services.loadReadable(def, pile.depot_id, req);
        if (!depot) continue;
        const read = await this.openPile(req, depot);
        if (!read) continue;
        moments.push({ depot: read.depot_id, moment: read.moment_id });
        for await (const batch of read.batches) {
          let chunk = '';
          for (const d of batch) {
            const f = d.fields.feature as { type?: string; geometry?: unknown } | undefined;
            if (!f || typeof f !== 'object' || !f.geometry) continue;
            chunk += JSON.stringify(f) + '\n';
            count++;
          }
          if (chunk && !file.write(chunk)) await once(file, 'drain');
        }
      }
    } finally {
      file.end();
      await once(file, 'close');
    }
    return { count, moments };
  }

  /** The depot's stream at its latest approved moment, or at its head when it has none; undefined without either. */
  protected async openPile(req: ResourceRequest, depot: Row) {
    try {
      return await this.services.depots.readStream(req.user, depot.id);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'no_approved_moment') throw e;
      const [serialized] = await req.services.serialize(depotDefinition(req), [depot], req);
      const head = (serialized.current_moment as { id: number } | null)?.id;
      return head === undefined ? undefined : this.services.depots.readStream(req.user, depot.id, { momentId: head });
    }
  }
}
