import { ApiError } from '@werkbank/sdk/node';

/** What a `crs` member's name says of WGS 84 in longitude, latitude order (EPSG:4326 or CRS84, any spelling). */
const WGS84_NAME = /(^|[:/])(4326|CRS84)$/i;

/**
 * Depots store features in WGS 84 longitude, latitude (EPSG:4326, RFC 7946 §4; decision 0035):
 * a feature datum whose `crs` member (GeoJSON 2008) names another CRS is refused with
 * `depot_crs`, asking to reproject it first; a member naming WGS 84 is dropped, since RFC 7946
 * has none. Other datums are returned as they are.
 */
export function depotFeatureFields(fields: Record<string, unknown>): Record<string, unknown> {
  const feature = fields.feature as Record<string, unknown> | undefined;
  if (!feature || typeof feature !== 'object' || feature.crs === undefined || feature.crs === null) return fields;
  const name = (feature.crs as { properties?: { name?: unknown } }).properties?.name;
  const text = typeof name === 'string' ? name.trim() : '';
  if (!WGS84_NAME.test(text)) {
    const code = /EPSG\D*(\d+)$/i.exec(text)?.[1];
    throw ApiError.badRequest(
      'depot_crs',
      'magazine:errors.depot_crs',
      { crs: code ? `EPSG:${code}` : text || '?' },
      'feature.crs',
    );
  }
  const { crs: _crs, ...rest } = feature;
  void _crs;
  return { ...fields, feature: rest };
}
