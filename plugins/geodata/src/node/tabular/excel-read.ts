import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ApiError, type FrameItems, type FunctionRunContext } from '@werkbank/sdk/node';
import type { Cell } from './csv-cells';
import { CHUNK, failure, yieldToLoop } from './tabular-params';
import { readSharedStringsExactly } from './excel-shared-strings';
import { readPartsInOrder } from './excel-parts';
import type { ZipEntry } from '../sources/zip-inspection';

/** The Excel import settings of spec 001 §3.4, and the sheet to read (its name; the first when empty). */
export interface ExcelReadSettings {
  header: boolean;
  skiprows: number;
  skipfooter: number;
  sheet: string;
}

/** An Excel cell value as a row value: formulas give their result, dates ISO 8601 text, rich text its text. */
export function excelValue(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) return (v.richText as Array<{ text: string }>).map((r) => r.text).join('');
  if ('result' in v) return excelValue(v.result);
  if ('formula' in v || 'sharedFormula' in v) return null;
  if (typeof v.text === 'string') return v.text;
  if (typeof v.error === 'string') return v.error;
  return JSON.stringify(value);
}

/**
 * Reads one sheet of an .xlsx workbook (`zip`, its parts `entries` as inspectZip found them) into
 * row datums: exceljs' WorkbookReader gets the parts in the order it needs them (readPartsInOrder)
 * and reads the rows one by one, each sheet inflated as a stream; the shared strings table is held,
 * read by readSharedStringsExactly. Sheet rows are counted from 1 as in Excel: skiprows skips the first rows, skipfooter the last rows that hold
 * anything (empty rows are not rows). Throws failures naming the sheet row and column.
 */
export async function readExcel(
  zip: Buffer,
  entries: ZipEntry[],
  s: ExcelReadSettings,
  ctx: FunctionRunContext,
): Promise<FrameItems> {
  ctx.signal.throwIfAborted();
  let read = 0;
  const onRead = (bytes: number) => {
    read += bytes;
    if (zip.length > 0) ctx.progress(Math.min(0.99, read / zip.length));
  };
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  readPartsInOrder(reader, zip, entries, onRead);
  readSharedStringsExactly(reader);
  const sheets: string[] = [];
  let rows: FrameItems | undefined;
  try {
    for await (const sheet of reader) {
      const name = (sheet as unknown as { name: string }).name;
      sheets.push(name);
      if (rows || (s.sheet ? name !== s.sheet : false)) {
        // The reader must pass over the other sheets' rows to reach the end of the workbook.
        for await (const row of sheet) void row;
        continue;
      }
      rows = await readSheet(sheet as AsyncIterable<ExcelJS.Row>, s, ctx, name);
    }
  } catch (e) {
    ctx.signal.throwIfAborted();
    if (e instanceof ApiError) throw e;
    throw failure('invalid_excel', { message: String((e as Error)?.message ?? e) });
  }
  if (!rows) throw failure('sheet_missing', { sheet: s.sheet, sheets: sheets.join(', ') });
  ctx.progress(1);
  return rows;
}

/**
 * Most rows and cells (rows × columns) one sheet gives: as many rows as a frame holds, and a cell
 * budget that a few highly compressible rows of 16,384 columns cannot blow up into gigabytes.
 */
export const EXCEL_MAX_ROWS = 1_000_000;
export const EXCEL_MAX_CELLS = 20_000_000;

async function readSheet(sheet: AsyncIterable<ExcelJS.Row>, s: ExcelReadSettings, ctx: FunctionRunContext, name: string) {
  const out: FrameItems = [];
  const pending: ExcelJS.Row[] = [];
  let names: string[] | undefined;
  let n = 0;
  let cells = 0;
  const add = (row: ExcelJS.Row) => {
    const values = (row.values as unknown[]).slice(1).map(excelValue);
    if (s.header && !names) {
      names = headerNames(values, row.number, name);
      return;
    }
    names ??= values.map((_, i) => `column_${i + 1}`);
    const extra = values.findIndex((v, i) => i >= names!.length && v !== null);
    if (extra >= 0)
      throw failure('excel_extra_cell', { sheet: name, row: row.number, column: extra + 1, expected: names.length });
    cells += names.length;
    if (out.length >= EXCEL_MAX_ROWS || cells > EXCEL_MAX_CELLS)
      throw failure('excel_too_large', { sheet: name, row: row.number, rows: EXCEL_MAX_ROWS, cells: EXCEL_MAX_CELLS });
    const value: Record<string, Cell> = {};
    names.forEach((col, i) => (value[col] = values[i] ?? null));
    out.push({ value });
  };
  for await (const row of sheet) {
    if (row.number <= s.skiprows) continue;
    pending.push(row);
    if (pending.length > s.skipfooter) add(pending.shift()!);
    if (++n % CHUNK === 0) await yieldToLoop(ctx);
  }
  return out;
}

/** The header cells as column names: each a non-empty, unique text (numbers are taken as their text). */
function headerNames(values: Cell[], row: number, sheet: string): string[] {
  let last = values.length;
  while (last > 0 && values[last - 1] === null) last--;
  const seen = new Set<string>();
  return values.slice(0, last).map((v, i) => {
    const name = v === null ? '' : String(v).trim();
    if (!name) throw failure('excel_empty_column_name', { sheet, row, column: i + 1 });
    if (seen.has(name)) throw failure('excel_duplicate_column_name', { sheet, row, name });
    seen.add(name);
    return name;
  });
}
