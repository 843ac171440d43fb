import { createHash } from 'node:crypto';
import { createReadStream, closeSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import vtpbf from 'vt-pbf';
import { zxyToTileId } from 'pmtiles';
import { ApiError } from '@werkbank/sdk/node';
import { tileStrategy, type TileSettings } from '../../common/tile-settings';
import { guessMaxZoom } from './guess-max-zoom';
import { limitTile, TileOverLimit, type TileFeature } from './tile-limits';
import { writeArchive, type TileRecord } from './pmtiles-writer';
import { featureParts, mercator, rewound, simpleGeometries, wholeGeometry, type Parts } from './tile-geometry';

/** What the builder is asked: where the features are (GeoJSON Features, one per line) and where the archive goes. */
export interface TileBuildInput {
  featuresPath: string;
  /** A scratch file for tile bytes before they are put in order. */
  scratchPath: string;
  outPath: string;
  settings: TileSettings;
  /** The MVT layer name (the layer's service name). */
  layerName: string;
  /** The layer's name and description for the archive's metadata. */
  title: string;
  description: string;
}

export interface TileBuildOutput {
  size: number;
  minZoom: number;
  maxZoom: number;
  guessed: boolean;
  tiles: number;
  contents: number;
  features: number;
  dropped: number;
  coalesced: number;
  bounds: [number, number, number, number];
}

/** Tile grid units per tile side, and the buffer around it (geojson-vt's defaults). */
const EXTENT = 4096;
const BUFFER = 64;

const FIELD_TYPE = (v: unknown) => (typeof v === 'number' ? 'Number' : typeof v === 'boolean' ? 'Boolean' : 'String');

/**
 * Builds a pmtiles layer's archive (decision 0062) in a worker thread of the server's pool: reads
 * the features, cuts them into Mapbox Vector Tiles with geojson-vt (simplified per zoom, clipped to
 * the tile and its buffer unless no_clipping / no_duplication ask for whole features), applies the
 * tile limits with the chosen strategy, gzips each tile and writes a PMTiles v3 archive. A tile
 * over a limit without a strategy fails the build with 400 `tile_too_large`, naming the tile.
 */
export async function buildTileArchive(input: TileBuildInput): Promise<TileBuildOutput> {
  const { settings } = input;
  const features: GeoJSON.Feature[] = [];
  const parts: Parts[] = [];
  const centres: [number, number][] = [];
  const fields: Record<string, string> = {};
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  const lines = createInterface({ input: createReadStream(input.featuresPath), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const f = JSON.parse(line) as GeoJSON.Feature;
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f.properties ?? {})) {
      if (v === null || v === undefined) continue;
      props[k] = v;
      fields[k] ??= FIELD_TYPE(v);
    }
    // A geometry collection becomes one feature per member (an MVT feature has one kind).
    for (const g of simpleGeometries(f.geometry)) {
      const p = featureParts(g);
      if (!p) continue;
      west = Math.min(west, p.bbox[0]);
      south = Math.min(south, p.bbox[1]);
      east = Math.max(east, p.bbox[2]);
      north = Math.max(north, p.bbox[3]);
      features.push({ type: 'Feature', geometry: rewound(g), properties: props });
      parts.push(p);
      centres.push(mercator((p.bbox[0] + p.bbox[2]) / 2, (p.bbox[1] + p.bbox[3]) / 2));
    }
  }
  if (!features.length) throw ApiError.badRequest('no_features', 'layers:tiles.errors.no_features');

  const guessed = settings.guess_max_zoom;
  const minZoom = settings.min_zoom;
  const maxZoom = guessed ? guessMaxZoom(centres, minZoom) : settings.max_zoom;
  const whole = settings.no_clipping || settings.no_duplication;
  const index = new GeoJSONVT(
    { type: 'FeatureCollection', features },
    { maxZoom, indexMaxZoom: Math.min(5, maxZoom), extent: EXTENT, buffer: BUFFER, generateId: true },
  );
  const limits = { maxFeatures: settings.max_tile_features, maxBytes: settings.max_tile_bytes, strategy: tileStrategy(settings) };
  const encode = (fs: TileFeature[]) =>
    gzipSync(vtpbf.fromGeojsonVt({ [input.layerName]: { features: fs } }, { version: 2, extent: EXTENT }));

  const records: TileRecord[] = [];
  const scratch = openSync(input.scratchPath, 'w');
  let scratchLength = 0;
  let dropped = 0;
  let coalesced = 0;
  try {
    let level: [number, number][] = [[0, 0]];
    for (let z = 0; z <= maxZoom && level.length; z++) {
      const next: [number, number][] = [];
      for (const [x, y] of level) {
        // null: no feature reaches this tile (nor its children); an empty tile may still have
        // features deeper down that are below the simplification tolerance here.
        const tile = index.getTile(z, x, y);
        if (!tile) continue;
        if (z < maxZoom) next.push([2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]);
        if (z < minZoom || !tile.features.length) continue;
        let content = tile.features as unknown as TileFeature[];
        if (settings.no_duplication) {
          // Only in the tile that holds the centre of the feature's extent.
          const n = 2 ** z;
          content = content.filter((f) => {
            const [cx, cy] = centres[f.id as number];
            return Math.min(n - 1, Math.floor(cx * n)) === x && Math.min(n - 1, Math.floor(cy * n)) === y;
          });
        }
        if (whole) {
          content = content
            .map((f) => ({ ...f, geometry: wholeGeometry(parts[f.id as number], z, x, y, EXTENT) }) as TileFeature)
            .filter((f) => f.geometry.length > 0);
        }
        if (!content.length) continue;
        let limited;
        try {
          limited = limitTile(content, limits, encode);
        } catch (e) {
          if (!(e instanceof TileOverLimit)) throw e;
          throw ApiError.badRequest('tile_too_large', `layers:tiles.errors.tile_${e.limit}`, {
            z,
            x,
            y,
            count: e.count,
            bytes: e.bytes,
            max_features: limits.maxFeatures,
            max_bytes: limits.maxBytes,
          });
        }
        dropped += limited.dropped;
        coalesced += limited.coalesced;
        const bytes = limited.bytes;
        writeSync(scratch, bytes);
        records.push({
          tileId: zxyToTileId(z, x, y),
          offset: scratchLength,
          length: bytes.length,
          hash: createHash('sha1').update(bytes).digest('hex'),
        });
        scratchLength += bytes.length;
      }
      level = next;
    }
  } finally {
    closeSync(scratch);
  }
  const bounds: [number, number, number, number] = [west, south, east, north];
  const tileMin = Math.min(minZoom, maxZoom);
  const metadata = {
    name: input.title,
    description: input.description,
    format: 'pbf',
    type: 'overlay',
    generator: 'Werkbank',
    vector_layers: [{ id: input.layerName, description: input.title, minzoom: tileMin, maxzoom: maxZoom, fields }],
    tile_settings: settings,
  };
  const written = writeArchive(input.outPath, input.scratchPath, records, metadata, {
    minZoom: tileMin,
    maxZoom,
    bounds,
    tileCompression: 2,
  });
  return {
    size: written.size,
    minZoom: tileMin,
    maxZoom,
    guessed,
    tiles: written.addressed,
    contents: written.contents,
    features: features.length,
    dropped,
    coalesced,
    bounds,
  };
}
