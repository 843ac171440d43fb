import type { Readable } from 'node:stream';
import type { FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { readExcel, type ExcelReadSettings } from './excel-read';
import { append, named } from '../source-items';
import { readBytes } from '../vector/file-import';
import { inspectZip, ZIP_LIMITS, type ZipEntry } from '../sources/zip-inspection';

/** Largest workbook excel.import reads (it is held in memory while exceljs unpacks it). */
export const EXCEL_MAX_BYTES = 256 * 1024 * 1024;
/** Largest declared unpacked size of a workbook's parts. */
export const EXCEL_MAX_UNPACKED = 2 * 1024 ** 3;

/**
 * The rows of one workbook: read into memory (at most EXCEL_MAX_BYTES), its ZIP directory checked
 * for bombs before exceljs unpacks it, then read by readExcel.
 */
async function readWorkbook(stream: Readable, settings: ExcelReadSettings, ctx: FunctionRunContext): Promise<FrameItems> {
  const bytes = await readBytes(stream, EXCEL_MAX_BYTES, ctx);
  return readExcel(bytes, checkWorkbookZip(bytes), settings, ctx);
}

/**
 * The parts of a workbook (inspectZip: zip bombs refused); bytes that are no ZIP at all are no .xlsx
 * (`invalid_excel`).
 */
function checkWorkbookZip(bytes: Buffer): ZipEntry[] {
  try {
    return inspectZip(bytes, { ...ZIP_LIMITS, maxTotalSize: EXCEL_MAX_UNPACKED });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'zip_invalid') throw failure('invalid_excel', { message: 'not a ZIP archive' });
    throw e;
  }
}
import { boolParam, countParam, failure, itemsOf, textParam } from './tabular-params';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

const opt = (name: string, content_type: string, value: unknown) => ({
  name,
  content_type,
  is_optional: true,
  default_value: { value },
});

/** `excel.import`: the rows of one sheet of .xlsx files (read through FileAccess as the running user). */
export function excelImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'excel.import',
    version: '1',
    verbose_name: { de: 'Excel importieren', en: 'Import Excel' },
    doc: {
      de:
        'Liest ein Tabellenblatt von Excel-Dateien (.xlsx) als Zeilen. Einstellungen: header – die erste Zeile ' +
        'enthält die Spaltennamen (Standard: ja; sonst column_1, column_2, …); skiprows – Zeilen, die vor der Tabelle übersprungen werden; ' +
        'skipfooter – Zeilen am Ende, die nicht zur Tabelle gehören; sheet – der Name des Blatts (Standard: das erste). ' +
        'Formeln ergeben ihr gespeichertes Ergebnis, Datumswerte ISO-8601-Text, leere Zellen null. Mehrere Dateien werden nacheinander gelesen.',
      en:
        'Reads one sheet of Excel files (.xlsx) as rows. Settings: header – the first row holds the column names ' +
        '(default: yes; otherwise column_1, column_2, …); skiprows – rows skipped before the table; skipfooter – rows at the end ' +
        'that are not part of the table; sheet – the sheet’s name (default: the first). Formulas give their stored result, dates ' +
        'ISO 8601 text, empty cells null. Several files are read one after the other.',
    },
    inputs: [
      { name: 'file', content_type: 'file' },
      opt('header', 'bool', true),
      opt('skiprows', 'int', 0),
      opt('skipfooter', 'int', 0),
      opt('sheet', 'string', ''),
    ],
    outputs: [{ name: 'rows', content_type: 'row' }],
    run: async (inputs, ctx) => {
      const settings = {
        header: boolParam(inputs, 'header', true),
        skiprows: countParam(inputs, 'skiprows', 0),
        skipfooter: countParam(inputs, 'skipfooter', 0),
        sheet: textParam(inputs, 'sheet', '').trim(),
      };
      const items = itemsOf(inputs, 'file');
      const rows: FrameItems = [];
      for (const [i, item] of items.entries()) {
        let opened;
        try {
          opened = await files.open(ctx.user, item);
        } catch {
          throw failure('file_unreadable', { item: `file[${i}]`, name: String(item.value ?? '') });
        }
        const part = { ...ctx, progress: (f: number) => ctx.progress((i + f) / items.length) };
        append(rows, await named(readWorkbook(opened.stream, settings, part), opened.name || `file[${i}]`));
      }
      ctx.progress(1);
      return { rows };
    },
  };
}
