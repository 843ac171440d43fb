import type { Datum } from './magazine-types';

/**
 * The envelope of a datum reply (docs/api.md "Datums"; the write replies add moment_size, the
 * create-in-depot template `creatable`); the rest are the fields of its type.
 */
export const DATUM_ENVELOPE = [
  'id',
  'index',
  'resource_uri',
  'moment_id',
  'moment_size',
  'version',
  'depot',
  'content_type',
  'text_repr',
  'favored',
  'creatable',
];

/** Addresses the server adds to file datums; shown by the file editor, never sent as new fields. */
const COMPUTED = ['download_url', 'embed_url'];

/** The fields of a datum's type: the datum without its envelope. */
export function datumFields(datum: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(datum).filter(([k]) => !DATUM_ENVELOPE.includes(k)));
}

/** The fields of `next` that differ from `before` (a PATCH body sends only those). */
export function changedFields(before: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v)));
}

/** A datum's fields as a new datum (duplicate): without envelope and computed fields. */
export const duplicateBody = (datum: Datum) =>
  Object.fromEntries(Object.entries(datumFields(datum)).filter(([k]) => !COMPUTED.includes(k)));
