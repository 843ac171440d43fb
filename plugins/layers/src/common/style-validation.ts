import type { LayerProblem } from './layer-validation';
import {
  BILLBOARD_ICONS,
  COMPARISON_OPS,
  CONTOUR_TYPES,
  dashArray,
  MARKS,
  SYMBOL_TYPES,
  type LayerStyle,
  type StyleFilter,
  type StyleSymbol,
} from './style-model';

/** At most this many rules in a style, and this deep a filter. */
export const MAX_RULES = 100;
export const MAX_FILTER_DEPTH = 8;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const problem = (key: string, field: string, params?: Record<string, unknown>): LayerProblem => ({
  key: `layers:errors.${key}`,
  field,
  ...(params ? { params } : {}),
});

/** A number field of a symbol: absent, null, or a number in [min, max] (an integer when `int`). */
function checkNumber(s: Record<string, unknown>, key: string, field: string, min: number, max: number, int = false) {
  const v = s[key];
  if (v === undefined || v === null) return undefined;
  if (!isNum(v) || v < min || v > max || (int && !Number.isInteger(v)))
    return problem(int ? 'style_integer' : 'style_number', `${field}.${key}`, { min, max });
  return undefined;
}

function checkSymbol(s: unknown, field: string, hover: boolean): LayerProblem | undefined {
  if (!isObject(s)) return problem('style_symbol', field);
  if (!SYMBOL_TYPES.includes(s.symbol_type as never))
    return problem('style_symbol_type', `${field}.symbol_type`, { type: String(s.symbol_type) });
  for (const key of ['fill', 'stroke', 'text_fill', 'text_halo_fill']) {
    const v = s[key];
    if (v !== undefined && v !== '' && (typeof v !== 'string' || !HEX.test(v)))
      return problem('style_colour', `${field}.${key}`, { value: String(v) });
  }
  for (const key of ['fill_opacity', 'stroke_opacity', 'graphic_opacity']) {
    const p = checkNumber(s, key, field, 0, 1);
    if (p) return p;
  }
  const checks: Array<[string, number, number, boolean?]> = [
    ['stroke_width', 0, 100],
    ['circle_radius', 0, 200],
    ['graphic_scale', 0, 10],
    ['text_dx', -500, 500],
    ['text_dy', -500, 500],
    ['text_size', 1, 200, true],
    ['text_halo_radius', 0, 50, true],
  ];
  for (const [key, min, max, int] of checks) {
    const p = checkNumber(s, key, field, min, max, int);
    if (p) return p;
  }
  const dash = s.stroke_dasharray;
  if (
    dash !== undefined &&
    dash !== null &&
    dash !== '' &&
    dash !== 'none' &&
    (!(typeof dash === 'string' || Array.isArray(dash)) || !dashArray(dash as never))
  )
    return problem('style_dash', `${field}.stroke_dasharray`);
  if (s.contour_type !== undefined) {
    if (!hover) return problem('style_contour_hover', `${field}.contour_type`);
    if (!CONTOUR_TYPES.includes(s.contour_type as never)) return problem('style_contour', `${field}.contour_type`);
  }
  if (s.graphic !== undefined && s.graphic !== '') {
    const names: readonly string[] = s.symbol_type === 'billboard' ? BILLBOARD_ICONS : MARKS;
    if (!names.includes(s.graphic as string))
      return problem(s.symbol_type === 'billboard' ? 'style_billboard' : 'style_mark', `${field}.graphic`, {
        value: String(s.graphic),
        allowed: names.join(', '),
      });
  }
  if (s.graphic_url !== undefined && s.graphic_url !== '') {
    const u = s.graphic_url;
    if (typeof u !== 'string' || u.length > 2000 || !/^(?:https?:\/\/|\/)[^\s]*$/i.test(u))
      return problem('style_graphic_url', `${field}.graphic_url`);
  }
  for (const key of ['graphic_anchor', 'graphic_offset']) {
    const v = s[key];
    if (v !== undefined && !(Array.isArray(v) && v.length === 2 && v.every(isNum)))
      return problem('style_pair', `${field}.${key}`);
  }
  for (const key of ['text_label', 'fill_pattern']) {
    const v = s[key];
    if (v !== undefined && (typeof v !== 'string' || v.length > 200)) return problem('style_text', `${field}.${key}`);
  }
  if (s.billboard !== undefined && typeof s.billboard !== 'boolean') return problem('style_bool', `${field}.billboard`);
  return undefined;
}

