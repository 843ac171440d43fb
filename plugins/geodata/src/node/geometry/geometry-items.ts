import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import {
  ApiError,
  itemsOf,
  paramOf as sdkParamOf,
  type FrameItems,
  type FunctionInputs,
  type FunctionRunContext,
} from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import { failureOf } from '../failure';

/** Items handled between two checks of the abort signal and progress reports. */
export const CHUNK = 500;

/** The reasons the geometry functions fail with: one per message, so that the type checker refuses a reason without one. */
export type GeometryFailure = keyof typeof en.errors;

/** The reasons a filter expression is refused with: the messages `filter_<code>`. */
export type FilterFailure = GeometryFailure extends infer K ? (K extends `filter_${infer C}` ? C : never) : never;

/** A failure of a geometry function, with its reason in German and English (`geodata-geometry:errors.*`). */
export const failure = failureOf<GeometryFailure>('geodata-geometry');

/** The items linked to an input port; [] when it is unset (the SDK's reader). */
export { itemsOf };

/** The `value` of a one-item parameter port; `fallback` when unset or an empty text (a failure when there is none). */
export function paramOf(inputs: FunctionInputs, port: string, fallback?: unknown): unknown {
  return sdkParamOf(inputs, port, fallback, { emptyIsUnset: true });
}

/** A finite number parameter; a failure naming the port otherwise. */
export function numberParam(inputs: FunctionInputs, port: string, fallback?: number): number {
  const value = paramOf(inputs, port, fallback);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw failure('not_a_number', { port });
  return value;
}

export type GeoFeature<G extends Geometry = Geometry> = Feature<G, Record<string, unknown>>;

/**
 * The GeoJSON feature of item `i` of `port`, with its properties as an object ({} for null). A
 * failure naming the item when it is no feature or has no geometry.
 */
export function featureOf(items: FrameItems, port: string, i: number): GeoFeature {
  const feature = items[i]?.feature as GeoFeature | undefined;
  if (!feature || typeof feature !== 'object' || feature.type !== 'Feature') {
    throw failure('not_a_feature', { item: `${port}[${i}]` });
  }
  const geometry = feature.geometry as Geometry | null;
  if (!geometry || typeof geometry.type !== 'string') throw failure('no_geometry', { item: `${port}[${i}]` });
  if (!wellFormed(geometry)) throw failure('malformed_geometry', { item: `${port}[${i}]`, type: String(geometry.type) });
  return { ...feature, properties: feature.properties ?? {} };
}

/** Nesting depth of positions by geometry type (RFC 7946 §3.1). */
const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

const isPosition = (p: unknown) =>
  Array.isArray(p) && p.length >= 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));

/** Whether the coordinates nest as the type says and every position is finite numbers. */
function wellFormed(geometry: Geometry): boolean {
  if (geometry.type === 'GeometryCollection')
    return Array.isArray(geometry.geometries) && geometry.geometries.every((g) => g && wellFormed(g));
  const depth = DEPTH[geometry.type];
  const nests = (value: unknown, d: number): boolean =>
    d === 0 ? isPosition(value) : Array.isArray(value) && value.every((v) => nests(v, d - 1));
  return depth !== undefined && nests((geometry as { coordinates?: unknown }).coordinates, depth);
}

/** Like featureOf, but a failure unless the geometry is a Polygon or MultiPolygon. */
export function polygonOf(items: FrameItems, port: string, i: number): GeoFeature<Polygon | MultiPolygon> {
  const feature = featureOf(items, port, i);
  const type = feature.geometry.type;
  if (type !== 'Polygon' && type !== 'MultiPolygon') throw failure('not_a_polygon', { item: `${port}[${i}]`, type });
  return feature as GeoFeature<Polygon | MultiPolygon>;
}

/**
 * Runs `fn` on the wrapped turf call; a turf failure (e.g. coordinates it cannot handle) becomes a
 * failure naming the item instead of a bare library error.
 */
export function guarded<T>(port: string, i: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw failure('invalid_geometry', { item: `${port}[${i}]`, reason: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * Calls `fn` for 0..n-1 in order. Before each chunk it throws the signal's reason once the run is
 * aborted, reports progress and lets other work in; `fn` returning undefined drops the position.
 * Progress runs through `span` of the whole run, so several loops of one run report it rising.
 */
export async function eachChunked<T>(
  n: number,
  ctx: FunctionRunContext,
  fn: (i: number) => T | undefined,
  span: [number, number] = [0, 1],
): Promise<T[]> {
  const report = (f: number) => ctx.progress(span[0] + f * (span[1] - span[0]));
  const out: T[] = [];
  for (let start = 0; start < n; start += CHUNK) {
    ctx.signal.throwIfAborted();
    if (start > 0) {
      report(start / n);
      await new Promise((resolve) => setImmediate(resolve));
      ctx.signal.throwIfAborted();
    }
    const end = Math.min(n, start + CHUNK);
    for (let i = start; i < end; i++) {
      const r = fn(i);
      if (r !== undefined) out.push(r);
    }
  }
  report(1);
  return out;
}

/** A feature datum (`{feature}`) for a frame. */
export const datum = (feature: Feature): Record<string, unknown> => ({ feature });

/** A datum of `source` (its id, properties and CRS label) with a new geometry and no stale bbox. */
export function withGeometry(source: GeoFeature, geometry: Geometry): Record<string, unknown> {
  const feature: Feature & { crs?: unknown } = { type: 'Feature', geometry, properties: source.properties };
  if (source.id !== undefined) feature.id = source.id;
  // The new geometry is in the CRS of the old one (decision 0035).
  const crs = (source as { crs?: unknown }).crs;
  if (crs !== undefined) feature.crs = crs;
  return datum(feature);
}
