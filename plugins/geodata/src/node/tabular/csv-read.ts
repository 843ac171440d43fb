import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser, type CsvError, type Options } from 'csv-parse';
import iconv from 'iconv-lite';
import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { cellValue, type Cell } from './csv-cells';
import { CHUNK, failure, yieldToLoop } from './tabular-params';
import { fallbackNotice, Utf8OrWindows1252 } from './csv-decode';

/** The CSV import settings of spec 001 §3.4. */
export interface CsvReadSettings {
  header: boolean;
  encoding: string;
  /** Column names; when given they replace the header line (or name the columns of a file without one). */
  names: string[];
  sep: string;
  skiprows: number;
  skipfooter: number;
  decimal: string;
  transposed: boolean;
}

export const CSV_READ_DEFAULTS: CsvReadSettings = {
  header: true,
  encoding: 'utf-8',
  names: [],
  sep: ';',
  skiprows: 0,
  skipfooter: 0,
  decimal: '.',
  transposed: false,
};

export const CSV_ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-1'] as const;

/**
 * Where rows go instead of into the returned list (a streaming import): `take` gets each batch of
 * `size` rows in order and is awaited, so reading waits while the batch is stored; what it throws
 * ends the read with that error.
 */
export interface RowSink {
  size: number;
  take(rows: FrameItems): Promise<void>;
}

/** A record and the line it ends on. */
interface Parsed {
  record: string[];
  lines: number;
}

/**
 * csv-parse's parser giving each record with its line. Its `info` option (or `on_record`) copies
 * the whole parse state into a new object per record, which cost more than the parse itself on
 * a million rows; the line is all a message needs.
 */
class LineParser extends Parser {
  /** The last line of the last complete record: an unclosed quote begins after it. */
  lastLine: number;

  constructor(options: Options, from: number) {
    super(options);
    this.lastLine = from;
  }

  override push(record: unknown, encoding?: BufferEncoding): boolean {
    if (record === null) return super.push(null, encoding);
    this.lastLine = this.info.lines;
    return super.push({ record: record as string[], lines: this.lastLine } satisfies Parsed, encoding);
  }
}

/**
 * Reads CSV bytes (or text) from `source` into row datums `{value: {column: cell}}`. The bytes
 * are decoded and parsed as a stream: memory holds the rows produced, the last `skipfooter`
 * records and one chunk of input, never the whole text — except with `transposed`, where the
 * columns become rows only once every line has been read. `size` (bytes or characters) drives
 * progress. Throws failures naming the line (and column) of broken input; the signal aborts.
 * With a `sink` the rows go there batch by batch and the returned list is empty.
 */
export async function readCsv(
  source: Readable,
  settings: CsvReadSettings,
  ctx: FunctionRunContext,
  size = 0,
  sink?: RowSink,
): Promise<FrameItems> {
  const rows = new RowBuilder(settings);
  const pending: Parsed[] = [];
  let read = 0;
  source.on('data', (chunk: Buffer | string) => {
    read += chunk.length;
    if (size > 0) ctx.progress(Math.min(0.99, read / size));
  });
  // Records are pushed as they complete, ahead of the consumer (which lags behind the stream's buffer).
  const parser = new LineParser(
    {
      delimiter: settings.sep,
      from_line: settings.skiprows + 1,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    },
    settings.skiprows,
  );
  // A broken record the consumer refuses: leaving the loop destroys the parser with an AbortError,
  // which pipeline may report in its place while the source (a file) is still being read.
  let refused: unknown;
  try {
    await pipeline(
      source,
      decoder(settings.encoding, ctx),
      parser,
      async (records: AsyncIterable<Parsed>) => {
        let n = 0;
        for await (const parsed of records) {
          pending.push(parsed);
          // The footer is only known at the end: a record leaves the queue once skipfooter follow it.
          try {
            if (pending.length > settings.skipfooter) rows.add(pending.shift()!);
            if (sink && rows.count >= sink.size) await sink.take(rows.drain());
          } catch (e) {
            refused = e;
            throw e;
          }
          if (++n % CHUNK === 0) await yieldToLoop(ctx);
        }
      },
      { signal: ctx.signal },
    );
  } catch (e) {
    ctx.signal.throwIfAborted();
    throw refused ?? csvFailure(e, parser.lastLine + 1);
  }
  const out = rows.finish();
  if (sink) {
    for (let start = 0; start < out.length; start += sink.size) await sink.take(out.slice(start, start + sink.size));
  }
  ctx.progress(1);
  return sink ? [] : out;
}

/**
 * The decoder of the encoding setting: UTF-8 (the default) falls back to windows-1252 with a
 * notice in the run's log when the bytes are not UTF-8 (see Utf8OrWindows1252).
 */
