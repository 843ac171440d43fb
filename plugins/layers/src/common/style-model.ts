/**
 * The map style of a layer (spec 001 §3.7, §2.8, §5.3, §9) and its evaluation: which rules apply
 * to a feature at a scale, and what they draw. One rule in one place (decision 0061): the editor's
 * preview, the legend, the SLD and MapLibre exports and the server-side WMS renderer all read it.
 */

/** spec 001 §3.7 symbol types; any other raises an error (spec 001 §8). */
export const SYMBOL_TYPES = ['style', 'graphic', 'billboard'] as const;
export type SymbolType = (typeof SYMBOL_TYPES)[number];

/** Hover contours (spec 001 §3.7, hover symbols only). */
export const CONTOUR_TYPES = ['feature', 'circle', 'bbox'] as const;
export type ContourType = (typeof CONTOUR_TYPES)[number];

/** The well-known marks a `graphic` symbol draws (the names SLD and geostyler know). */
export const MARKS = ['circle', 'square', 'triangle', 'star', 'cross', 'x'] as const;
export type MarkName = (typeof MARKS)[number];

/** spec 001 §2.8: ten billboard icons; each names the mark that stands in for it in SLD. */
export const BILLBOARD_ICONS = [
  'marker',
  'circle',
  'square',
  'triangle',
  'star',
  'flag',
  'home',
  'info',
  'warning',
  'camera',
] as const;
export type BillboardIcon = (typeof BILLBOARD_ICONS)[number];

/** spec 001 §9: the 11 dash patterns ('none' is a solid line). */
export const DASH_PATTERNS: ReadonlyArray<{ id: string; dash: number[] | null }> = [
  { id: 'none', dash: null },
  { id: '5-5', dash: [5, 5] },
  { id: '5-10', dash: [5, 10] },
  { id: '10-5', dash: [10, 5] },
  { id: '5-1', dash: [5, 1] },
  { id: '1-5', dash: [1, 5] },
  { id: '0.9', dash: [0.9] },
  { id: '15-10-5', dash: [15, 10, 5] },
  { id: '15-10-5-10', dash: [15, 10, 5, 10] },
  { id: '15-10-5-10-15', dash: [15, 10, 5, 10, 15] },
  { id: '5-5-1-5', dash: [5, 5, 1, 5] },
];

/** A symbol (spec 001 §3.7). Colours are CSS hex; opacities and graphic scale are fractions 0–1. */
export interface StyleSymbol {
  symbol_type: SymbolType;
  fill?: string;
  fill_opacity?: number | null;
  fill_pattern?: string;
  stroke?: string;
  stroke_opacity?: number | null;
  stroke_width?: number | null;
  stroke_dasharray?: number[] | string | null;
  circle_radius?: number | null;
  contour_type?: ContourType;
  /** graphic: a mark name (MARKS); billboard: an icon name (BILLBOARD_ICONS). */
  graphic?: string;
  graphic_anchor?: [number, number];
  graphic_offset?: [number, number];
  graphic_opacity?: number | null;
  graphic_scale?: number | null;
  /** graphic: an image address drawn instead of the mark. */
  graphic_url?: string;
  billboard?: boolean;
  /** The attribute whose value labels the feature; empty: no label. */
  text_label?: string;
  text_dx?: number | null;
  text_dy?: number | null;
  text_size?: number | null;
  text_fill?: string;
  text_halo_fill?: string;
  text_halo_radius?: number | null;
}

export const COMPARISON_OPS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];
export type FilterValue = string | number | boolean | null;

/** A rule's filter (spec 001 §3.7 "a condition such as equality of an attribute to a value"). */
export type StyleFilter =
  | { op: ComparisonOp; attribute: string; value: FilterValue }
  | { op: 'and'; filters: StyleFilter[] }
  | { op: 'or'; filters: StyleFilter[] }
  | { op: 'not'; filter: StyleFilter };

/** A rule (spec 001 §3.7); `name` names it in the editor, the legend and SLD. */
export interface StyleRule {
  name?: string;
  symbol: StyleSymbol;
  hover_symbol?: StyleSymbol | null;
  hover_enabled?: boolean;
  filter?: StyleFilter | null;
  /** The rule draws at scales 1:min_scale_denominator (inclusive) up to 1:max_scale_denominator (exclusive). */
  max_scale_denominator?: number | null;
  min_scale_denominator?: number | null;
}

/** A style: its rules, drawn in order (later rules on top). */
export interface LayerStyle {
  rules: StyleRule[];
}

