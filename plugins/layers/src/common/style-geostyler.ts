/**
 * Our style (style-model.ts) to and from geostyler's style model, and through geostyler's SLD
 * parser to and from SLD 1.0 / SE 1.1 (decision 0061). Runs in the browser and on the server.
 */
import type {
  ComparisonFilter,
  Filter as GsFilter,
  IconSymbolizer,
  MarkSymbolizer,
  Rule as GsRule,
  Style as GsStyle,
  Symbolizer as GsSymbolizer,
  TextSymbolizer,
} from 'geostyler-style';
import { SldStyleParser } from 'geostyler-sld-parser';
import {
  BILLBOARD_ICONS,
  COMPARISON_OPS,
  DEFAULT_RADIUS,
  DEFAULT_TEXT_SIZE,
  GRAPHIC_SIZE,
  MARKS,
  dashArray,
  symbolizersOf,
  type BillboardIcon,
  type ComparisonOp,
  type FilterValue,
  type GeometryKind,
  type LayerStyle,
  type MarkName,
  type StyleFilter,
  type StyleRule,
  type StyleSymbol,
} from './style-model';
import { checkStyle } from './style-validation';

/** The mark that stands in for a billboard icon where only marks exist (SLD without our icons). */
export const BILLBOARD_MARK: Record<BillboardIcon, MarkName> = {
  marker: 'circle',
  circle: 'circle',
  square: 'square',
  triangle: 'triangle',
  star: 'star',
  flag: 'triangle',
  home: 'square',
  info: 'circle',
  warning: 'triangle',
  camera: 'square',
};

const GS_LOGICAL = { and: '&&', or: '||' } as const;

function filterToGs(f: StyleFilter): GsFilter {
  if (f.op === 'and' || f.op === 'or') return [GS_LOGICAL[f.op], ...f.filters.map(filterToGs)] as GsFilter;
  if (f.op === 'not') return ['!', filterToGs(f.filter)] as GsFilter;
  return [f.op, f.attribute, f.value] as ComparisonFilter;
}

function filterFromGs(f: unknown): StyleFilter | null {
  if (!Array.isArray(f) || !f.length) return null;
  const [op, ...args] = f as [string, ...unknown[]];
  if (op === '&&' || op === '||') {
    const filters = args.map(filterFromGs).filter((x): x is StyleFilter => !!x);
    return filters.length ? { op: op === '&&' ? 'and' : 'or', filters } : null;
  }
  if (op === '!') {
    const inner = filterFromGs(args[0]);
    return inner ? { op: 'not', filter: inner } : null;
  }
  if (COMPARISON_OPS.includes(op as ComparisonOp) && typeof args[0] === 'string') {
    const v = args[1];
    const value: FilterValue = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
    return { op: op as ComparisonOp, attribute: args[0], value };
  }
  return null;
}

/** The symbolizers of one symbol for the geometry kinds the layer holds (polygons first, labels last). */
function symbolizersToGs(symbol: StyleSymbol, kinds: readonly GeometryKind[]): GsSymbolizer[] {
  const out: GsSymbolizer[] = [];
  let label: GsSymbolizer | undefined;
  for (const kind of (['polygon', 'line', 'point'] as const).filter((k) => kinds.includes(k))) {
    for (const s of symbolizersOf(symbol, kind)) {
      switch (s.kind) {
        case 'polygon':
          out.push({
            kind: 'Fill',
            color: s.fill,
            fillOpacity: s.fillOpacity,
            outlineColor: s.stroke,
            outlineWidth: s.strokeWidth,
            outlineOpacity: s.strokeOpacity,
            ...(s.dash ? { outlineDasharray: s.dash } : {}),
          });
          break;
        case 'line':
          out.push({
            kind: 'Line',
            color: s.stroke,
            width: s.strokeWidth,
            opacity: s.strokeOpacity,
            ...(s.dash ? { dasharray: s.dash } : {}),
          });
          break;
        case 'mark':
          out.push({
            kind: 'Mark',
            wellKnownName: s.mark === 'x' ? 'x' : s.mark,
            radius: s.radius,
            color: s.fill,
            fillOpacity: s.fillOpacity,
            strokeColor: s.stroke,
            strokeWidth: s.strokeWidth,
            strokeOpacity: s.strokeOpacity,
          } as MarkSymbolizer);
          break;
        case 'icon':
          if (s.url) out.push({ kind: 'Icon', image: s.url, size: s.size, opacity: s.opacity } as IconSymbolizer);
          else
            out.push({
              kind: 'Mark',
              wellKnownName: BILLBOARD_MARK[s.icon ?? 'marker'],
              radius: s.size / 2,
              color: s.fill,
              fillOpacity: s.opacity,
            } as MarkSymbolizer);
          break;
        case 'label':
          label ??= {
            kind: 'Text',
            label: `{{${s.field}}}`,
            size: s.size,
            color: s.fill,
            ...(s.halo ? { haloColor: s.halo.fill, haloWidth: s.halo.radius } : {}),
            ...(s.dx || s.dy ? { offset: [s.dx, s.dy] as [number, number] } : {}),
          } as TextSymbolizer;
          break;
      }
    }
  }
  if (label) out.push(label);
  return out;
}

