import type { Datum } from './magazine-types';

/** The envelope of every datum (docs/api.md "Datums"); the rest are the fields of its type. */
export const DATUM_ENVELOPE = ['id', 'index', 'resource_uri', 'moment_id', 'version', 'depot', 'content_type', 'text_repr'];

/** Fields the server computes (file datums, write replies); a new datum does not send them. */
const COMPUTED = ['download_url', 'embed_url', 'moment_size'];

/** The fields of a datum's type: the datum without its envelope. */
export function datumFields(datum: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(datum).filter(([k]) => !DATUM_ENVELOPE.includes(k) && k !== 'moment_size'));
}

/**
 * What a datum editor edits (decision 0012): a datum with one field gives that field's value (a
 * string's `value`, a colour's `hex`), so the editors of simple types work on plain values; a
 * datum with several fields gives the fields as an object.
 */
export function editorValue(fields: Record<string, unknown>): unknown {
  const keys = Object.keys(fields);
  return keys.length === 1 ? fields[keys[0]] : fields;
}

/** The inverse of editorValue: the datum fields after the editor changed `value`. */
export function fieldsFromEditor(fields: Record<string, unknown>, value: unknown): Record<string, unknown> {
  const keys = Object.keys(fields);
  if (keys.length === 1) return { [keys[0]]: value };
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : fields;
}

/** The fields of `next` that differ from `before` (a PATCH body sends only those). */
export function changedFields(before: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v)));
}

/** A datum's fields as a new datum (duplicate): without envelope and computed fields. */
export const duplicateBody = (datum: Datum) =>
  Object.fromEntries(Object.entries(datumFields(datum)).filter(([k]) => !COMPUTED.includes(k)));
