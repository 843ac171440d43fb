import type { LayerProblem } from './layer-validation';

/**
 * The tile generation settings of a pmtiles layer (spec 001 §3.3 "Tile generation settings";
 * decision 0062). Names and defaults follow tippecanoe, whose options they are: `max_tile_bytes`
 * is `--maximum-tile-bytes`, `drop_densest_as_needed` is `--drop-densest-as-needed`, and so on.
 */
export interface TileSettings {
  min_zoom: number;
  max_zoom: number;
  /** Choose the maximum zoom from the spacing of the features (rule in decision 0062); max_zoom is then ignored. */
  guess_max_zoom: boolean;
  max_tile_features: number;
  max_tile_bytes: number;
  drop_densest_as_needed: boolean;
  drop_smallest_as_needed: boolean;
  coalesce_densest_as_needed: boolean;
  coalesce_smallest_as_needed: boolean;
  /** Whole features in every tile they touch, never cut at the tile's edge. */
  no_clipping: boolean;
  /** Each feature in one tile per zoom only (the tile holding the centre of its extent), whole. */
  no_duplication: boolean;
}

export const TILE_SETTING_DEFAULTS: Readonly<TileSettings> = Object.freeze({
  min_zoom: 0,
  max_zoom: 14,
  guess_max_zoom: false,
  max_tile_features: 200_000,
  max_tile_bytes: 500_000,
  drop_densest_as_needed: false,
  drop_smallest_as_needed: false,
  coalesce_densest_as_needed: false,
  coalesce_smallest_as_needed: false,
  no_clipping: false,
  no_duplication: false,
});

/** What happens to a tile over a limit; at most one (none: the build stops and names the tile). */
export const TILE_STRATEGIES = [
  'drop_densest_as_needed',
  'drop_smallest_as_needed',
  'coalesce_densest_as_needed',
  'coalesce_smallest_as_needed',
] as const;
export type TileStrategy = (typeof TILE_STRATEGIES)[number];

/** Tile zoom levels (spec 001 §9 zoom choices). */
export const TILE_ZOOM_MIN = 0;
export const TILE_ZOOM_MAX = 24;
/** Bounds of the limits: below them no tile is useful, above them no client reads the tile. */
export const TILE_FEATURES_RANGE = [1, 10_000_000] as const;
export const TILE_BYTES_RANGE = [1_024, 50_000_000] as const;

const INTEGER_RANGES: Partial<Record<keyof TileSettings, readonly [number, number]>> = {
  min_zoom: [TILE_ZOOM_MIN, TILE_ZOOM_MAX],
  max_zoom: [TILE_ZOOM_MIN, TILE_ZOOM_MAX],
  max_tile_features: TILE_FEATURES_RANGE,
  max_tile_bytes: TILE_BYTES_RANGE,
};

const KEYS = Object.keys(TILE_SETTING_DEFAULTS) as (keyof TileSettings)[];

/**
 * Checks `tile_settings` as a client sends it: null or an object of the keys above; nulls are
 * removed and values equal to the default are not stored (spec 001 "only values that differ from
 * the defaults are stored"). Returns the stored object (null when nothing differs) or the problem,
 * whose field is `tile_settings.<key>`.
 */
export function checkTileSettings(v: unknown): { settings?: Partial<TileSettings> | null; problem?: LayerProblem } {
  if (v === null || v === undefined) return { settings: null };
  if (typeof v !== 'object' || Array.isArray(v))
    return { problem: { key: 'layers:tiles.errors.object', field: 'tile_settings' } };
  const out: Partial<Record<keyof TileSettings, number | boolean>> = {};
  for (const [key, value] of Object.entries(v)) {
    const field = `tile_settings.${key}`;
    if (!(KEYS as string[]).includes(key)) return { problem: { key: 'layers:tiles.errors.unknown', field, params: { key } } };
    if (value === null) continue;
    const k = key as keyof TileSettings;
    const range = INTEGER_RANGES[k];
    if (range) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1])
        return { problem: { key: 'layers:tiles.errors.range', field, params: { min: range[0], max: range[1] } } };
    } else if (typeof value !== 'boolean') return { problem: { key: 'layers:tiles.errors.bool', field } };
    if (value !== TILE_SETTING_DEFAULTS[k]) out[k] = value as number | boolean;
  }
  const full = resolveTileSettings(out);
  if (!full.guess_max_zoom && full.min_zoom > full.max_zoom)
    return { problem: { key: 'layers:tiles.errors.zoom_order', field: 'tile_settings.min_zoom' } };
  const strategies = TILE_STRATEGIES.filter((s) => full[s]);
  if (strategies.length > 1)
    return { problem: { key: 'layers:tiles.errors.one_strategy', field: `tile_settings.${strategies[1]}` } };
  return { settings: Object.keys(out).length ? (out as Partial<TileSettings>) : null };
}

/** The stored settings with the defaults filled in (anything that is not a stored setting is ignored). */
export function resolveTileSettings(stored: unknown): TileSettings {
  const s = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const out = { ...TILE_SETTING_DEFAULTS } as Record<string, unknown>;
  for (const k of KEYS) if (typeof s[k] === typeof TILE_SETTING_DEFAULTS[k]) out[k] = s[k];
  return out as unknown as TileSettings;
}

/** The strategy for tiles over a limit, or undefined when none is chosen. */
export function tileStrategy(s: TileSettings): TileStrategy | undefined {
  return TILE_STRATEGIES.find((k) => s[k]);
}
