import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

const require = createRequire(import.meta.url);
// exceljs' own SAX helpers (saxes, no DTD or entity expansion): the same parser as the rest of the reader.
const parseSax = require('exceljs/lib/utils/parse-sax.js') as (
  source: AsyncIterable<unknown>,
) => AsyncIterable<Array<{ eventType: string; value: { name?: string } & string }>>;
const iterateStream = require('exceljs/lib/utils/iterate-stream.js') as (stream: Readable) => AsyncIterable<unknown>;

/** The part of exceljs' streaming WorkbookReader this fix replaces. */
interface SharedStringsReader {
  sharedStrings?: string[];
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
}

/**
 * Makes `reader` (an exceljs 4.4 WorkbookReader) read the shared strings table exactly: exceljs
 * appends every text between the elements of `<si>` — the line breaks of workbooks whose XML is
 * indented, as GDAL writes them — so "Görlitz" came out as "Görlitz\n"; it also mixes phonetic
 * guides (`<rPh>`) into the text. Here only the text of `<t>` elements outside `<rPh>` counts,
 * rich text runs joined into their plain text (the import keeps no formatting).
 */
export function readSharedStringsExactly(reader: unknown): void {
  const r = reader as SharedStringsReader;
  r._parseSharedStrings = async function* (entry: Readable) {
    const strings: string[] = [];
    r.sharedStrings = strings;
    let text = '';
    let inText = 0;
    let inPhonetic = 0;
    for await (const events of parseSax(iterateStream(entry))) {
      for (const { eventType, value } of events) {
        if (eventType === 'opentag') {
          if (value.name === 'si') text = '';
          else if (value.name === 't') inText++;
          else if (value.name === 'rPh') inPhonetic++;
        } else if (eventType === 'text') {
          if (inText && !inPhonetic) text += value;
        } else if (eventType === 'closetag') {
          if (value.name === 't') inText--;
          else if (value.name === 'rPh') inPhonetic--;
          else if (value.name === 'si') strings.push(text);
        }
      }
    }
    yield* [];
  };
}
