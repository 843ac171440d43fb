import type { DatumFields, JsonSchema } from '@werkbank/sdk';
import { datumFields, NUMBER } from './schema-parts';

/** A GeoJSON position: at least x and y (RFC 7946 §3.1.1). */
const POSITION: JsonSchema = { type: 'array', items: NUMBER, minItems: 2 };
const nested = (depth: number): JsonSchema => (depth === 0 ? POSITION : { type: 'array', items: nested(depth - 1) });

/** Coordinates by geometry type: the nesting depth of positions (RFC 7946 §3.1). */
const COORDINATES: Record<string, JsonSchema> = {
  Point: nested(0),
  MultiPoint: nested(1),
  LineString: nested(1),
  MultiLineString: nested(2),
  Polygon: nested(2),
  MultiPolygon: nested(3),
};

export const GEOMETRY_TYPES = [...Object.keys(COORDINATES), 'GeometryCollection'];

const whenType = (type: string, then: JsonSchema): JsonSchema => ({
  if: { required: ['type'], properties: { type: { const: type } } },
  then,
});

/**
 * A GeoJSON geometry object (no `type` keyword, so the user of the definition says whether null is
 * allowed). It needs a type and coordinates of the right nesting (spec 001 §5.2); the number of
 * positions is not checked, so an editor may save a line while it is being drawn.
 */
const GEOMETRY: JsonSchema = {
  required: ['type'],
  properties: { type: { enum: GEOMETRY_TYPES }, bbox: { type: 'array', items: NUMBER } },
  allOf: [
    ...Object.entries(COORDINATES).map(([type, coordinates]) =>
      whenType(type, { required: ['coordinates'], properties: { coordinates } }),
    ),
    whenType('GeometryCollection', {
      required: ['geometries'],
      properties: { geometries: { type: 'array', items: { type: 'object', $ref: '#/$defs/geometry' } } },
    }),
  ],
};

/** feature: `{feature: {type: 'Feature', geometry: geometry | null, properties: object | null}}`. */
export const FEATURE_SCHEMA: JsonSchema = {
  ...datumFields({
    feature: {
      type: 'object',
      required: ['type', 'geometry', 'properties'],
      properties: {
        type: { const: 'Feature' },
        id: { type: ['string', 'number'] },
        geometry: { type: ['object', 'null'], $ref: '#/$defs/geometry' },
        properties: { type: ['object', 'null'] },
        bbox: { type: 'array', items: NUMBER },
      },
    },
  }),
  $defs: { geometry: GEOMETRY },
};

export const FEATURE_TEMPLATE: DatumFields = { feature: { type: 'Feature', geometry: null, properties: {} } };

/** "Point · name: Haus, height: 12" — the geometry type and the first three properties. */
export function featureRepr(fields: DatumFields): string {
  const feature = (fields.feature ?? {}) as { geometry?: { type?: unknown } | null; properties?: unknown };
  const geometry = typeof feature.geometry?.type === 'string' ? feature.geometry.type : '–';
  // Every datum of a bulk write gets one: the first three keys only, no entries of all of them.
  const props =
    feature.properties && typeof feature.properties === 'object' ? (feature.properties as Record<string, unknown>) : {};
  let shown = '';
  let n = 0;
  for (const k of Object.keys(props)) {
    if (n === 3) break;
    const v = props[k];
    shown += `${n++ ? ', ' : ''}${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`;
  }
  return n ? `${geometry} · ${shown}` : geometry;
}
