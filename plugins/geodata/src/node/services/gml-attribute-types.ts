import type { GmlFeature } from './gml-read';
import type { AttributeKind, GmlSchema } from './gml-schema';

/** A value in the kind its schema declares; values that do not fit stay as they are. */
function asKind(value: unknown, kind: AttributeKind): unknown {
  if (Array.isArray(value)) return value.map((v) => asKind(v, kind));
  if (value === null || typeof value === 'object') return value;
  if (kind === 'string') return String(value);
  const text = String(value).trim();
  if (text === '') return null;
  if (kind === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? n : value;
  }
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return value;
}

/** Scalars of a value (the items of a repeated element). */
const scalars = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/**
 * Gives every attribute of a feature type one kind (issue 14 item 6): the kind the schema declares
 * for it when there is a schema (so "056" stays text and 756 of a text column becomes "756"),
 * otherwise text for all its values as soon as one value is text that is not a number (a column
 * of postal codes with "01067" keeps 10115 as "10115"). Numbers read as text keep their exact
 * writing (readGml makes numbers only of canonical notation). Changes the features in place.
 */
export function typeAttributes(features: GmlFeature[], schema?: GmlSchema): void {
  const textual = new Map<string, Set<string>>();
  for (const f of features) {
    const declared = schema?.get(f.featureType ?? '');
    for (const [name, value] of Object.entries(f.properties)) {
      const kind = declared?.get(name);
      if (kind) f.properties[name] = asKind(value, kind);
      else if (scalars(value).some((v) => typeof v === 'string' && v !== '')) {
        const names = textual.get(f.featureType ?? '') ?? new Set<string>();
        textual.set(f.featureType ?? '', names.add(name));
      }
    }
  }
  for (const f of features) {
    const names = textual.get(f.featureType ?? '');
    if (!names) continue;
    for (const name of names) {
      const value = f.properties[name];
      if (name in f.properties && !schema?.get(f.featureType ?? '')?.has(name)) f.properties[name] = asText(value);
    }
  }
}

const asText = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(asText) : typeof value === 'number' ? String(value) : value;
