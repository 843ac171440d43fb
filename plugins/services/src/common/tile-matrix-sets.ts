/**
 * The tile matrix sets of the WMTS (issue 17, decision 0083 "WMTS"): WebMercatorQuad (OGC 17-083r2,
 * the GoogleMapsCompatible well-known scale set of WMTS 1.0.0 annex E.4) and the AdV set for
 * ETRS89 / UTM 32N that the German surveying authorities' services (basemap.de, BKG) publish as
 * `DE_EPSG_25832_ADV`.
 */

/** The standardised rendering pixel of OGC scale denominators (0.28 mm). */
export const PIXEL_METRES = 0.00028;

/** One tile matrix: its identifier, resolution and size in tiles (the origin is the set's). */
export interface TileMatrix {
  id: string;
  /** Ground units (metres) per pixel. */
  cellSize: number;
  scaleDenominator: number;
  matrixWidth: number;
  matrixHeight: number;
}

export interface TileMatrixSet {
  id: string;
  title: string;
  /** The CRS as the renderer and FeatureReprojection name it. */
  crs: string;
  /** The CRS as WMTS 1.0.0 capabilities name it (OGC URN). */
  crsUrn: string;
  wellKnownScaleSet?: string;
  /** Top-left corner [x, y] (easting, northing; both CRSs are east-first). */
  origin: [number, number];
  /** [minx, miny, maxx, maxy] the set covers, in its CRS. */
  bounds: [number, number, number, number];
  tileSize: number;
  matrices: TileMatrix[];
}

const TILE = 256;

/** Half the world's width in EPSG:3857 metres. */
export const WEB_MERCATOR_HALF = 20037508.3427892;
const HALF = WEB_MERCATOR_HALF;

function quad(first: number, count: number, extent: number, id: (level: number) => string): TileMatrix[] {
  const out: TileMatrix[] = [];
  for (let level = 0; level < count; level++) {
    const cellSize = first / 2 ** level;
    out.push({
      id: id(level),
      cellSize,
      scaleDenominator: cellSize / PIXEL_METRES,
      matrixWidth: Math.ceil(extent / (cellSize * TILE) - 1e-9),
      matrixHeight: Math.ceil(extent / (cellSize * TILE) - 1e-9),
    });
  }
  return out;
}

/** WebMercatorQuad's first `count` tile matrices (zoom 0, one tile for the world, onwards). */
export const webMercatorMatrices = (count: number): TileMatrix[] => quad((2 * HALF) / TILE, count, 2 * HALF, String);

/**
 * WebMercatorQuad as the WMTS offers it, zoom 0 to 19 (about 1:1,066); the OGC API – Tiles
 * definition (web-mercator-quad.ts) is the same set to zoom 24.
 */
export const WEB_MERCATOR_QUAD: TileMatrixSet = {
  id: 'WebMercatorQuad',
  title: 'Google Maps Compatible for the World',
  crs: 'EPSG:3857',
  crsUrn: 'urn:ogc:def:crs:EPSG::3857',
  wellKnownScaleSet: 'urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible',
  origin: [-HALF, HALF],
  bounds: [-HALF, -HALF, HALF, HALF],
  tileSize: TILE,
  matrices: webMercatorMatrices(20),
};

/**
 * The AdV tile matrix set for EPSG:25832 as basemap.de and the BKG's services publish it: origin
 * (-46133.17, 6301219.54), a square of 1,252,344.27 m (one 256 px tile at level 00) covering
 * Germany, the resolutions of Web Mercator's zoom 5 onwards (4891.97 m/px, 1:17,471,320.75,
 * halving per level), two-digit identifiers 00 to 13 (about 1:2,133), 2^n × 2^n tiles.
 */
const ADV_FIRST = 4891.96981025128;
export const ADV_25832: TileMatrixSet = {
  id: 'DE_EPSG_25832_ADV',
  title: 'AdV ETRS89 / UTM 32N',
  crs: 'EPSG:25832',
  crsUrn: 'urn:ogc:def:crs:EPSG::25832',
  origin: [-46133.17, 6301219.54],
  bounds: [-46133.17, 6301219.54 - ADV_FIRST * TILE, -46133.17 + ADV_FIRST * TILE, 6301219.54],
  tileSize: TILE,
  matrices: quad(ADV_FIRST, 14, ADV_FIRST * TILE, (level) => String(level).padStart(2, '0')),
};

/** The sets offered, in the order of the capabilities. */
export const TILE_MATRIX_SETS: readonly TileMatrixSet[] = [WEB_MERCATOR_QUAD, ADV_25832];

export const tileMatrixSet = (id: string): TileMatrixSet | undefined => TILE_MATRIX_SETS.find((s) => s.id === id);

/** A tile's box [minx, miny, maxx, maxy] in the set's CRS. */
export function tileBox(set: TileMatrixSet, matrix: TileMatrix, row: number, col: number): [number, number, number, number] {
  const span = matrix.cellSize * set.tileSize;
  const minx = set.origin[0] + col * span;
  const maxy = set.origin[1] - row * span;
  return [minx, maxy - span, minx + span, maxy];
}

/** The tiles of a matrix that a box of the set's CRS meets (inclusive), or null when it lies outside the matrix. */
export function tileLimits(
  set: TileMatrixSet,
  matrix: TileMatrix,
  box: [number, number, number, number],
): { minRow: number; maxRow: number; minCol: number; maxCol: number } | null {
  if (!(box[0] <= box[2] && box[1] <= box[3])) return null;
  const span = matrix.cellSize * set.tileSize;
  const clamp = (v: number, max: number) => Math.min(max - 1, Math.max(0, v));
  const c0 = Math.floor((box[0] - set.origin[0]) / span);
  const c1 = Math.floor((box[2] - set.origin[0]) / span);
  const r0 = Math.floor((set.origin[1] - box[3]) / span);
  const r1 = Math.floor((set.origin[1] - box[1]) / span);
  if (c1 < 0 || r1 < 0 || c0 >= matrix.matrixWidth || r0 >= matrix.matrixHeight) return null;
  return {
    minCol: clamp(c0, matrix.matrixWidth),
    maxCol: clamp(c1, matrix.matrixWidth),
    minRow: clamp(r0, matrix.matrixHeight),
    maxRow: clamp(r1, matrix.matrixHeight),
  };
}
