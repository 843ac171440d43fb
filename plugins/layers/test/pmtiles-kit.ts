import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';

/** A PMTiles Source over any byte-range reader (a buffer, a file, the HTTP range endpoint). */
export function rangeSource(key: string, read: (offset: number, length: number) => Promise<Uint8Array>): Source {
  return {
    getKey: () => key,
    getBytes: async (offset, length): Promise<RangeResponse> => {
      const bytes = await read(offset, length);
      return { data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer };
    },
  };
}

/** The archive in `bytes`, read by the `pmtiles` library. */
export function archiveOf(bytes: Uint8Array): PMTiles {
  return new PMTiles(rangeSource('buffer', async (o, l) => bytes.subarray(o, o + l)));
}

/** One decoded feature of a tile: its layer, MVT type, id, properties and GeoJSON geometry. */
export interface DecodedFeature {
  layer: string;
  type: number;
  id: number | undefined;
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown };
  /** Geometry in tile coordinates (rings or parts of points). */
  points: Array<Array<{ x: number; y: number }>>;
}

/** The features of tile z/x/y of the archive (decoded with @mapbox/vector-tile), or undefined when it has no such tile. */
export async function tileFeatures(archive: PMTiles, z: number, x: number, y: number): Promise<DecodedFeature[] | undefined> {
  const tile = await archive.getZxy(z, x, y);
  if (!tile) return undefined;
  const vt = new VectorTile(new PbfReader(new Uint8Array(tile.data)));
  const out: DecodedFeature[] = [];
  for (const [name, layer] of Object.entries(vt.layers)) {
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      out.push({
        layer: name,
        type: f.type,
        id: f.id,
        properties: f.properties as Record<string, unknown>,
        geometry: f.toGeoJSON(x, y, z).geometry as DecodedFeature['geometry'],
        points: f.loadGeometry().map((ring) => ring.map((p) => ({ x: p.x, y: p.y }))),
      });
    }
  }
  return out;
}
