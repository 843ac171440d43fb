import type { DatumFields } from '@werkbank/sdk/node';
import { failure } from './vector-params';

/** The nesting depth of positions in each geometry type's coordinates (RFC 7946 §3.1). */
const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

export const isGeometryType = (type: unknown): boolean =>
  typeof type === 'string' && (type in DEPTH || type === 'GeometryCollection');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A GeoJSON feature (RFC 7946 §3.2) as a feature datum `{feature: {type, geometry, properties}}`
 * (id and bbox kept when valid). Throws `feature_invalid` for anything that is not a Feature and
 * `geometry_invalid` for a malformed geometry, both naming the feature `index` (from 0).
 */
export function featureDatum(value: unknown, index: number): DatumFields {
  if (!isObject(value) || value.type !== 'Feature') {
    const type = isObject(value) ? String(value.type ?? '–') : Array.isArray(value) ? 'array' : typeof value;
    throw failure('feature_invalid', { index, type });
  }
  if (!('geometry' in value)) throw failure('geometry_missing', { index });
  const geometry = value.geometry === null ? null : checkGeometry(value.geometry, index);
  const properties = value.properties === undefined || value.properties === null ? {} : value.properties;
  if (!isObject(properties)) throw failure('properties_invalid', { index });
  const feature: Record<string, unknown> = { type: 'Feature', geometry, properties };
  if (typeof value.id === 'string' || typeof value.id === 'number') feature.id = value.id;
  if (Array.isArray(value.bbox) && value.bbox.every((n) => typeof n === 'number')) feature.bbox = value.bbox;
  return { feature };
}

/** The geometry, checked: a known type, coordinates nested to its depth, positions of 2 or more finite numbers. */
export function checkGeometry(geometry: unknown, index: number): Record<string, unknown> {
  if (!isObject(geometry) || !isGeometryType(geometry.type)) {
    const type = isObject(geometry) ? String(geometry.type ?? '–') : typeof geometry;
    throw failure('geometry_invalid', { index, type });
  }
  const type = geometry.type as string;
  if (type === 'GeometryCollection') {
    if (!Array.isArray(geometry.geometries)) throw failure('geometry_invalid', { index, type });
    for (const part of geometry.geometries) checkGeometry(part, index);
  } else if (!nested(geometry.coordinates, DEPTH[type])) {
    throw failure('coordinates_invalid', { index, type });
  }
  return geometry;
}

function nested(c: unknown, depth: number): boolean {
  if (!Array.isArray(c)) return false;
  if (depth === 0) return c.length >= 2 && c.every((v) => typeof v === 'number' && Number.isFinite(v));
  return c.every((part) => nested(part, depth - 1));
}