function checkFilter(f: unknown, field: string, depth: number): LayerProblem | undefined {
  if (depth > MAX_FILTER_DEPTH) return problem('style_filter_depth', field, { max: MAX_FILTER_DEPTH });
  if (!isObject(f)) return problem('style_filter', field);
  if (f.op === 'and' || f.op === 'or') {
    if (!Array.isArray(f.filters) || !f.filters.length) return problem('style_filter_list', `${field}.filters`);
    for (let i = 0; i < f.filters.length; i++) {
      const p = checkFilter(f.filters[i], `${field}.filters[${i}]`, depth + 1);
      if (p) return p;
    }
    return undefined;
  }
  if (f.op === 'not') return checkFilter(f.filter, `${field}.filter`, depth + 1);
  if (!COMPARISON_OPS.includes(f.op as never)) return problem('style_filter_op', `${field}.op`, { op: String(f.op) });
  if (typeof f.attribute !== 'string' || !f.attribute.trim() || f.attribute.length > 200)
    return problem('style_filter_attribute', `${field}.attribute`);
  const v = f.value;
  if (!(v === null || typeof v === 'string' || typeof v === 'boolean' || isNum(v)))
    return problem('style_filter_value', `${field}.value`);
  return undefined;
}

/**
 * Checks a layer's style (null: the default style). Problems name the field by its path
 * (`style.rules[1].symbol.fill`) and carry a translation key of `layers:errors` (German and English).
 */
export function checkStyle(style: unknown): LayerProblem | undefined {
  if (style === null || style === undefined) return undefined;
  if (!isObject(style) || !Array.isArray(style.rules)) return problem('style_object', 'style');
  if (style.rules.length > MAX_RULES) return problem('style_rules_max', 'style.rules', { max: MAX_RULES });
  for (let i = 0; i < style.rules.length; i++) {
    const field = `style.rules[${i}]`;
    const r = style.rules[i] as unknown;
    if (!isObject(r)) return problem('style_rule', field);
    if (r.name !== undefined && (typeof r.name !== 'string' || r.name.length > 200))
      return problem('style_text', `${field}.name`);
    const p =
      checkSymbol(r.symbol, `${field}.symbol`, false) ??
      (r.hover_symbol === undefined || r.hover_symbol === null
        ? undefined
        : checkSymbol(r.hover_symbol, `${field}.hover_symbol`, true)) ??
      (r.filter === undefined || r.filter === null ? undefined : checkFilter(r.filter, `${field}.filter`, 1));
    if (p) return p;
    if (r.hover_enabled !== undefined && typeof r.hover_enabled !== 'boolean')
      return problem('style_bool', `${field}.hover_enabled`);
    for (const key of ['min_scale_denominator', 'max_scale_denominator']) {
      const v = r[key];
      if (v !== undefined && v !== null && !(isNum(v) && Number.isInteger(v) && v >= 0))
        return problem('style_scale', `${field}.${key}`);
    }
    if (isNum(r.min_scale_denominator) && isNum(r.max_scale_denominator) && r.min_scale_denominator >= r.max_scale_denominator)
      return problem('style_scale_order', `${field}.min_scale_denominator`);
  }
  return undefined;
}

/** The style as stored: the checked value (a style object), or null. Throws nothing; check first. */
export const asStyle = (v: unknown): LayerStyle | null =>
  isObject(v) && Array.isArray(v.rules) ? (v as unknown as LayerStyle) : null;

export type { StyleFilter, StyleSymbol };
