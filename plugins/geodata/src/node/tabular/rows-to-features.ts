import { wktToGeoJSON } from '@terraformer/wkt';
import type { DatumFields, FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { CHUNK, failure, itemsOf, paramOf, textParam, yieldToLoop } from './tabular-params';
import { resolveCrs } from '../reproject/crs-resolver';
import { labelItems } from '../reproject/feature-crs';

type Geometry = ReturnType<typeof wktToGeoJSON> | null;

const opt = (name: string, value?: unknown) => ({
  name,
  content_type: 'string',
  is_optional: true,
  ...(value === undefined ? {} : { default_value: { value } }),
});

/** An EWKT prefix (`SRID=4326;`): the coordinates are taken as they are. */
const EWKT_SRID = /^\s*SRID=\d+;/i;

/** A coordinate cell: a number, or a text with a decimal point or comma; undefined when empty. */
function coordinate(value: unknown, row: number, column: string): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim().replace(',', '.')) : NaN;
  if (!Number.isFinite(n) || (typeof value === 'string' && !value.trim())) {
    throw failure('not_a_coordinate', { row, column, value: String(value) });
  }
  return n;
}

/** A point from the x and y columns; null when both are empty. */
function pointOf(v: Record<string, unknown>, row: number, x: string, y: string): Geometry {
  for (const column of [x, y]) if (!(column in v)) throw failure('missing_column', { row, column });
  const cx = coordinate(v[x], row, x);
  const cy = coordinate(v[y], row, y);
  if (cx === undefined && cy === undefined) return null;
  if (cx === undefined || cy === undefined) throw failure('missing_coordinate', { row, column: cx === undefined ? x : y });
  return { type: 'Point', coordinates: [cx, cy] };
}

/** The geometry of a WKT (or EWKT) cell; null when it is empty. The failure names the row, column and position. */
function wktOf(v: Record<string, unknown>, row: number, column: string): Geometry {
  if (!(column in v)) throw failure('missing_column', { row, column });
  const text = v[column];
  if (text === null || text === undefined || (typeof text === 'string' && !text.trim())) return null;
  if (typeof text !== 'string') throw failure('invalid_wkt', { row, column, position: 1, value: String(text) });
  const wkt = text.replace(EWKT_SRID, '');
  try {
    return wktToGeoJSON(wkt);
  } catch (e) {
    // The parser draws a caret under the position: "-----^".
    const caret = /\n(-*)\^/.exec(String((e as Error).message));
    const position = (caret ? caret[1].length : 0) + 1 + (text.length - wkt.length);
    throw failure('invalid_wkt', { row, column, position, value: text.length > 60 ? `${text.slice(0, 60)}…` : text });
  }
}

/** Where a row's geometry comes from: the WKT column `wkt` when given, else the coordinate columns `x` and `y`. */
export interface GeometryColumns {
  x: string;
  y: string;
  wkt?: string;
}

/**
 * The feature datum of one row's value: geometry from `from`, the other columns as properties.
 * `row` is the row's index, named in failures.
 */
export function rowFeature(v: unknown, row: number, from: GeometryColumns): DatumFields {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw failure('not_a_row', { item: `rows[${row}]` });
  const value = v as Record<string, unknown>;
  const geometry = from.wkt ? wktOf(value, row, from.wkt) : pointOf(value, row, from.x, from.y);
  const properties: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    if (from.wkt ? k !== from.wkt : k !== from.x && k !== from.y) properties[k] = value[k];
  }
  return { feature: { type: 'Feature', geometry, properties } };
}

/** Row datums as feature datums: geometry from coordinate columns or a WKT column, the other columns as properties. */
export async function rowsToFeatures(rows: FrameItems, from: GeometryColumns, ctx: FunctionRunContext): Promise<FrameItems> {
  const out: FrameItems = [];
  for (let i = 0; i < rows.length; i++) {
    if (i % CHUNK === CHUNK - 1) {
      ctx.progress(i / rows.length);
      await yieldToLoop(ctx);
    }
    out.push(rowFeature(rows[i].value, i, from));
  }
  return out;
}

export const rowsToFeaturesFunction: FunctionDescriptor = {
  id: 'rows.to_features',
  version: '1',
  verbose_name: { de: 'Zeilen zu Features', en: 'Rows to features' },
  doc: {
    de:
      'Macht aus jeder Zeile ein Feature. Die Geometrie kommt aus der WKT-Spalte wkt (Well-Known Text, auch EWKT mit SRID=…;), ' +
      'wenn sie angegeben ist, sonst als Punkt aus den Koordinatenspalten x und y (Standard: x und y; Zahlen oder Texte mit ' +
      'Dezimalpunkt oder -komma). Die übrigen Spalten werden die Eigenschaften. Leere Geometriezellen ergeben ein Feature ' +
      'ohne Geometrie. Die Koordinaten werden nicht umgerechnet; crs nennt ihr Koordinatenreferenzsystem (z. B. EPSG:25832, ' +
      'Standard: WGS 84), das die Features dann tragen.',
    en:
      'Makes a feature of every row. The geometry comes from the WKT column wkt (well-known text, EWKT with SRID=…; too) ' +
      'when it is given, otherwise as a point from the coordinate columns x and y (default: x and y; numbers or texts with a ' +
      'decimal point or comma). The other columns become the properties. Empty geometry cells give a feature without ' +
      'geometry. Coordinates are not transformed; crs names their coordinate reference system (e.g. EPSG:25832, default: ' +
      'WGS 84), which the features then carry.',
  },
  inputs: [{ name: 'rows', content_type: 'row' }, opt('x', 'x'), opt('y', 'y'), opt('wkt'), opt('crs', '')],
  outputs: [{ name: 'features', content_type: 'feature' }],
  run: async (inputs, ctx) => {
    const wkt = paramOf(inputs, 'wkt', '');
    if (typeof wkt !== 'string') throw failure('invalid_parameter', { port: 'wkt', value: String(wkt) });
    const from = { x: textParam(inputs, 'x', 'x'), y: textParam(inputs, 'y', 'y'), wkt: wkt.trim() || undefined };
    const crs = textParam(inputs, 'crs', '');
    // The features say the CRS of their coordinates (decision 0035); an unknown one is refused first.
    const label = crs ? (await resolveCrs(crs)).name : undefined;
    const features = await rowsToFeatures(itemsOf(inputs, 'rows'), from, ctx);
    ctx.progress(1);
    return { features: label ? labelItems(features, label) : features };
  },
};