/**
 * Our style as geostyler's. Our symbols serve every geometry kind; geostyler's (like SLD's) are
 * per kind, so `kinds` names those the layer holds (all three when unknown).
 */
export function toGeoStyler(
  style: LayerStyle,
  name: string,
  kinds: readonly GeometryKind[] = ['polygon', 'line', 'point'],
): GsStyle {
  return {
    name,
    rules: style.rules.map((r, i): GsRule => {
      const scale =
        typeof r.min_scale_denominator === 'number' || typeof r.max_scale_denominator === 'number'
          ? {
              scaleDenominator: {
                ...(typeof r.min_scale_denominator === 'number' ? { min: r.min_scale_denominator } : {}),
                ...(typeof r.max_scale_denominator === 'number' ? { max: r.max_scale_denominator } : {}),
              },
            }
          : {};
      return {
        name: r.name || `Rule ${i + 1}`,
        ...(r.filter ? { filter: filterToGs(r.filter) } : {}),
        ...scale,
        symbolizers: symbolizersToGs(r.symbol, kinds),
      };
    }),
  };
}

const numOr = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const hex = (v: unknown): string | undefined => (typeof v === 'string' && HEX.test(v) ? v : undefined);
const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** One geostyler rule's symbolizers merged into our one symbol (the first value of each field wins). */
function symbolFromGs(symbolizers: readonly GsSymbolizer[]): StyleSymbol {
  const s: StyleSymbol = { symbol_type: 'style' };
  const fields = s as unknown as Record<string, unknown>;
  const take = (found: Partial<StyleSymbol>) => {
    for (const [k, v] of Object.entries(found)) if (v !== undefined && fields[k] === undefined) fields[k] = v;
  };
  let pointSeen = false;
  for (const z of symbolizers) {
    const y = z as unknown as Record<string, unknown>;
    switch (z.kind) {
      case 'Fill':
        take({
          fill: hex(y.color),
          fill_opacity: numOr(y.fillOpacity),
          stroke: hex(y.outlineColor),
          stroke_width: numOr(y.outlineWidth),
          stroke_opacity: numOr(y.outlineOpacity),
          stroke_dasharray: Array.isArray(y.outlineDasharray) ? dashArray(y.outlineDasharray as number[]) : undefined,
        });
        break;
      case 'Line':
        take({
          stroke: hex(y.color),
          stroke_width: numOr(y.width),
          stroke_opacity: numOr(y.opacity),
          stroke_dasharray: Array.isArray(y.dasharray) ? dashArray(y.dasharray as number[]) : undefined,
        });
        break;
      case 'Mark': {
        if (pointSeen) break;
        pointSeen = true;
        const wkn = String(y.wellKnownName ?? 'circle').toLowerCase();
        const mark = MARKS.includes(wkn as MarkName) ? (wkn as MarkName) : 'circle';
        if (mark !== 'circle') Object.assign(s, { symbol_type: 'graphic', graphic: mark });
        take({
          circle_radius: numOr(y.radius) ?? DEFAULT_RADIUS,
          fill: hex(y.color),
          fill_opacity: numOr(y.fillOpacity),
          stroke: hex(y.strokeColor),
          stroke_width: numOr(y.strokeWidth),
          stroke_opacity: numOr(y.strokeOpacity),
        });
        break;
      }
      case 'Icon': {
        if (pointSeen) break;
        pointSeen = true;
        const image = str(y.image);
        if (image && /^(?:https?:\/\/|\/)\S*$/i.test(image)) Object.assign(s, { symbol_type: 'graphic', graphic_url: image });
        take({
          graphic_scale: numOr(y.size) !== undefined ? Number(y.size) / GRAPHIC_SIZE : undefined,
          graphic_opacity: numOr(y.opacity),
        });
        break;
      }
      case 'Text': {
        const m = /^\{\{\s*([^}]+?)\s*\}\}$/.exec(String(y.label ?? ''));
        if (!m) break;
        const offset = Array.isArray(y.offset) ? (y.offset as number[]) : [];
        take({
          text_label: m[1],
          text_size: numOr(y.size) !== undefined ? Math.round(Number(y.size)) : DEFAULT_TEXT_SIZE,
          text_fill: hex(y.color),
          text_halo_fill: hex(y.haloColor),
          text_halo_radius: numOr(y.haloWidth) !== undefined ? Math.round(Number(y.haloWidth)) : undefined,
          text_dx: numOr(offset[0]) || undefined,
          text_dy: numOr(offset[1]) || undefined,
        });
        break;
      }
      default:
        break;
    }
  }
  return clean(s);
}

