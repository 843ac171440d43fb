/**
 * The 2D extent of a datum in EPSG:4326 (issue 15 item 1, decision 0070): what the Magazine stores
 * beside every version of a located type (`magazine_datum_version.extent`, a native `box`) so that
 * a map window finds its datums (through the cell of its extent, datum-cell.ts). One rule for server and browser.
 */

/** [west, south, east, north] in degrees (WGS 84), always west ≤ east and south ≤ north. */
export type Extent = [number, number, number, number];

/**
 * The types that have a location, and where: a type is located when it or one of its bases is
 * named here (types derived from `feature` take the feature's rule).
 * - feature: the positions of `feature.geometry` (GeoJSON, EPSG:4326 in depots — decision 0035);
 * - bbox, grid, wms, wmts: a 2D box `[west, south, east, north]` in `value` or `bbox`;
 * - bbox3d, pointcloud: the same with bottom and top behind (`value`, `bbox3d`);
 * - billboard: `value.position` [lon, lat, height?]; mesh: `origin` [lon, lat, height].
 */
export const LOCATED_TYPES = ['feature', 'bbox', 'bbox3d', 'grid', 'pointcloud', 'mesh', 'billboard', 'wms', 'wmts'] as const;

type LocatedType = (typeof LOCATED_TYPES)[number];

const FULL_WEST = -180;
const FULL_EAST = 180;

/** The located type whose rule applies to a type with this base chain (most specific first), if any. */
export function locatedBase(type: string | readonly string[]): LocatedType | undefined {
  const chain = typeof type === 'string' ? [type] : type;
  return chain.find((name): name is LocatedType => (LOCATED_TYPES as readonly string[]).includes(name));
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Grows [minx, miny, maxx, maxy] by the positions found in nested coordinate arrays. */
class Bounds {
  minx = Infinity;
  miny = Infinity;
  maxx = -Infinity;
  maxy = -Infinity;

  position(p: unknown): void {
    if (!Array.isArray(p) || !finite(p[0]) || !finite(p[1])) return;
    const [x, y] = p as number[];
    if (x < this.minx) this.minx = x;
    if (x > this.maxx) this.maxx = x;
    if (y < this.miny) this.miny = y;
    if (y > this.maxy) this.maxy = y;
  }

  /** Walks arrays of positions to any depth (Point … MultiPolygon). */
  coordinates(c: unknown, depth = 0): void {
    if (!Array.isArray(c) || depth > 4) return;
    if (c.length && !Array.isArray(c[0])) this.position(c);
    else for (const x of c) this.coordinates(x, depth + 1);
  }

  geometry(g: unknown, depth = 0): void {
    if (!g || typeof g !== 'object' || depth > 8) return;
    const { type, coordinates, geometries } = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
    if (type === 'GeometryCollection') {
      if (Array.isArray(geometries)) for (const member of geometries) this.geometry(member, depth + 1);
    } else this.coordinates(coordinates);
  }

  extent(): Extent | null {
    if (this.minx > this.maxx) return null;
    return normalized(this.minx, this.miny, this.maxx, this.maxy);
  }
}

/**
 * The extent of [west, south, east, north] as stored: a box whose longitudes leave ±180 is widened
 * to the full longitude range, so a query for any window that touches the datum finds it.
 */
function normalized(west: number, south: number, east: number, north: number): Extent {
  if (west < FULL_WEST || east > FULL_EAST) return [FULL_WEST, south, FULL_EAST, north];
  return [west, south, east, north];
}

/**
 * A 2D box given as [west, south, east, north] (GeoJSON's order, RFC 7946 §5, and what the imports
 * write). West greater than east crosses the antimeridian (RFC 7946 §5.2): the extent is then the
 * full longitude range between south and north. South and north are taken in either order.
 */
function boxExtent(box: unknown): Extent | null {
  if (!Array.isArray(box) || box.length < 4 || !box.slice(0, 4).every(finite)) return null;
  const [west, a, east, b] = box as number[];
  const [south, north] = a <= b ? [a, b] : [b, a];
  if (west > east) return [FULL_WEST, south, FULL_EAST, north];
  return normalized(west, south, east, north);
}

/** A position [lon, lat, …] as a point extent; positions that cannot be degrees have none. */
function pointExtent(p: unknown): Extent | null {
  if (!Array.isArray(p) || !finite(p[0]) || !finite(p[1])) return null;
  const [x, y] = p as number[];
  if (Math.abs(x) > 180 || Math.abs(y) > 90) return null;
  return [x, y, x, y];
}

const field = (data: unknown, key: string): unknown =>
  data && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;

/**
 * The 2D extent in EPSG:4326 of a datum's fields `data` of type `type` — a type name or, for
 * types derived from others, its base chain (`TypeRegistry.baseChain(name)`, most specific first).
 * Null for types without a location and for empty or missing geometries.
 *
 * Antimeridian (decision 0070): GeoJSON positions are taken as they are (RFC 7946 §3.1.9: a
 * geometry that crosses the antimeridian is cut in two, so its parts lie near +180 and -180 and the
 * extent spans all longitudes); a box with west > east, or longitudes beyond ±180, gets the full
 * longitude range. Either way a query finds the datum in every window it touches.
 */
export function datumExtent(type: string | readonly string[], data: unknown): Extent | null {
  switch (locatedBase(type)) {
    case 'feature': {
      const bounds = new Bounds();
      bounds.geometry(field(field(data, 'feature'), 'geometry'));
      return bounds.extent();
    }
    case 'bbox':
    case 'bbox3d':
      return boxExtent(field(data, 'value'));
    case 'grid':
    case 'wms':
    case 'wmts':
      return boxExtent(field(data, 'bbox'));
    case 'pointcloud':
      return boxExtent(field(data, 'bbox3d'));
    case 'billboard':
      return pointExtent(field(field(data, 'value'), 'position'));
    case 'mesh':
      return pointExtent(field(data, 'origin'));
    default:
      return null;
  }
}

/** The smallest extent holding both (null counts as nothing). */
export function unionExtent(a: Extent | null, b: Extent | null): Extent | null {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** PostgreSQL's text of a `box` for an extent: `(east,north),(west,south)`; null stays null. */
export function extentBox(e: Extent | null): string | null {
  return e ? `(${e[2]},${e[3]}),(${e[0]},${e[1]})` : null;
}

const BOX_TEXT = /^\(([^,()]+),([^,()]+)\),\(([^,()]+),([^,()]+)\)$/;

/** An extent from PostgreSQL's text of a `box` (`(x2,y2),(x1,y1)`, corners in any order). */
export function boxExtentOf(text: string | null | undefined): Extent | null {
  const m = text ? BOX_TEXT.exec(text.replace(/\s+/g, '')) : null;
  if (!m) return null;
  const [x1, y1, x2, y2] = m.slice(1).map(Number);
  if (![x1, y1, x2, y2].every(Number.isFinite)) return null;
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

/**
 * The boxes to test for a query window [west, south, east, north]: one, or two when west > east
 * (a window across the antimeridian: west…180 and -180…east). Null when the numbers are not a box.
 */
export function windowBoxes(window: readonly number[]): Extent[] | null {
  if (window.length !== 4 || !window.every(finite)) return null;
  const [west, south, east, north] = window;
  if (south > north) return null;
  if (west <= east) return [[west, south, east, north]];
  return [
    [west, south, FULL_EAST, north],
    [FULL_WEST, south, east, north],
  ];
}
