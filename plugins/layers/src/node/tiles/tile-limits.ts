import type { TileStrategy } from '../../common/tile-settings';
import { hilbert } from './hilbert';

/** A feature of one tile in tile coordinates (geojson-vt's tile features: 1 point, 2 line, 3 polygon). */
export interface TileFeature {
  id?: number | string;
  type: 1 | 2 | 3;
  /** Points: a list of positions; lines and polygons: a list of rings or parts. */
  geometry: [number, number][] | [number, number][][];
  tags: Record<string, unknown> | null;
}

export interface TileLimits {
  maxFeatures: number;
  maxBytes: number;
  strategy?: TileStrategy;
}

/** What a limited tile holds and what the limits took away. */
export interface LimitedTile {
  features: TileFeature[];
  bytes: Uint8Array;
  dropped: number;
  coalesced: number;
}

/** A tile still over a limit: no strategy chosen, or nothing left to take away. */
export class TileOverLimit extends Error {
  constructor(
    readonly limit: 'features' | 'bytes',
    readonly count: number,
    readonly bytes: number,
  ) {
    super(`tile over its ${limit} limit`);
  }
}

/** Cells per side of the grid inside a tile (its coordinates with room for the buffer). */
const TILE_GRID = 65_536;

const positions = (f: TileFeature): [number, number][] =>
  f.type === 1 ? (f.geometry as [number, number][]) : (f.geometry as [number, number][][]).flat();

/** Where a feature sits: the centre of its extent, as a Hilbert index inside the tile. */
function curvePosition(f: TileFeature): number {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of positions(f)) {
    w = Math.min(w, x);
    e = Math.max(e, x);
    s = Math.min(s, y);
    n = Math.max(n, y);
  }
  if (w === Infinity) return 0;
  // Tile coordinates run 0–4096 plus a buffer on either side; shift them into 0–65535.
  const cell = (v: number) => Math.max(0, Math.min(65_535, Math.round(v + 16_384)));
  return hilbert(cell((w + e) / 2), cell((s + n) / 2), TILE_GRID);
}

/** Physical size in tile units: polygon area, line length, 0 for points. */
export function featureSize(f: TileFeature): number {
  if (f.type === 1) return 0;
  let total = 0;
  for (const ring of f.geometry as [number, number][][]) {
    let a = 0;
    for (let i = 1; i < ring.length; i++) {
      const [x1, y1] = ring[i - 1];
      const [x2, y2] = ring[i];
      a += f.type === 3 ? x1 * y2 - x2 * y1 : Math.hypot(x2 - x1, y2 - y1);
    }
    // Polygon rings: outer and holes wind opposite ways, so their signed areas subtract.
    total += f.type === 3 ? a / 2 : a;
  }
  return Math.abs(total);
}

/**
 * Takes `count` features away from `features` the strategy's way and returns what is left, in the
 * original order. Densest: the features closest to their predecessor along the Hilbert curve
 * (tippecanoe's measure of spacing), so of a cluster one feature stays. Smallest: the smallest
 * polygons and lines (points all have size 0, and then the densest go first). Drop strategies
 * leave them out; coalesce strategies add each one's geometry to its nearest remaining neighbour
 * along the curve when both are of one kind (point, line, polygon; the neighbour's attributes
 * stay), and drop it otherwise.
 */
export function reduceFeatures(
  features: TileFeature[],
  count: number,
  strategy: TileStrategy,
): { features: TileFeature[]; dropped: number; coalesced: number } {
  if (count <= 0) return { features, dropped: 0, coalesced: 0 };
  const order = features.map((f, i) => ({ i, d: curvePosition(f) })).sort((a, b) => a.d - b.d || a.i - b.i);
  const gap = new Map<number, number>();
  order.forEach((o, k) => gap.set(o.i, k === 0 ? Infinity : o.d - order[k - 1].d));
  const smallest = strategy === 'drop_smallest_as_needed' || strategy === 'coalesce_smallest_as_needed';
  const size = smallest ? features.map(featureSize) : [];
  const victims = features
    .map((_, i) => i)
    .sort((a, b) => (smallest ? size[a] - size[b] : 0) || gap.get(a)! - gap.get(b)! || b - a)
    .slice(0, count);
  const gone = new Set(victims);
  const kept = features.map((f) => ({ ...f, geometry: f.geometry.slice() as TileFeature['geometry'] }));
  let coalesced = 0;
  if (strategy.startsWith('coalesce')) {
    const rank = new Map(order.map((o, k) => [o.i, k]));
    for (const v of victims) {
      const k = rank.get(v)!;
      let target: number | undefined;
      for (let j = k - 1; j >= 0 && target === undefined; j--) if (!gone.has(order[j].i)) target = order[j].i;
      for (let j = k + 1; j < order.length && target === undefined; j++) if (!gone.has(order[j].i)) target = order[j].i;
      if (target === undefined || kept[target].type !== features[v].type) continue;
      (kept[target].geometry as unknown[]).push(...(features[v].geometry as unknown[]));
      coalesced++;
    }
  }
  return {
    features: kept.filter((_, i) => !gone.has(i)),
    dropped: victims.length - coalesced,
    coalesced,
  };
}

/**
 * Applies max_tile_features and max_tile_bytes (tippecanoe's `--maximum-tile-features` and
 * `--maximum-tile-bytes`, the latter on the compressed tile `encode` returns) to one tile. Over a
 * limit without a strategy, or still over it with one feature left, throws TileOverLimit.
 */
export function limitTile(features: TileFeature[], limits: TileLimits, encode: (f: TileFeature[]) => Uint8Array): LimitedTile {
  let current = features;
  let dropped = 0;
  let coalesced = 0;
  const reduce = (target: number) => {
    const r = reduceFeatures(current, current.length - target, limits.strategy!);
    current = r.features;
    dropped += r.dropped;
    coalesced += r.coalesced;
  };
  if (current.length > limits.maxFeatures) {
    if (!limits.strategy) throw new TileOverLimit('features', current.length, 0);
    reduce(limits.maxFeatures);
  }
  for (;;) {
    const bytes = encode(current);
    if (bytes.length <= limits.maxBytes) return { features: current, bytes, dropped, coalesced };
    if (!limits.strategy || current.length <= 1) throw new TileOverLimit('bytes', current.length, bytes.length);
    // Aim a little under the share of features that would fit, then measure again.
    reduce(Math.max(1, Math.min(current.length - 1, Math.floor((current.length * limits.maxBytes * 0.95) / bytes.length))));
  }
}
