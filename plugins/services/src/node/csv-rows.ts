/**
 * Features as CSV rows (decision 0091): RFC 4180 (comma, CRLF, fields quoted when they hold a comma,
 * quote or line break), the geometry as WKT in the first column `WKT` — as GDAL's CSV driver writes
 * with GEOMETRY=AS_WKT and reads back — then one column per property.
 */
import { geojsonToWKT } from '@terraformer/wkt';
import type { ServedFeature } from './published-layers';

/** A UTF-8 byte order mark first, so spreadsheet programs read umlauts right. */
export const CSV_BOM = '\ufeff';

/** One field: text quoted when needed, objects as JSON, nothing for null. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvHeader(columns: readonly string[]): string {
  return `${['WKT', ...columns].map(csvCell).join(',')}\r\n`;
}

export function csvRow(f: ServedFeature, columns: readonly string[]): string {
  let wkt = '';
  try {
    wkt = f.geometry ? geojsonToWKT(f.geometry as never) : '';
  } catch {
    // A geometry WKT cannot hold (an empty collection) stays empty.
  }
  return `${[wkt, ...columns.map((c) => f.properties?.[c])].map(csvCell).join(',')}\r\n`;
}
