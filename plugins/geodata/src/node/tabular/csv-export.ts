import iconv from 'iconv-lite';
import type { FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { cellText, quoteCell } from './csv-cells';
import { CSV_ENCODINGS } from './csv-read';
import { plainFileName } from '../sources/download-text';
import { boolParam, CHUNK, failure, itemsOf, textParam, yieldToLoop } from './tabular-params';

/** The CSV export settings of spec 001 §3.5 (the encoding applies to the file, not to the text output). */
export interface CsvWriteSettings {
  header: boolean;
  transposed: boolean;
  sep: string;
  decimal: string;
}

const opt = (name: string, content_type: string, value: unknown) => ({
  name,
  content_type,
  is_optional: true,
  default_value: { value },
});

/** The rows' values, checked to be objects; a failure naming the first item that is not. */
function rowValues(rows: FrameItems): Record<string, unknown>[] {
  return rows.map((item, i) => {
    const value = item.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw failure('not_a_row', { item: `rows[${i}]` });
    return value as Record<string, unknown>;
  });
}

/**
 * The rows as CSV text (RFC 4180 quoting, lines ending in CRLF). Columns are every name of every
 * row, in the order they first appear; a row without a column leaves its cell empty.
 */
export async function writeCsv(rows: FrameItems, s: CsvWriteSettings, ctx: FunctionRunContext): Promise<string> {
  const values = rowValues(rows);
  const columns = [...new Set(values.flatMap((v) => Object.keys(v)))];
  if (!columns.length) return '';
  const cell = (v: unknown) => quoteCell(cellText(v, s.decimal), s.sep);
  const lines: string[] = [];
  if (s.transposed) {
    for (const column of columns) {
      const cells = values.map((v) => cell(v[column]));
      lines.push((s.header ? [quoteCell(column, s.sep), ...cells] : cells).join(s.sep));
    }
  } else {
    if (s.header) lines.push(columns.map((c) => quoteCell(c, s.sep)).join(s.sep));
    for (let i = 0; i < values.length; i++) {
      if (i % CHUNK === CHUNK - 1) {
        ctx.progress(i / values.length);
        await yieldToLoop(ctx);
      }
      lines.push(columns.map((c) => cell(values[i][c])).join(s.sep));
    }
  }
  return lines.length ? `${lines.join('\r\n')}\r\n` : '';
}

/** The file encodings of csv.export: `automatic` is UTF-8 with a byte order mark (spreadsheets then read umlauts right). */
export const CSV_EXPORT_ENCODINGS = ['automatic', ...CSV_ENCODINGS] as const;

/**
 * The CSV text as the bytes of a file in `encoding`. A single-byte encoding that lacks a character
 * of the text fails `unencodable`, naming the character and its line, instead of writing '?'.
 */
export function encodeCsv(csv: string, encoding: string): Buffer {
  if (encoding === 'automatic') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]);
  if (encoding === 'utf-8') return Buffer.from(csv, 'utf8');
  const bytes = iconv.encode(csv, encoding);
  const back = iconv.decode(bytes, encoding);
  if (back !== csv) {
    let at = 0;
    while (at < csv.length && csv[at] === back[at]) at++;
    const line = csv.slice(0, at).split('\n').length;
    throw failure('unencodable', { character: String.fromCodePoint(csv.codePointAt(at) ?? 63), line, encoding });
  }
  return bytes;
}

export const csvExport: FunctionDescriptor = {
  id: 'csv.export',
  version: '2',
  verbose_name: { de: 'CSV exportieren', en: 'Export CSV' },
  doc: {
    de:
      'Schreibt Zeilen als CSV-Text: header – eine Kopfzeile mit den Spaltennamen (Standard: ja); ' +
      'transposed – gekippt: jede Spalte wird eine Zeile; sep – Trennzeichen (Standard ;); decimal – Dezimalzeichen (Standard ,). ' +
      'Die Spalten sind alle Namen aller Zeilen in der Reihenfolge ihres ersten Auftretens. Zellen mit Trennzeichen, ' +
      'Anführungszeichen oder Zeilenumbrüchen werden in Anführungszeichen gesetzt; Zeilen enden mit CRLF. ' +
      'Ausgegeben werden der Text (csv) und eine Datei zum Herunterladen (file, Name aus name, Standard export.csv) ' +
      'in der Zeichenkodierung encoding: automatic (Standard: UTF-8 mit Byte-Order-Mark, damit Tabellenprogramme Umlaute richtig lesen), ' +
      'utf-8 (ohne Byte-Order-Mark), windows-1252 oder iso-8859-1 (ein Zeichen, das dort fehlt, ist ein Fehler mit seiner Zeile).',
    en:
      'Writes rows as CSV text: header – a header line with the column names (default: yes); ' +
      'transposed – turned: every column becomes a line; sep – the separator (default ;); decimal – the decimal mark (default ,). ' +
      'The columns are every name of every row in the order they first appear. Cells holding the separator, quotes or ' +
      'line breaks are quoted; lines end in CRLF. ' +
      'The output is the text (csv) and a file to download (file, named by name, default export.csv) in the character ' +
      'encoding encoding: automatic (default: UTF-8 with a byte order mark, so spreadsheets read umlauts right), utf-8 ' +
      '(without a byte order mark), windows-1252 or iso-8859-1 (a character missing there is an error naming its line).',
  },
  inputs: [
    { name: 'rows', content_type: 'row' },
    opt('header', 'bool', true),
    opt('transposed', 'bool', false),
    opt('sep', 'string', ';'),
    opt('decimal', 'string', ','),
    opt('encoding', 'string', 'automatic'),
    opt('name', 'string', 'export.csv'),
  ],
  outputs: [
    { name: 'csv', content_type: 'string' },
    { name: 'file', content_type: 'file' },
  ],
  run: async (inputs, ctx) => {
    const sep = textParam(inputs, 'sep', ';');
    const decimal = textParam(inputs, 'decimal', ',', ['.', ',']);
    if (sep.length !== 1 && sep !== '\\t') throw failure('invalid_separator', { value: sep });
    if (sep === decimal) throw failure('separator_is_decimal', { value: sep });
    const settings = {
      header: boolParam(inputs, 'header', true),
      transposed: boolParam(inputs, 'transposed', false),
      sep: sep === '\\t' ? '\t' : sep,
      decimal,
    };
    const encoding = textParam(inputs, 'encoding', 'automatic', CSV_EXPORT_ENCODINGS);
    const name = plainFileName(textParam(inputs, 'name', 'export.csv'), 'export.csv');
    const csv = await writeCsv(itemsOf(inputs, 'rows'), settings, ctx);
    const file = await ctx.storeFile(encodeCsv(csv, encoding), { name, mime_type: 'text/csv' });
    ctx.progress(1);
    return { csv: [{ value: csv }], file: [file] };
  },
};
