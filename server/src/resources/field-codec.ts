import { ApiError, parseRef, type FieldSpec, type ResourceDefinition } from '@werkbank/sdk/node';

export function columnOf(name: string, spec: FieldSpec): string {
  return spec.column ?? name;
}

export function refPath(spec: FieldSpec): string {
  return spec.refPath ?? `/api/v1/${spec.refKind}/`;
}

const bad = (field: string, key: string, params: Record<string, unknown> = {}) =>
  ApiError.badRequest('invalid_field', key, { field, ...params }, field);

/** Validates a client value for `field` and returns the column value; throws 400 naming the field. */
export function decodeField(field: string, spec: FieldSpec, value: unknown): unknown {
  // spec 002 §5: an empty date is sent as null ("no expiry").
  const empty = spec.type === 'datetime' && typeof value === 'string' && !value.trim();
  if (value === null || (empty && spec.nullable)) {
    if (spec.nullable) return null;
    throw bad(field, 'errors.field_not_nullable');
  }
  let out: unknown;
  switch (spec.type) {
    case 'string':
    case 'text':
      if (typeof value !== 'string') throw bad(field, 'errors.field_type', { type: 'string' });
      if (spec.maxLength && value.length > spec.maxLength) throw bad(field, 'errors.field_too_long', { max: spec.maxLength });
      if (spec.required && !value.trim()) throw bad(field, 'errors.field_required');
      if (spec.enum && !spec.enum.includes(value)) throw bad(field, 'errors.field_enum', { values: spec.enum.join(', ') });
      out = value;
      break;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw bad(field, 'errors.field_type', { type: 'integer' });
      out = value;
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(field, 'errors.field_type', { type: 'number' });
      out = value;
      break;
    case 'bool':
      if (typeof value !== 'boolean') throw bad(field, 'errors.field_type', { type: 'boolean' });
      out = value;
      break;
    case 'datetime': {
      const d = typeof value === 'string' ? new Date(value) : undefined;
      if (!d || Number.isNaN(d.getTime())) throw bad(field, 'errors.field_type', { type: 'date-time' });
      out = d;
      break;
    }
    case 'json':
      out = JSON.stringify(value);
      break;
    case 'ref': {
      const id = parseRef(value, refPath(spec));
      if (id === undefined) throw bad(field, 'errors.field_ref', { path: refPath(spec) });
      out = id;
      break;
    }
  }
  if (spec.validate) {
    const key = spec.validate(value);
    if (key) throw bad(field, key);
  }
  return out;
}

/** Converts a stored value into its reply form. */
export function encodeField(spec: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (spec.type) {
    case 'datetime':
      return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
    case 'ref':
      return `${refPath(spec)}${value}/`;
    case 'int':
    case 'number':
      return Number(value);
    default:
      return value;
  }
}

/** Parses a query-string filter value for a field (exact match). */
export function decodeFilter(field: string, spec: FieldSpec, raw: string): unknown {
  switch (spec.type) {
    case 'int':
    case 'number': {
      const n = Number(raw);
      if (!raw.trim() || !Number.isFinite(n)) throw bad(field, 'errors.field_type', { type: 'number' });
      return n;
    }
    case 'bool':
      if (raw !== 'true' && raw !== 'false') throw bad(field, 'errors.field_type', { type: 'boolean' });
      return raw === 'true';
    case 'ref': {
      const id = parseRef(raw, refPath(spec));
      if (id === undefined) throw bad(field, 'errors.field_ref', { path: refPath(spec) });
      return id;
    }
    case 'datetime':
      return decodeField(field, spec, raw);
    default:
      return raw;
  }
}

export function basePath(def: ResourceDefinition): string {
  return def.path ?? `/api/v1/${def.kind}/`;
}
