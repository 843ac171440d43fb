import type { JsonSchema } from '@werkbank/sdk';

/**
 * The datum fields of a type: an object with exactly these properties (a typo is caught and named,
 * `additionalProperties: false`). All are required unless `optional` names them.
 */
export function datumFields(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** `{value: <schema>}` — the shape of most simple types. */
export const valueFields = (value: JsonSchema): JsonSchema => datumFields({ value });

export const STRING: JsonSchema = { type: 'string' };
export const NUMBER: JsonSchema = { type: 'number' };
export const INTEGER: JsonSchema = { type: 'integer' };
export const BOOLEAN: JsonSchema = { type: 'boolean' };
export const OBJECT: JsonSchema = { type: 'object' };
export const STRING_LIST: JsonSchema = { type: 'array', items: STRING };

/** An integer of at least `min`. */
export const countOf = (min: number): JsonSchema => ({ type: 'integer', minimum: min });

/** Exactly `n` numbers, e.g. a bbox `[west, south, east, north (, bottom, top)]`. */
export const numbers = (n: number): JsonSchema => ({ type: 'array', items: NUMBER, minItems: n, maxItems: n });

export const BBOX = numbers(4);
export const BBOX3D = numbers(6);

/** `#rrggbb` or `#rrggbbaa` (spec 001 §3.6 colour: hex). */
/** A depot's address, `/api/v1/depot/{id}/`, or '' for none yet. */
export const DEPOT_ADDRESS: JsonSchema = {
  type: 'string',
  pattern: '^(/api/v1/depot/[1-9][0-9]{0,8}/)?$',
  examples: ['/api/v1/depot/3/'],
};

export const HEX_COLOR: JsonSchema = {
  type: 'string',
  pattern: '^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
  examples: ['#ff8800'],
};

/**
 * An ISO 8601 date and time, e.g. `2026-05-01T12:00:00Z`. The server defines the `date-time`
 * format itself: date, time (seconds and fraction optional), optional offset, and Date.parse must
 * accept it.
 */
export const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time', examples: ['2026-05-01T12:00:00Z'] };

/** Numbers as they appear in a datum, shown as text in a repr. */
export const listText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : '');
