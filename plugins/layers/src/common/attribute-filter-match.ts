/**
 * The layer's attribute filters applied to features (spec 001 §3.1, decision 0091): the viewer sends
 * the filters a visitor set (`wb_filter`, JSON) with its WMS requests, and the map service draws and
 * answers only the features they accept. One rule for the server that applies it and the viewer
 * that writes the parameter.
 */
import type { AttributeFilter } from './layers-api';
import { checkAttributeFilters, type LayerProblem } from './layer-validation';

/** The WMS vendor parameter that carries active attribute filters. */
export const ATTRIBUTE_FILTER_PARAM = 'wb_filter';

/** At most this many filters in one request. */
const MAX_FILTERS = 20;

/** The parameter's value for active filters (empty: none). */
export function attributeFilterParam(filters: readonly AttributeFilter[]): string {
  return filters.length ? JSON.stringify(filters.map((f) => ({ attribute_key: f.attribute_key, filter: f.filter }))) : '';
}

/**
 * The active filters of a request, checked against the layer's own: each must name an attribute
 * the layer offers a filter for, with the same type; a problem otherwise.
 */
export function parseAttributeFilterParam(
  raw: string,
  declared: readonly AttributeFilter[],
): { filters: AttributeFilter[] } | { problem: LayerProblem } {
  const bad = { problem: { key: 'layers:errors.filter_param', field: ATTRIBUTE_FILTER_PARAM } };
  if (!raw.trim()) return { filters: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return bad;
  }
  if (!Array.isArray(value) || value.length > MAX_FILTERS) return bad;
  const problem = checkAttributeFilters(value);
  if (problem) return bad;
  const filters = value as AttributeFilter[];
  for (const f of filters)
    if (!declared.some((d) => d.attribute_key === f.attribute_key && d.filter.filter_type === f.filter.filter_type)) return bad;
  return { filters };
}

const time = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? new Date(v).getTime() : Number.NaN);

/** Whether a feature's properties pass one filter; a feature without the attribute does not. */
function accepts(properties: Record<string, unknown>, f: AttributeFilter): boolean {
  const value = properties[f.attribute_key];
  if (value === undefined || value === null || value === '') return false;
  const args = f.filter.filter_arguments ?? {};
  switch (f.filter.filter_type) {
    case 'allowed-values': {
      const allowed = Array.isArray(args.allowed_values) ? args.allowed_values.map(String) : [];
      return allowed.includes(String(value));
    }
    case 'min-max-value': {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) return false;
      const min = typeof args.min_value === 'number' ? args.min_value : -Infinity;
      const max = typeof args.max_value === 'number' ? args.max_value : Infinity;
      return n >= min && n <= max;
    }
    case 'temporal-bounds': {
      const t = time(value);
      if (Number.isNaN(t)) return false;
      const min = args.time_min ? time(args.time_min) : -Infinity;
      const max = args.time_max ? time(args.time_max) : Infinity;
      return t >= min && t <= max;
    }
    default:
      return true;
  }
}

/** Whether a feature passes every active filter. */
export function acceptsFeature(
  properties: Record<string, unknown> | null | undefined,
  filters: readonly AttributeFilter[],
): boolean {
  return filters.every((f) => accepts(properties ?? {}, f));
}
