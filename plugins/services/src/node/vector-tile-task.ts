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
 * geojson-vt clips to the tile and its 64-unit buffer and simplifies as it does for that zoom,
 * polygon rings are wound as RFC 7946 asks (clockwise exterior rings in tile coordinates), a
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
    const id = typeof f.id === 'number' && Number.isSafeInteger(f.id) && f.id >= 0 ? { id: f.id } : {};
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f.properties ?? {})) if (v !== null && v !== undefined) properties[k] = v;
    for (const g of simpleGeometries(f.geometry as GeoJSON.Geometry | null))
      features.push({ type: 'Feature', ...id, geometry: rewound(g), properties });
  }
  if (!features.length) return undefined;
  // maxZoom 24: every zoom below it is simplified as in a pyramid cut to 24; only the path to the
  // asked tile is split (indexMaxZoom 0).
  const index = new GeoJSONVT(
    { type: 'FeatureCollection', features },
    { maxZoom: 24, indexMaxZoom: 0, extent: TILE_EXTENT, buffer: TILE_BUFFER },
  );
  const tile = index.getTile(input.z, input.x, input.y);
  if (!tile || !tile.features.length) return undefined;
  // The bytes vt-pbf would write (mvt-encoding.ts), in a buffer of their own size: it crosses the thread whole.
  return encodeVectorTile(input.layerName, tile.features as TileFeature[], TILE_EXTENT);
}

type Position = number[];

/** The members of a geometry collection as separate geometries (an MVT feature has one kind). */
function simpleGeometries(g: GeoJSON.Geometry | null): GeoJSON.Geometry[] {
  if (!g || typeof g !== 'object') return [];
  return g.type === 'GeometryCollection' ? (g.geometries ?? []).flatMap(simpleGeometries) : [g];
}

const signedArea = (ring: Position[]) => {
  let a = 0;
  for (let i = 1; i < ring.length; i++) a += (ring[i][0] - ring[i - 1][0]) * (ring[i][1] + ring[i - 1][1]);
  return a; // > 0: clockwise (y up)
};
const wind = (ring: Position[], clockwise: boolean) => (signedArea(ring) > 0 === clockwise ? ring : [...ring].reverse());
const rewindPolygon = (rings: Position[][]) => rings.map((r, i) => wind(r, i > 0));

/** Polygon rings wound as RFC 7946 §3.1.6 asks: outer counterclockwise, holes clockwise. */
function rewound(g: GeoJSON.Geometry): GeoJSON.Geometry {
  if (g.type === 'Polygon') return { ...g, coordinates: rewindPolygon(g.coordinates) };
  if (g.type === 'MultiPolygon') return { ...g, coordinates: g.coordinates.map(rewindPolygon) };
  return g;
}
