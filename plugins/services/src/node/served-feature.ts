/** A GeoJSON feature as the services give it: in EPSG:4326, with the datum's index as `id` when it has none. */
export interface ServedFeature {
  type: 'Feature';
  id: string | number;
  geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  properties: Record<string, unknown> | null;
  [member: string]: unknown;
}

/**
 * The feature datum `index` holds in its fields (its `feature` field), as the services give it;
 * undefined when it holds none. Used where the fields are parsed: on the thread that reads them, or
 * in the worker that cuts vector tiles from their text.
 */
export function servedFeature(index: number, fields: Record<string, unknown>): ServedFeature | undefined {
  const feature = fields.feature as Record<string, unknown> | undefined;
  if (!feature || typeof feature !== 'object') return undefined;
  const { type: _, id, geometry, properties, ...rest } = feature;
  return {
    type: 'Feature',
    id: typeof id === 'string' || typeof id === 'number' ? id : index,
    geometry: (geometry ?? null) as ServedFeature['geometry'],
    properties: (properties ?? null) as ServedFeature['properties'],
    ...rest,
  };
}
