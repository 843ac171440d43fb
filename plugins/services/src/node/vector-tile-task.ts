import GeoJSONVT from 'geojson-vt';
import type { DepotDatumText } from '@werkbank/plugin-magazine/api';
import { encodeVectorTile, type TileFeature } from './mvt-encoding';
import { servedFeature } from './served-feature';

/** Tile grid units per tile side and the buffer around a tile, as the pmtiles builder cuts (geojson-vt's defaults). */
export const TILE_EXTENT = 4096;
export const TILE_BUFFER = 64;

export interface VectorTileInput {
  z: number;
  x: number;
  y: number;
  /** The MVT layer's name (the layer's service name). */
  layerName: string;
  /** The datums around the tile with their fields as JSON text (features in EPSG:4326), parsed here. */
  datums: DepotDatumText[];
}

/**
 * Cuts one Mapbox Vector Tile (version 2, extent 4096) from the features around tile z/x/y, in a
 * worker thread of the server's pool (decision 0026). The encoding follows the pmtiles builder of
 * the layers plugin (plugins/layers/src/node/tiles/, not part of its API, so this is a small copy):
 * geojson-vt clips to the tile and its 64-unit buffer and simplifies as it does for that zoom, and
 * winds polygon rings as MVT asks (exterior rings clockwise in tile coordinates, whatever the
 * source's winding; vector-tile-task.spec.ts checks it), a
 * geometry collection becomes one feature per member, null properties are left out, objects and
 * arrays become JSON text (encoded as vt-pbf does, mvt-encoding.ts); a feature's id is kept when it
 * is a whole number of 0 or more (MVT ids are unsigned). The datums come as JSON text and are parsed
 * here, so the thread that read them neither parses nor copies objects. Returns undefined when no
 * feature reaches the tile.
 */
export function cutVectorTile(input: VectorTileInput): Uint8Array | undefined {
  const features: GeoJSON.Feature[] = [];
  for (const datum of input.datums) {
    const f = servedFeature(datum.index, JSON.parse(datum.text) as Record<string, unknown>);
    if (!f) continue;
    const id = typeof f.id === 'number' && Number.isSafeInteger(f.id) && f.id >= 0 ? f.id : undefined;
    const properties = withoutNulls(f.properties ?? {});
    for (const g of simpleGeometries(f.geometry as GeoJSON.Geometry | null))
      features.push(
        id === undefined ? { type: 'Feature', geometry: g, properties } : { type: 'Feature', id, geometry: g, properties },
      );
  }
  if (!features.length) return undefined;
  // maxZoom 24: every zoom below it is simplified as in a pyramid cut to 24; nothing is split below
  // the world tile here (indexMaxZoom 0).
  const index = new GeoJSONVT(
    { type: 'FeatureCollection', features },
    { maxZoom: 24, indexMaxZoom: 0, extent: TILE_EXTENT, buffer: TILE_BUFFER },
  );
  const tile = directTile(index, input.z, input.x, input.y);
  if (!tile || !tile.features.length) return undefined;
  // The bytes vt-pbf would write (mvt-encoding.ts), in a buffer of their own size: it crosses the thread whole.
  return encodeVectorTile(input.layerName, tile.features as TileFeature[], TILE_EXTENT);
}

/** The parts of geojson-vt's index `directTile` uses besides its typed API (geojson-vt 5). */
interface IndexInternals {
  tiles: Record<number, { source: unknown[] | null } | undefined>;
  splitTile(features: unknown[], z: number, x: number, y: number, cz: number, cx: number, cy: number): void;
}

/**
 * Tile z/x/y of an index built with indexMaxZoom 0, split from its parent directly instead of
 * through every zoom above it, as `getTile` drills down: the features the world tile keeps (its
 * `source`) are clipped into the parent's four children, the target among them. Clipping to the
 * nested buffered boxes of the ancestors and then the tile's own gives what clipping to the tile's
 * box alone gives, and each tile is simplified for its own zoom from the unsimplified source, so the
 * tile holds the same features and positions (vector-tile-task.spec.ts compares them; a ring cut by
 * the box may start at another corner) at a fraction of the work for a deep tile: about 6 instead of
 * 8 ms for a zoom-8 tile of 1,700 polygons.
 */
export function directTile(index: GeoJSONVT, z: number, x: number, y: number): ReturnType<GeoJSONVT['getTile']> {
  const internals = index as unknown as IndexInternals;
  const source = internals.tiles[0]?.source;
  if (z > 1 && source) internals.splitTile(source, z - 1, x >> 1, y >> 1, z, x, y);
  return index.getTile(z, x, y);
}

/** The members of a geometry collection as separate geometries (an MVT feature has one kind). */
function simpleGeometries(g: GeoJSON.Geometry | null): GeoJSON.Geometry[] {
  if (!g || typeof g !== 'object') return [];
  return g.type === 'GeometryCollection' ? (g.geometries ?? []).flatMap(simpleGeometries) : [g];
}

/** The properties without null or undefined values (the same object when it has none). */
function withoutNulls(properties: Record<string, unknown>): Record<string, unknown> {
  for (const k in properties)
    if (properties[k] === null || properties[k] === undefined) {
      const out: Record<string, unknown> = {};
      for (const key in properties) if (properties[key] !== null && properties[key] !== undefined) out[key] = properties[key];
      return out;
    }
  return properties;
}
