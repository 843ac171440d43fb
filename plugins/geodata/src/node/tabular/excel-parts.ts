import type { Readable } from 'node:stream';
import type { ZipEntry } from '../sources/zip-inspection';
import { entryStream } from '../vector/zip-read';

/** The parts of exceljs' streaming WorkbookReader this replaces or calls. */
interface PartsReader {
  parse(): AsyncGenerator<unknown>;
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<unknown>;
}

const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * Makes `reader` (an exceljs 4.4 WorkbookReader) read the workbook's parts from its central
 * directory (`entries`, checked by inspectZip) in the order it needs them: the relations, the
 * workbook (the sheets' names), the shared strings and the styles first, then the sheets in their
 * number's order, each inflated as a stream. exceljs' own pass reads the archive front to back in
 * one stream, which now and then loses its last entry (exceljs issue 3064) — `xl/workbook.xml`,
 * which ExcelJS and others write last — and then failed the whole import ("reading 'sheets'").
 * `onRead` gets the compressed bytes as they are read.
 */
export function readPartsInOrder(reader: unknown, zip: Buffer, entries: ZipEntry[], onRead: (bytes: number) => void): void {
  const r = reader as PartsReader;
  const part = (name: string) => {
    const entry = entries.find((e) => e.name === name);
    return entry && entryStream(zip, entry, onRead);
  };
  r.parse = async function* () {
    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await r._parseRels(rels);
    const workbook = part('xl/workbook.xml');
    if (workbook) await r._parseWorkbook(workbook);
    const strings = part('xl/sharedStrings.xml');
    if (strings) yield* r._parseSharedStrings(strings);
    const styles = part('xl/styles.xml');
    if (styles) await r._parseStyles(styles);
    const sheets = entries
      .map((entry) => ({ entry, no: SHEET.exec(entry.name)?.[1] }))
      .filter((s): s is { entry: ZipEntry; no: string } => s.no !== undefined)
      .sort((a, b) => Number(a.no) - Number(b.no));
    for (const { entry, no } of sheets) yield* r._parseWorksheet(entryStream(zip, entry, onRead), no);
  };
}