function decoder(encoding: string, ctx: FunctionRunContext) {
  if (encoding !== 'utf-8') return iconv.decodeStream(encoding);
  return new Utf8OrWindows1252((line) => ctx.log(fallbackNotice(ctx.lang, line)));
}

/**
 * A csv-parse error as a failure naming its line and column; other errors unchanged. An unclosed
 * quote names `recordLine`, where the record holding it begins, and the last line (`end`).
 */
function csvFailure(e: unknown, recordLine: number): unknown {
  const err = e as Partial<CsvError> & { lines?: number; column?: number | string; index?: number };
  if (typeof err?.code !== 'string' || !err.code.startsWith('CSV_')) return e;
  const line = err.lines ?? 0;
  const column = typeof err.index === 'number' ? err.index + 1 : typeof err.column === 'number' ? err.column + 1 : 0;
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return failure('unterminated_quote', { line: recordLine, end: line });
  if (err.code === 'CSV_INVALID_CLOSING_QUOTE' || err.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE') {
    return failure('invalid_quote', { line, column });
  }
  return failure('invalid_csv', { line, column, message: err.message ?? '' });
}

/** Turns parsed records into row datums: the header (or given names) and a check of each record's width. */
class RowBuilder {
  private names: string[] | undefined;
  private rows: FrameItems = [];
  private readonly table: Parsed[] = [];

  constructor(private readonly s: CsvReadSettings) {
    if (s.names.length && !s.transposed) this.names = checkNames(s.names, 0);
  }

  add(parsed: Parsed): void {
    if (this.s.transposed) {
      this.table.push(parsed);
      return;
    }
    if (this.s.header && !this.sawHeader) {
      this.sawHeader = true;
      if (!this.names) this.names = checkNames(parsed.record, parsed.lines);
      return;
    }
    this.names ??= parsed.record.map((_, i) => `column_${i + 1}`);
    if (parsed.record.length !== this.names.length) {
      throw failure('column_count', {
        line: parsed.lines,
        expected: this.names.length,
        found: parsed.record.length,
      });
    }
    this.rows.push({ value: this.row(this.names, parsed.record) });
  }

  private sawHeader = false;

  /** Rows made and not yet drained. */
  get count(): number {
    return this.rows.length;
  }

  /** The rows made since the last drain (a streaming read passes them on). */
  drain(): FrameItems {
    const out = this.rows;
    this.rows = [];
    return out;
  }

  finish(): FrameItems {
    return this.s.transposed ? this.transpose() : this.rows;
  }

  /** Transposed (spec 001 §3.4): the first column names the fields and each further column is a row. */
  private transpose(): FrameItems {
    const width = Math.max(0, ...this.table.map((p) => p.record.length));
    for (const p of this.table) {
      if (p.record.length !== width) {
        throw failure('column_count', { line: p.lines, expected: width, found: p.record.length });
      }
    }
    const given = this.s.names.length ? checkNames(this.s.names, 0) : undefined;
    const names =
      given ??
      (this.s.header
        ? checkNames(
            this.table.map((p) => p.record[0]),
            0,
          )
        : undefined);
    const first = this.s.header ? 1 : 0;
    const fieldNames = names ?? this.table.map((_, i) => `column_${i + 1}`);
    if (fieldNames.length !== this.table.length) {
      throw failure('names_count', { expected: this.table.length, found: fieldNames.length });
    }
    const out: FrameItems = [];
    for (let c = first; c < width; c++) {
      out.push({
        value: this.row(
          fieldNames,
          this.table.map((p) => p.record[c]),
        ),
      });
    }
    return out;
  }

  private row(names: string[], record: string[]): Record<string, Cell> {
    const value: Record<string, Cell> = {};
    names.forEach((name, i) => (value[name] = cellValue(record[i], this.s.decimal)));
    return value;
  }
}

/** Column names: each non-empty and unique; a failure naming the line (0: the names parameter). */
function checkNames(names: string[], line: number): string[] {
  const seen = new Set<string>();
  names.forEach((raw, i) => {
    const name = raw.trim();
    if (!name) throw failure('empty_column_name', { line, column: i + 1 });
    if (seen.has(name)) throw failure('duplicate_column_name', { line, name });
    seen.add(name);
  });
  return names.map((n) => n.trim());
}

/** A text as a stream of chunks for readCsv (so text and files share one parser). */
export function textSource(text: string): Readable {
  const chunks = function* () {
    for (let i = 0; i < text.length;) {
      let end = Math.min(text.length, i + 64 * 1024);
      // A surrogate pair is never split between two chunks.
      if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end++;
      yield Buffer.from(text.slice(i, end), 'utf-8');
      i = end;
    }
  };
  return Readable.from(chunks(), { objectMode: false });
}
