import type { AttributeFilter, LayerAttribute, SelectionField } from './layers-api';
import { FILTER_TYPES, SELECTION_FIELD_TYPES } from './layer-validation';

export { FILTER_TYPES, SELECTION_FIELD_TYPES };
export type FilterType = (typeof FILTER_TYPES)[number];

/**
 * spec 001 §5.1: a display name from an attribute name — underscores become spaces, every word
 * starts upper-case, and the word "id" is written "ID" (`tree_id` → `Tree ID`).
 */
export function titleCase(name: string): string {
  return name
    .split('_')
    .filter((w) => w !== '')
    .map((w) => (w.toLowerCase() === 'id' ? 'ID' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

/** A new selection field: key and display name empty (spec 001 §5.1), type text, visible. */
export function newSelectionField(): SelectionField {
  return { key: '', displayName: '', type: 'text', visible: true };
}

/**
 * 'Add all attributes' (spec 001 §5.1): fields with an empty key are removed, then every
 * attribute not yet a field is appended with its title-cased name, in the attributes' order.
 */
export function addAllAttributes(fields: readonly SelectionField[], attributes: readonly LayerAttribute[]): SelectionField[] {
  const kept = fields.filter((f) => f.key.trim() !== '');
  const keys = new Set(kept.map((f) => f.key));
  const added = attributes
    .filter((a) => a.name !== '' && !keys.has(a.name))
    .map((a) => ({ key: a.name, displayName: titleCase(a.name), type: 'text', visible: true }));
  return [...kept, ...added];
}

/** The arguments a filter of `type` starts with (changing the type resets them, spec 001 §2.2). */
export function defaultFilterArguments(type: FilterType): Record<string, unknown> {
  if (type === 'allowed-values') return { allowed_values: [] };
  if (type === 'min-max-value') return { min_value: null, max_value: null };
  return { time_min: null, time_max: null };
}

/** A new attribute filter: allowed values on the first attribute (spec 001 §2.2). */
export function newAttributeFilter(attributes: readonly LayerAttribute[]): AttributeFilter {
  const key = attributes[0]?.name ?? '';
  return {
    attribute_key: key,
    display_name: key ? titleCase(key) : '',
    visible: true,
    filter: { filter_type: 'allowed-values', filter_arguments: defaultFilterArguments('allowed-values') },
  };
}

/** The filter with another type; its arguments start over. The same type keeps them. */
export function withFilterType(filter: AttributeFilter, type: FilterType): AttributeFilter {
  if (filter.filter.filter_type === type) return filter;
  return { ...filter, filter: { filter_type: type, filter_arguments: defaultFilterArguments(type) } };
}

/** A suggested value as an allowed value: strings as they are, numbers and booleans kept, others as JSON text. */
export function allowedValueOf(v: unknown): string | number | boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}
