import type { FrameItems, FunctionDescriptor, FunctionInputs, FunctionRunContext } from '@werkbank/sdk/node';
import { CSV_ENCODINGS, CSV_READ_DEFAULTS, readCsv, textSource, type CsvReadSettings } from './csv-read';
import { append, named, part } from '../source-items';
import { boolParam, countParam, failure, itemsOf, textParam } from './tabular-params';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

const opt = (name: string, content_type: string, value: unknown) => ({
  name,
  content_type,
  is_optional: true,
  default_value: { value },
});

/** The CSV settings of spec 001 §3.4 read from the parameter ports (their defaults when unset). */
export function csvReadSettings(inputs: FunctionInputs): CsvReadSettings {
  const d = CSV_READ_DEFAULTS;
  const sep = textParam(inputs, 'sep', d.sep);
  const decimal = textParam(inputs, 'decimal', d.decimal, ['.', ',']);
  if (sep.length !== 1 && sep !== '\\t') throw failure('invalid_separator', { value: sep });
  if (sep === decimal) throw failure('separator_is_decimal', { value: sep });
  return {
    header: boolParam(inputs, 'header', d.header),
    encoding: textParam(inputs, 'encoding', d.encoding, CSV_ENCODINGS),
    names: namesParam(inputs),
    sep: sep === '\\t' ? '\t' : sep,
    skiprows: countParam(inputs, 'skiprows', d.skiprows),
    skipfooter: countParam(inputs, 'skipfooter', d.skipfooter),
    decimal,
    transposed: boolParam(inputs, 'transposed', d.transposed),
  };
}

/** The names parameter: one non-empty, unique text per item. */
function namesParam(inputs: FunctionInputs): string[] {
  const names = itemsOf(inputs, 'names').map((item, i) => {
    if (typeof item.value !== 'string' || !item.value.trim()) throw failure('invalid_name', { item: `names[${i}]` });
    return item.value.trim();
  });
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw failure('duplicate_name', { name: twice });
  return names;
}

/**
 * `csv.import`: the rows of CSV files (read as a stream through FileAccess, with the running
 * user's permissions) or CSV texts, one after the other into one frame of rows.
 */
export function csvImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'csv.import',
    version: '1',
    verbose_name: { de: 'CSV importieren', en: 'Import CSV' },
    doc: {
      de:
        'Liest CSV-Dateien (Eingang file) oder CSV-Texte (Eingang text) als Zeilen. Einstellungen: ' +
        'header – die erste Zeile enthält die Spaltennamen (Standard: ja); encoding – utf-8 (Standard; ist die Datei kein gültiges UTF-8, wird sie als windows-1252 gelesen und das Protokoll sagt es), windows-1252 oder iso-8859-1; ' +
        'names – Spaltennamen (ersetzen die Kopfzeile, oder benennen die Spalten einer Datei ohne Kopfzeile; sonst column_1, column_2, …); ' +
        'sep – Trennzeichen (Standard ;, \\t für Tabulator); skiprows – Zeilen, die vor der Tabelle übersprungen werden; ' +
        'skipfooter – Zeilen am Ende, die nicht zur Tabelle gehören; decimal – Dezimalzeichen von Zahlen (. oder ,); ' +
        'transposed – die Tabelle ist gekippt: die erste Spalte enthält die Namen, jede weitere Spalte ist eine Zeile. ' +
        'Zahlen werden zu Zahlen, leere Zellen zu null, alles andere bleibt Text (auch Ziffern mit führender Null wie Postleitzahlen). ' +
        'Dateien werden als Datenstrom gelesen; nur gekippte Tabellen werden ganz im Speicher gehalten.',
      en:
        'Reads CSV files (input file) or CSV texts (input text) as rows. Settings: ' +
        'header – the first line holds the column names (default: yes); encoding – utf-8 (default; a file that is not valid UTF-8 is read as windows-1252, and the log says so), windows-1252 or iso-8859-1; ' +
        'names – column names (they replace the header line, or name the columns of a file without one; otherwise column_1, column_2, …); ' +
        'sep – the separator (default ;, \\t for tab); skiprows – lines skipped before the table; ' +
        'skipfooter – lines at the end that are not part of the table; decimal – the decimal mark of numbers (. or ,); ' +
        'transposed – the table is turned: the first column holds the names and every further column is a row. ' +
        'Numbers become numbers, empty cells null, everything else stays text (digits with a leading zero such as postal codes too). ' +
        'Files are read as a stream; only transposed tables are held in memory whole.',
    },
    inputs: [
      { name: 'file', content_type: 'file', is_optional: true },
      { name: 'text', content_type: 'string', is_optional: true },
      opt('header', 'bool', true),
      opt('encoding', 'string', 'utf-8'),
      { name: 'names', content_type: 'string', is_optional: true },
      opt('sep', 'string', ';'),
      opt('skiprows', 'int', 0),
      opt('skipfooter', 'int', 0),
      opt('decimal', 'string', '.'),
      opt('transposed', 'bool', false),
    ],
    outputs: [{ name: 'rows', content_type: 'row' }],
    run: async (inputs, ctx) => {
      const settings = csvReadSettings(inputs);
      const fileItems = itemsOf(inputs, 'file');
      const texts = itemsOf(inputs, 'text');
      if (!fileItems.length && !texts.length) throw failure('no_csv_input');
      const total = fileItems.length + texts.length;
      const rows: FrameItems = [];
      for (const [i, item] of fileItems.entries()) {
        append(rows, await readFile(files, item, settings, part(ctx, i, total), i));
      }
      for (const [i, item] of texts.entries()) {
        if (typeof item.value !== 'string') throw failure('not_a_text', { item: `text[${i}]` });
        // A text is already decoded: its encoding setting does not apply.
        const source = textSource(item.value);
        const sub = part(ctx, fileItems.length + i, total);
        append(rows, await named(readCsv(source, { ...settings, encoding: 'utf-8' }, sub, item.value.length), `text[${i}]`));
      }
      ctx.progress(1);
      return { rows };
    },
  };
}

async function readFile(files: FileAccess, item: FrameItems[number], s: CsvReadSettings, ctx: FunctionRunContext, i: number) {
  let opened;
  try {
    opened = await files.open(ctx.user, item);
  } catch {
    throw failure('file_unreadable', { item: `file[${i}]`, name: String(item.value ?? '') });
  }
  ctx.log(`${opened.name}: ${opened.size} bytes`);
  return named(readCsv(opened.stream, s, ctx, opened.size), opened.name || `file[${i}]`);
}
