import type { MultiPolygon, Polygon } from 'geojson';
import { buffer } from '@turf/buffer';
import { difference } from '@turf/difference';
import { featureCollection, type Units } from '@turf/helpers';
import { intersect } from '@turf/intersect';
import { simplify } from '@turf/simplify';
import { union } from '@turf/union';
import type { FrameItems } from '@werkbank/sdk/node';
import { failure, featureOf, guarded, polygonOf, withGeometry, type GeoFeature } from './geometry-items';

/**
 * The CPU-heavy parts of the geometry functions (issue 14 item 4): plain functions of plain data
 * that run in a worker thread of the server's WorkerPool (decision 0026), so a long buffer or
 * union leaves the event loop free. They import packages only, never services; an ApiError they
 * throw (a failure naming the item) reaches the run as it is.
 */

export type Area = GeoFeature<Polygon | MultiPolygon>;

/** Areas merged per union call. */
const UNION_CHUNK = 100;

/** geometry.buffer: a buffer at `distance` around every feature (EPSG:4326); vanished ones are left out. */
export function bufferItems(input: { items: FrameItems; distance: number; unit: Units }): FrameItems {
  const out: FrameItems = [];
  input.items.forEach((_, i) => {
    const f = featureOf(input.items, 'features', i);
    const result = guarded('features', i, () => buffer(f, input.distance, { units: input.unit }));
    if (result?.geometry) out.push(withGeometry(f, result.geometry));
  });
  return out;
}

/** geometry.simplify: every feature simplified with Douglas-Peucker at `tolerance` (coordinate units). */
export function simplifyItems(input: { items: FrameItems; tolerance: number; highQuality: boolean }): FrameItems {
  const { items, tolerance, highQuality } = input;
  return items.map((_, i) => {
    const f = featureOf(items, 'features', i);
    return withGeometry(f, guarded('features', i, () => simplify(f, { tolerance, highQuality, mutate: false })).geometry);
  });
}

/**
 * The areas of `items` (checked as polygons of `port`) merged into one, null for none. A failure
 * of the union names the port, since no single feature is to blame.
 */
export function mergeAreas(input: { items: FrameItems; port: string }): Area | null {
  const areas = input.items.map((_, i) => polygonOf(input.items, input.port, i));
  return merged(areas, input.port);
}

/** Merges groups of areas, one merged area (or null) per group: dissolve's work. */
export function mergeGroups(input: { groups: Area[][]; port: string }): Array<Area | null> {
  return input.groups.map((areas) => merged(areas, input.port));
}

function merged(areas: Area[], port: string): Area | null {
  let acc: Area | null = areas.length === 1 ? areas[0] : null;
  for (let start = 0; areas.length > 1 && start < areas.length; start += UNION_CHUNK) {
    const chunk = areas.slice(start, start + UNION_CHUNK);
    const parts = acc ? [acc, ...chunk] : chunk;
    try {
      acc = parts.length === 1 ? parts[0] : ((union(featureCollection(parts)) as Area | null) ?? acc);
    } catch (e) {
      throw failure('union_failed', { port, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return acc;
}

/**
 * Every area of port a overlaid with `mask` (the areas of b merged): the part inside it
 * (intersection) or outside it (difference); areas that come out empty are left out.
 */
export function overlayItems(input: { a: FrameItems; mask: Area; op: 'intersection' | 'difference' }): FrameItems {
  const { a, mask, op } = input;
  const out: FrameItems = [];
  a.forEach((_, i) => {
    const f = polygonOf(a, 'a', i);
    const pair = featureCollection([f, mask]);
    const result = guarded('a', i, () => (op === 'intersection' ? intersect(pair) : difference(pair)));
    if (result) out.push(withGeometry(f, result.geometry));
  });
  return out;
}

/** The tasks by name, for GeometryCompute. */
export const GEOMETRY_TASKS = { bufferItems, simplifyItems, mergeAreas, mergeGroups, overlayItems };
export type GeometryTaskName = keyof typeof GEOMETRY_TASKS;
