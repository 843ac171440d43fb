import type { FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { cellText, quoteCell } from './csv-cells';
import { boolParam, CHUNK, failure, itemsOf, textParam, yieldToLoop } from './tabular-params';

/** The CSV export settings of spec 001 §3.5 (encoding does not apply to text output). */
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

export const csvExport: FunctionDescriptor = {
  id: 'csv.export',
  version: '1',
  verbose_name: { de: 'CSV exportieren', en: 'Export CSV' },
  doc: {
    de:
      'Schreibt Zeilen als CSV-Text (Spezifikation 001 §3.5): header – eine Kopfzeile mit den Spaltennamen (Standard: ja); ' +
      'transposed – gekippt: jede Spalte wird eine Zeile; sep – Trennzeichen (Standard ;); decimal – Dezimalzeichen (Standard ,). ' +
      'Die Spalten sind alle Namen aller Zeilen in der Reihenfolge ihres ersten Auftretens. Zellen mit Trennzeichen, ' +
      'Anführungszeichen oder Zeilenumbrüchen werden in Anführungszeichen gesetzt; Zeilen enden mit CRLF. ' +
      'Das Ergebnis ist ein Text: eine Zeichenkodierung gilt erst, wenn er als Datei gespeichert wird (dann UTF-8).',
    en:
      'Writes rows as CSV text (spec 001 §3.5): header – a header line with the column names (default: yes); ' +
      'transposed – turned: every column becomes a line; sep – the separator (default ;); decimal – the decimal mark (default ,). ' +
      'The columns are every name of every row in the order they first appear. Cells holding the separator, quotes or ' +
      'line breaks are quoted; lines end in CRLF. ' +
      'The result is a text: a character encoding applies only once it is saved as a file (then UTF-8).',
  },
  inputs: [
    { name: 'rows', content_type: 'row' },
    opt('header', 'bool', true),
    opt('transposed', 'bool', false),
    opt('sep', 'string', ';'),
    opt('decimal', 'string', ','),
  ],
  outputs: [{ name: 'csv', content_type: 'string' }],
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
    const csv = await writeCsv(itemsOf(inputs, 'rows'), settings, ctx);
    ctx.progress(1);
    return { csv: [{ value: csv }] };
  },
};
