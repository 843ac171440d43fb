import type { Extent } from './datum-extent';

/**
 * Cells of a quadtree over EPSG:4326 (decision 0075, amendment of 2026-11-28): the key by which a
 * map window finds the datums whose extent meets it, in a plain B-tree index. Level 0 is the whole
 * world (longitude −180…180 by latitude −90…90); each level halves both sides, down to level
 * CELL_LEVELS (cells of about 2.1 × 1.1 m at the equator). A datum's cell is the smallest cell
 * that holds its whole extent.
 *
 * A cell's key is `(2 · m + 1) · 4^s`, where `m` is the Morton code (x in the even bits, y in the
 * odd ones) of the cell's position at its level and `s = CELL_LEVELS − level`. So every key below a
 * cell — its descendants — lies strictly between `key − 4^s` and `key + 4^s`, and a window is
 * answered by a few ranges of keys (the cells that cover it) and a few single keys (the larger
 * cells above them). Keys are below 2^49, exact as JavaScript numbers and as `bigint`.
 *
 * One rule for every write (the cell stored beside the extent) and every window query.
 */

/** The finest level: 2^24 columns and rows. */
export const CELL_LEVELS = 24;

const SIDE = 2 ** CELL_LEVELS;

/** The column of the finest level that holds a longitude (clamped to the world). */
function column(lon: number): number {
  const g = Math.floor(((lon + 180) / 360) * SIDE);
  return g < 0 ? 0 : g >= SIDE ? SIDE - 1 : g;
}

/** The row of the finest level that holds a latitude (clamped to the world). */
function row(lat: number): number {
  const g = Math.floor(((lat + 90) / 180) * SIDE);
  return g < 0 ? 0 : g >= SIDE ? SIDE - 1 : g;
}

const bitLength = (n: number): number => (n === 0 ? 0 : 32 - Math.clz32(n));

/** The 12 low bits of `v` spread to the even bits of a 24-bit number. */
function spread12(v: number): number {
  v &= 0xfff;
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  return (v | (v << 1)) & 0x55555555;
}

/** The Morton code of (x, y), each below 2^24. */
function morton(x: number, y: number): number {
  const low = spread12(x) | (spread12(y) << 1);
  const high = spread12(x >>> 12) | (spread12(y >>> 12) << 1);
  return high * 2 ** 24 + low;
}

/** The key of the cell at position (x, y) of the level `s` steps above the finest. */
function cellKey(x: number, y: number, s: number): number {
  return (2 * morton(x, y) + 1) * 4 ** s;
}

/** The finest-level columns and rows of an extent: [x0, y0, x1, y1]. */
function gridOf(e: Extent): [number, number, number, number] {
  return [column(e[0]), row(e[1]), column(e[2]), row(e[3])];
}

/** The cell of a datum's extent (the smallest cell that holds it); null without an extent. */
export function extentCell(extent: Extent | null | undefined): number | null {
  if (!extent) return null;
  const [x0, y0, x1, y1] = gridOf(extent);
  const s = bitLength((x0 ^ x1) | (y0 ^ y1));
  return cellKey(x0 >>> s, y0 >>> s, s);
}

/** The keys a window query asks for: ranges of keys (inclusive) and single keys of larger cells. */
export interface CellQuery {
  ranges: Array<[number, number]>;
  keys: number[];
}

/**
 * The cells a datum meeting one of `windows` can have: every cell below the cells that cover the
 * windows (as merged key ranges), and every cell above them (as single keys). The cover cells are
 * between a quarter and a half of a window's larger side, so a window takes at most 5 × 5 of them.
 */
export function windowCells(windows: readonly Extent[]): CellQuery {
  const ranges: Array<[number, number]> = [];
  const keys = new Set<number>();
  for (const w of windows) {
    const [x0, y0, x1, y1] = gridOf(w);
    const s = Math.max(0, bitLength(Math.max(x1 - x0, y1 - y0) + 1) - 2);
    for (let x = x0 >>> s; x <= x1 >>> s; x++) {
      for (let y = y0 >>> s; y <= y1 >>> s; y++) {
        const key = cellKey(x, y, s);
        const half = 4 ** s - 1;
        ranges.push([key - half, key + half]);
        for (let up = s + 1; up <= CELL_LEVELS; up++) keys.add(cellKey(x >>> (up - s), y >>> (up - s), up));
      }
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    // Two ranges two apart are siblings in Morton order: the key between them is a larger cell
    // above both, which `keys` holds anyway.
    if (last && r[0] <= last[1] + 2) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const inRange = (k: number) => merged.some(([lo, hi]) => k >= lo && k <= hi);
  return { ranges: merged, keys: [...keys].filter((k) => !inRange(k)).sort((a, b) => a - b) };
}
