import { hasZoomSettings, ZOOM_KEYS, ZOOM_MAX, ZOOM_MIN } from './layer-types';

/** A refused value: the translation key of the reason, its parameters and the field it names. */
export interface LayerProblem {
  key: string;
  field: string;
  params?: Record<string, unknown>;
}

/** spec 001 §3.1 selection field types. */
export const SELECTION_FIELD_TYPES = [
  'title',
  'text',
  'text_only',
  'button',
  'frame_button',
  'link',
  'integer',
  'float_one_decimal',
  'float_two_decimals',
  'image',
  'image_header',
  'image_only',
  'markdown',
  'markdown_only',
  'open_url',
] as const;

/** spec 001 §3.1 attribute filter types. */
export const FILTER_TYPES = ['allowed-values', 'min-max-value', 'temporal-bounds'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `attr` with its zoom keys (spec 001 §3.1, §5.1, §9): nulls are removed, the rest are integers
 * 0–24, minimum not above maximum, and only on types with zoom settings. Returns the cleaned attr.
 */
export function checkAttr(attr: unknown, type: string): { attr?: Record<string, unknown>; problem?: LayerProblem } {
  if (attr === null || attr === undefined) return { attr: {} };
  if (!isObject(attr)) return { problem: { key: 'layers:errors.attr_object', field: 'attr' } };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attr)) if (v !== null) out[k] = v;
  for (const key of ZOOM_KEYS) {
    if (!(key in out)) continue;
    if (!hasZoomSettings(type)) return { problem: { key: 'layers:errors.zoom_type', field: `attr.${key}`, params: { type } } };
    const v = out[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < ZOOM_MIN || v > ZOOM_MAX)
      return { problem: { key: 'layers:errors.zoom_range', field: `attr.${key}`, params: { min: ZOOM_MIN, max: ZOOM_MAX } } };
  }
  for (const [lo, hi] of [
    ['min_zoom', 'max_zoom'],
    ['min_load_level', 'max_load_level'],
  ] as const) {
    if (typeof out[lo] === 'number' && typeof out[hi] === 'number' && (out[lo] as number) > (out[hi] as number))
      return { problem: { key: 'layers:errors.zoom_order', field: `attr.${lo}` } };
  }
  return { attr: out };
}

/** spec 001 §3.1 Selection field: key, displayName, type, visible, unit. */
export function checkSelectionFields(v: unknown): LayerProblem | undefined {
  if (!Array.isArray(v)) return { key: 'layers:errors.list', field: 'selection_fields' };
  for (const [i, f] of v.entries()) {
    const field = `selection_fields[${i}]`;
    if (!isObject(f)) return { key: 'layers:errors.selection_field', field };
    if (typeof f.key !== 'string' || typeof (f.displayName ?? '') !== 'string')
      return { key: 'layers:errors.selection_field', field };
    if (!(SELECTION_FIELD_TYPES as readonly string[]).includes(String(f.type)))
      return { key: 'layers:errors.selection_type', field: `${field}.type`, params: { type: String(f.type) } };
    if (f.visible !== undefined && typeof f.visible !== 'boolean') return { key: 'layers:errors.selection_field', field };
    if (f.unit !== undefined && f.unit !== null && typeof f.unit !== 'string')
      return { key: 'layers:errors.selection_field', field };
  }
  return undefined;
}

const isNumberOrNull = (v: unknown) => v === null || v === undefined || (typeof v === 'number' && Number.isFinite(v));
const isTimeOrNull = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && !Number.isNaN(Date.parse(v)));

/** spec 001 §3.1 Attribute filter with its three types and their arguments. */
export function checkAttributeFilters(v: unknown): LayerProblem | undefined {
  if (!Array.isArray(v)) return { key: 'layers:errors.list', field: 'attribute_filters' };
  for (const [i, f] of v.entries()) {
    const field = `attribute_filters[${i}]`;
    if (!isObject(f) || typeof f.attribute_key !== 'string' || !isObject(f.filter))
      return { key: 'layers:errors.attribute_filter', field };
    const type = String(f.filter.filter_type);
    const args = f.filter.filter_arguments ?? {};
    if (!(FILTER_TYPES as readonly string[]).includes(type))
      return { key: 'layers:errors.filter_type', field: `${field}.filter.filter_type`, params: { type } };
    const bad = { key: 'layers:errors.filter_arguments', field: `${field}.filter.filter_arguments` };
    if (!isObject(args)) return bad;
    if (type === 'allowed-values' && args.allowed_values !== undefined && !Array.isArray(args.allowed_values)) return bad;
    if (type === 'min-max-value' && !(isNumberOrNull(args.min_value) && isNumberOrNull(args.max_value))) return bad;
    if (type === 'temporal-bounds' && !(isTimeOrNull(args.time_min) && isTimeOrNull(args.time_max))) return bad;
  }
  return undefined;
}

/** A 2D bbox [west, south, east, north] in degrees, or null. */
export function checkBbox(v: unknown): LayerProblem | undefined {
  if (v === null || v === undefined) return undefined;
  const ok =
    Array.isArray(v) &&
    v.length === 4 &&
    v.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    v[0] <= v[2] &&
    v[1] <= v[3];
  return ok ? undefined : { key: 'layers:errors.bbox', field: 'bbox' };
}

/** time_min not after time_max. */
export function checkTimeRange(min: unknown, max: unknown): LayerProblem | undefined {
  if (min === null || min === undefined || max === null || max === undefined) return undefined;
  return new Date(String(min)).getTime() > new Date(String(max)).getTime()
    ? { key: 'layers:errors.time_order', field: 'time_min' }
    : undefined;
}
