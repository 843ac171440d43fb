/**
 * The WebMercatorQuad tile matrix set (OGC 17-083r4, Two Dimensional Tile Matrix Set, annex D.1)
 * that the OGC API – Tiles service cuts vector tiles in, and the geometry of its tiles. The set
 * itself is the WMTS's (tile-matrix-sets.ts), here to zoom 24.
 */
import { WEB_MERCATOR_HALF, WEB_MERCATOR_QUAD as SET, webMercatorMatrices } from './tile-matrix-sets';

export const WEB_MERCATOR_QUAD = SET.id;
export const WEB_MERCATOR_QUAD_URI = 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad';
export const WEB_MERCATOR_CRS = 'http://www.opengis.net/def/crs/EPSG/0/3857';

/** Deepest tile matrix (the standard definition's last, as far as geojson-vt cuts). */
export const MAX_TILE_MATRIX = 24;

const HALF = WEB_MERCATOR_HALF;
const MAX_LAT = 85.0511287798066;

/** The standard definition in the JSON encoding of OGC 17-083r4 (TileMatrixSet 2.0). */
export function webMercatorQuad(): Record<string, unknown> {
  const tileMatrices = webMercatorMatrices(MAX_TILE_MATRIX + 1).map((m) => ({
    id: m.id,
    scaleDenominator: m.scaleDenominator,
    cellSize: m.cellSize,
    cornerOfOrigin: 'topLeft',
    pointOfOrigin: SET.origin,
    tileWidth: SET.tileSize,
    tileHeight: SET.tileSize,
    matrixWidth: m.matrixWidth,
    matrixHeight: m.matrixHeight,
  }));
  return {
    id: WEB_MERCATOR_QUAD,
    title: SET.title,
    uri: WEB_MERCATOR_QUAD_URI,
    crs: WEB_MERCATOR_CRS,
    orderedAxes: ['X', 'Y'],
    wellKnownScaleSet: 'http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible',
    boundingBox: { lowerLeft: [-HALF, -HALF], upperRight: [HALF, HALF], crs: WEB_MERCATOR_CRS },
    tileMatrices,
  };
}

/** A tile of WebMercatorQuad: tile matrix (zoom), row (y, from the north) and column (x, from the west). */
export interface TileAddress {
  z: number;
  y: number;
  x: number;
}

/**
 * Reads `{tileMatrix}/{tileRow}/{tileCol}` as given in the path: `malformed` when a part is not a
 * whole number, `outside` when the tile is not in the matrix set (OGC API – Tiles answers 404).
 */
export function tileAddress(z: string, y: string, x: string): TileAddress | 'malformed' | 'outside' {
  if (![z, y, x].every((p) => /^\d{1,10}$/.test(p))) return 'malformed';
  const [zoom, row, col] = [Number(z), Number(y), Number(x)];
  if (zoom > MAX_TILE_MATRIX || row >= 2 ** zoom || col >= 2 ** zoom) return 'outside';
  return { z: zoom, y: row, x: col };
}

const lonOf = (u: number) => u * 360 - 180;
const latOf = (v: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * v))) * 180) / Math.PI;

/**
 * The tile's window in degrees `[west, south, east, north]`, grown by `buffer` tile widths on each
 * side (0.015625 = geojson-vt's 64 of 4096). A window past ±180° wraps (west > east), one as wide
 * as the world is the world; the top and bottom rows reach the poles, so features north or south of
 * Web Mercator's ±85.05° still land on their edge as geojson-vt draws them.
 */
export function tileWindow({ z, y, x }: TileAddress, buffer: number): [number, number, number, number] {
  const n = 2 ** z;
  const [u0, u1] = [(x - buffer) / n, (x + 1 + buffer) / n];
  const [v0, v1] = [(y - buffer) / n, (y + 1 + buffer) / n];
  const north = v0 <= 0 ? 90 : Math.min(MAX_LAT, latOf(v0));
  const south = v1 >= 1 ? -90 : Math.max(-MAX_LAT, latOf(v1));
  if (u1 - u0 >= 1) return [-180, south, 180, north];
  const wrap = (lon: number) => (lon < -180 ? lon + 360 : lon > 180 ? lon - 360 : lon);
  return [wrap(lonOf(u0)), south, wrap(lonOf(u1)), north];
}
