import { TILE_SETTING_DEFAULTS } from '../../common/tile-settings';
import { hilbert } from './hilbert';

/** Cells per side of the grid the spacing is measured on (2^26: about 0.6 m at the equator; indexes up to 2^52 stay exact). */
const GRID = 2 ** 26;
/** The deepest zoom a guess gives: one grid cell is one pixel there (log2(2^26 / 256)). */
export const GUESS_ZOOM_MAX = 18;

/**
 * guess_max_zoom (decision 0062): the smallest zoom at which the median spacing of the features
 * is at least one pixel of a 256-pixel tile. `points` are the features' positions in Web Mercator
 * world units (0–1 across the world), the centre of each feature's extent. Spacing is measured as
 * tippecanoe does: the square root of the gap between consecutive distinct positions along a
 * Hilbert curve over a 2^26 grid. Clamped to `minZoom`–18 (the grid's resolution); with fewer than two distinct positions
 * the default maximum (14).
 */
export function guessMaxZoom(points: Iterable<[number, number]>, minZoom: number): number {
  const cell = (v: number) => Math.max(0, Math.min(GRID - 1, Math.floor(v * GRID)));
  const ids = [...new Set(Array.from(points, ([x, y]) => hilbert(cell(x), cell(y), GRID)))].sort((a, b) => a - b);
  if (ids.length < 2) return Math.max(minZoom, TILE_SETTING_DEFAULTS.max_zoom);
  const spacing = ids
    .slice(1)
    .map((d, i) => Math.sqrt(d - ids[i]))
    .sort((a, b) => a - b);
  const median = spacing[Math.floor(spacing.length / 2)];
  // One pixel at zoom z is GRID / (256 · 2^z) cells: spacing ≥ that ⇔ z ≥ log2(GRID / (256 · spacing)).
  const z = Math.ceil(Math.log2(GRID / (256 * median)));
  return Math.max(minZoom, Math.min(GUESS_ZOOM_MAX, z));
}