/** Pixel size for the symbols' measures (px) and the default point radius. */
export const DEFAULT_RADIUS = 6;
/** Size in px of a graphic or billboard at 100 % graphic scale. */
export const GRAPHIC_SIZE = 32;
export const DEFAULT_TEXT_SIZE = 12;

/** The symbol a new style starts with. */
export const DEFAULT_SYMBOL: StyleSymbol = {
  symbol_type: 'style',
  fill: '#2d72d2',
  fill_opacity: 0.4,
  stroke: '#184a90',
  stroke_opacity: 1,
  stroke_width: 2,
  circle_radius: DEFAULT_RADIUS,
};

export const defaultStyle = (): LayerStyle => ({ rules: [{ name: '', symbol: { ...DEFAULT_SYMBOL } }] });

/** spec 001 §2.8: a new rule copies the base (first) rule's symbol. */
export function addRule(style: LayerStyle): LayerStyle {
  const base = style.rules[0]?.symbol ?? DEFAULT_SYMBOL;
  return { rules: [...style.rules, { name: '', symbol: structuredClone(base) }] };
}

/**
 * spec 001 §2.8: a rule is removed only while more than one is left; the rule that opens after it
 * is the previous one (or the first). Returns the style and the index to open.
 */
export function removeRule(style: LayerStyle, index: number): { style: LayerStyle; open: number } {
  if (style.rules.length <= 1 || index < 0 || index >= style.rules.length) return { style, open: index };
  return { style: { rules: style.rules.filter((_, i) => i !== index) }, open: Math.max(0, index - 1) };
}

/** Moves a rule by `delta` places (drawing order); out-of-range moves change nothing. */
export function moveRule(style: LayerStyle, index: number, delta: number): LayerStyle {
  const to = index + delta;
  if (to < 0 || to >= style.rules.length || index < 0 || index >= style.rules.length) return style;
  const rules = [...style.rules];
  const [r] = rules.splice(index, 1);
  rules.splice(to, 0, r);
  return { rules };
}

/** spec 001 §2.8: the zoom level a scale denominator stands for, log2(40075017/(d·0.0003)) − 8, one decimal. */
export function scaleToZoom(denominator: number): number {
  return Math.round((Math.log2(40075017 / (denominator * 0.0003)) - 8) * 10) / 10;
}

/** A dash pattern as numbers (a stored string such as "5 5" or "5-5" is read too); null: solid. */
export function dashArray(v: StyleSymbol['stroke_dasharray']): number[] | null {
  if (v === null || v === undefined || v === '' || v === 'none') return null;
  const parts = Array.isArray(v) ? v : v.split(/[\s,]+|(?<=\d)-(?=\d)/).map(Number);
  return parts.length && parts.every((n) => Number.isFinite(n) && n >= 0) ? parts : null;
}

/** The id of the spec's dash pattern a dash array is (or '' for another one). */
export function dashPatternId(v: StyleSymbol['stroke_dasharray']): string {
  const dash = dashArray(v);
  return DASH_PATTERNS.find((p) => JSON.stringify(p.dash) === JSON.stringify(dash))?.id ?? '';
}

// --- Parsing editor input (spec 001 §5.3) -------------------------------------------------------

/** Line thickness and circle radius: numbers; empty or unparseable gives none. */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Scale denominators, label size and halo radius: base-10 integers; otherwise none. */
export function parseInteger(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return null;
  return Number.parseInt(t, 10);
}

/** spec 001 §5.3: a transparent colour is stored as #000000. */
export function normalColour(c: string | undefined): string | undefined {
  if (c === undefined) return undefined;
  return c.trim().toLowerCase() === 'transparent' ? '#000000' : c.trim();
}

/** spec 001 §5.3: halo values are kept only with 'Use border'. */
export function withHalo(symbol: StyleSymbol, useBorder: boolean, fill = '#ffffff', radius = 1): StyleSymbol {
  const out = { ...symbol };
  if (useBorder) {
    out.text_halo_fill = out.text_halo_fill || fill;
    out.text_halo_radius = out.text_halo_radius ?? radius;
  } else {
    delete out.text_halo_fill;
    delete out.text_halo_radius;
  }
  return out;
}

// --- Evaluation ---------------------------------------------------------------------------------

export type GeometryKind = 'point' | 'line' | 'polygon';