/** geostyler's style as ours: one rule per geostyler rule (scale denominators rounded to integers). */
export function fromGeoStyler(gs: GsStyle): LayerStyle {
  return {
    rules: gs.rules.map((r): StyleRule => {
      const sd = r.scaleDenominator;
      const rule: StyleRule = { name: r.name ?? '', symbol: symbolFromGs(r.symbolizers ?? []) };
      const filter = r.filter ? filterFromGs(r.filter) : null;
      if (filter) rule.filter = filter;
      if (typeof sd?.min === 'number') rule.min_scale_denominator = Math.round(sd.min);
      if (typeof sd?.max === 'number') rule.max_scale_denominator = Math.round(sd.max);
      return rule;
    }),
  };
}

export type SldVersion = '1.0.0' | '1.1.0';

/** Our style as an SLD document (1.0.0, or 1.1.0 with SE 1.1 symbolizers). */
export async function styleToSld(
  style: LayerStyle,
  name: string,
  kinds: readonly GeometryKind[] = ['polygon', 'line', 'point'],
  version: SldVersion = '1.1.0',
): Promise<string> {
  const parser = new SldStyleParser({ sldVersion: version, builderOptions: { format: true } });
  const written = await parser.writeStyle(toGeoStyler(style, name, kinds));
  if (written.errors?.length || typeof written.output !== 'string')
    throw new Error(`SLD not written: ${String(written.errors?.[0])}`);
  return written.output;
}

/** Why an SLD document was refused: a translation key of `layers:errors`. */
export class SldImportError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

/** At most this many characters of SLD are read. */
export const MAX_SLD_LENGTH = 2_000_000;

/**
 * An SLD 1.0 / SE 1.1 document as our style. Documents with a DOCTYPE (and so any entity
 * declaration) are refused before parsing, and the parser expands no entities: no external
 * entity is ever read. Throws SldImportError.
 */
export async function styleFromSld(xml: string): Promise<LayerStyle> {
  if (xml.length > MAX_SLD_LENGTH) throw new SldImportError('layers:errors.sld_too_large', { max: MAX_SLD_LENGTH });
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SldImportError('layers:errors.sld_doctype');
  const parser = new SldStyleParser({ parserOptions: { processEntities: false, htmlEntities: false } });
  let read;
  try {
    read = await parser.readStyle(xml);
  } catch {
    throw new SldImportError('layers:errors.sld_invalid');
  }
  if (read.errors?.length || !read.output || !Array.isArray(read.output.rules) || !read.output.rules.length)
    throw new SldImportError('layers:errors.sld_invalid');
  const style = fromGeoStyler(read.output);
  const problem = checkStyle(style);
  if (problem) throw new SldImportError(problem.key, { ...problem.params, field: problem.field });
  return style;
}

export { BILLBOARD_ICONS };