/** The geometry kind of a GeoJSON geometry type (collections: their first member's). */
export function geometryKind(geometry: { type?: unknown; geometries?: unknown } | null | undefined): GeometryKind | null {
  if (!geometry) return null;
  switch (geometry.type) {
    case 'Point':
    case 'MultiPoint':
      return 'point';
    case 'LineString':
    case 'MultiLineString':
      return 'line';
    case 'Polygon':
    case 'MultiPolygon':
      return 'polygon';
    case 'GeometryCollection':
      return Array.isArray(geometry.geometries) ? geometryKind(geometry.geometries[0] as never) : null;
    default:
      return null;
  }
}

/** What a rule draws, resolved: every measure in px, colours as hex, opacities 0–1. */
export type Symbolizer =
  | {
      kind: 'mark';
      rule: number;
      mark: MarkName;
      radius: number;
      fill: string;
      fillOpacity: number;
      stroke: string;
      strokeOpacity: number;
      strokeWidth: number;
    }
  | {
      kind: 'icon';
      rule: number;
      icon: BillboardIcon | null;
      url: string | null;
      size: number;
      opacity: number;
      anchor: [number, number];
      offset: [number, number];
      fill: string;
    }
  | { kind: 'line'; rule: number; stroke: string; strokeOpacity: number; strokeWidth: number; dash: number[] | null }
  | {
      kind: 'polygon';
      rule: number;
      fill: string;
      fillOpacity: number;
      stroke: string;
      strokeOpacity: number;
      strokeWidth: number;
      dash: number[] | null;
    }
  | {
      kind: 'label';
      rule: number;
      text: string;
      field: string;
      size: number;
      fill: string;
      halo: { fill: string; radius: number } | null;
      dx: number;
      dy: number;
    };

export class UnknownSymbolTypeError extends Error {
  constructor(readonly symbolType: unknown) {
    super(`unknown symbol type ${String(symbolType)}`);
  }
}

const num = (v: number | null | undefined, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const colour = (v: string | undefined, fallback: string) => normalColour(v) || fallback;
const isMark = (v: unknown): v is MarkName => MARKS.includes(v as MarkName);
const isIcon = (v: unknown): v is BillboardIcon => BILLBOARD_ICONS.includes(v as BillboardIcon);

/**
 * The symbolizers a symbol resolves to for a geometry kind (the legend draws these too). The
 * label needs the feature's text; without `properties` (legend) the field name stands in.
 */
export function symbolizersOf(
  symbol: StyleSymbol,
  kind: GeometryKind,
  rule = 0,
  properties?: Record<string, unknown> | null,
): Symbolizer[] {
  if (!SYMBOL_TYPES.includes(symbol.symbol_type)) throw new UnknownSymbolTypeError(symbol.symbol_type);
  const fill = colour(symbol.fill, DEFAULT_SYMBOL.fill!);
  const stroke = colour(symbol.stroke, DEFAULT_SYMBOL.stroke!);
  const fillOpacity = num(symbol.fill_opacity, 1);
  const strokeOpacity = num(symbol.stroke_opacity, 1);
  const strokeWidth = num(symbol.stroke_width, 1);
  const dash = dashArray(symbol.stroke_dasharray);
  const out: Symbolizer[] = [];
  if (kind === 'polygon') out.push({ kind: 'polygon', rule, fill, fillOpacity, stroke, strokeOpacity, strokeWidth, dash });
  else if (kind === 'line') out.push({ kind: 'line', rule, stroke, strokeOpacity, strokeWidth, dash });
  else if (symbol.symbol_type === 'style' || (symbol.symbol_type === 'graphic' && !symbol.graphic_url)) {
    const mark = symbol.symbol_type === 'graphic' && isMark(symbol.graphic) ? symbol.graphic : 'circle';
    const scale = symbol.symbol_type === 'graphic' ? num(symbol.graphic_scale, 1) : 1;
    const radius =
      symbol.symbol_type === 'graphic' && !symbol.circle_radius
        ? (GRAPHIC_SIZE / 2) * scale
        : num(symbol.circle_radius, DEFAULT_RADIUS);
    out.push({ kind: 'mark', rule, mark, radius, fill, fillOpacity, stroke, strokeOpacity, strokeWidth });
  } else {
    out.push({
      kind: 'icon',
      rule,
      icon: symbol.symbol_type === 'billboard' ? (isIcon(symbol.graphic) ? symbol.graphic : 'marker') : null,
      url: symbol.symbol_type === 'graphic' ? (symbol.graphic_url ?? null) : null,
      size: GRAPHIC_SIZE * num(symbol.graphic_scale, 1),
      opacity: num(symbol.graphic_opacity, 1),
      anchor: symbol.graphic_anchor ?? [0.5, 0.5],
      offset: symbol.graphic_offset ?? [0, 0],
      fill,
    });
  }
  const field = symbol.text_label?.trim();
  if (field) {
    const value = properties ? properties[field] : field;
    if (value !== undefined && value !== null && value !== '') {
      const halo = symbol.text_halo_fill
        ? { fill: colour(symbol.text_halo_fill, '#ffffff'), radius: num(symbol.text_halo_radius, 1) }
        : null;
      out.push({
        kind: 'label',
        rule,
        field,
        text: typeof value === 'object' ? JSON.stringify(value) : String(value),
        size: num(symbol.text_size, DEFAULT_TEXT_SIZE),
        fill: colour(symbol.text_fill, '#000000'),
        halo,
        dx: num(symbol.text_dx, 0),
        dy: num(symbol.text_dy, 0),
      });
    }
  }
  return out;
}

const asNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** Compares an attribute's value with a filter's: as numbers when both are numbers, else as text. */
function compare(op: ComparisonOp, actual: unknown, expected: FilterValue): boolean {
  const missing = actual === undefined || actual === null;
  if (expected === null) {
    if (op === '==') return missing;
    if (op === '!=') return !missing;
    return false;
  }
  if (missing) return op === '!=';
  const a = asNumber(actual);
  const b = asNumber(expected);
  let c: number;
  if (typeof expected === 'boolean' || typeof actual === 'boolean') {
    const x = String(actual).toLowerCase();
    c = x === String(expected).toLowerCase() ? 0 : 1;
    if (op !== '==' && op !== '!=') return false;
  } else if (a !== null && b !== null) c = a === b ? 0 : a < b ? -1 : 1;
  else {
    const x = typeof actual === 'object' ? JSON.stringify(actual) : String(actual);
    const y = String(expected);
    c = x === y ? 0 : x < y ? -1 : 1;
  }
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

/** Whether a feature's properties pass a filter; no filter passes everything. */
export function matchesFilter(
  filter: StyleFilter | null | undefined,
  properties: Record<string, unknown> | null | undefined,
): boolean {
  if (!filter) return true;
  const props = properties ?? {};
  switch (filter.op) {
    case 'and':
      return filter.filters.every((f) => matchesFilter(f, props));
    case 'or':
      return filter.filters.some((f) => matchesFilter(f, props));
    case 'not':
      return !matchesFilter(filter.filter, props);
    default:
      return compare(filter.op, props[filter.attribute], filter.value);
  }
}

/** Whether a rule draws at a scale: from min (inclusive) up to max (exclusive), as in SLD. */
export function inScale(rule: StyleRule, scaleDenominator: number): boolean {
  const min = rule.min_scale_denominator;
  const max = rule.max_scale_denominator;
  if (typeof min === 'number' && scaleDenominator < min) return false;
  if (typeof max === 'number' && scaleDenominator >= max) return false;
  return true;
}

/** A feature as the evaluation reads it (GeoJSON). */
export interface StyledFeature {
  geometry: { type?: unknown; geometries?: unknown } | null;
  properties?: Record<string, unknown> | null;
}

/**
 * The symbolizers that draw `feature` at 1:`scaleDenominator`: of every rule (in order) whose
 * scale range holds the scale and whose filter the feature passes, the symbol (or, when `hover`
 * and the rule enables it, the hover symbol) resolved for the feature's geometry kind, with its
 * label. A feature without a geometry draws nothing. Throws UnknownSymbolTypeError (spec 001 §8).
 */
export function evaluateStyle(
  style: LayerStyle | null | undefined,
  feature: StyledFeature,
  scaleDenominator: number,
  options: { hover?: boolean } = {},
): Symbolizer[] {
  const kind = geometryKind(feature.geometry);
  if (!kind) return [];
  const rules = style?.rules?.length ? style.rules : defaultStyle().rules;
  const out: Symbolizer[] = [];
  rules.forEach((rule, i) => {
    if (!inScale(rule, scaleDenominator) || !matchesFilter(rule.filter, feature.properties)) return;
    const symbol = options.hover && rule.hover_enabled && rule.hover_symbol ? rule.hover_symbol : rule.symbol;
    out.push(...symbolizersOf(symbol, kind, i, feature.properties));
  });
  return out;
}

/** The attributes a filter reads. */
export function filterAttributes(filter: StyleFilter | null | undefined): string[] {
  if (!filter) return [];
  if (filter.op === 'and' || filter.op === 'or') return [...new Set(filter.filters.flatMap(filterAttributes))];
  if (filter.op === 'not') return filterAttributes(filter.filter);
  return [filter.attribute];
}
