import { Transform, type TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';
import { createI18n } from '@werkbank/sdk/node';
import { failure } from './tabular-params';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

let translator: ReturnType<typeof createI18n> | undefined;

/** The notice that a file was read as windows-1252, in `lang` (German or English). */
export function fallbackNotice(lang: string, line: number): string {
  translator ??= createI18n([{ id: 'geodata.tabular-notices', namespace: 'geodata-tabular', de, en }]);
  return translator.getFixedT(lang === 'de' ? 'de' : 'en', 'geodata-tabular')('notices.windows_1252', { line });
}

/** How many bytes at the end of `bytes` begin a UTF-8 sequence that the next chunk completes. */
function incompleteTail(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 3); i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return bytes.length - i < need ? bytes.length - i : 0;
  }
  return 0;
}

const newlines = (text: string) => text.split('\n').length - 1;
const NON_ASCII = /[\u0080-\u{10ffff}]/u;

/**
 * Decodes CSV bytes as UTF-8, falling back to windows-1252 when they are not UTF-8: the first
 * invalid sequence switches the rest of the stream (and the chunk holding it) to windows-1252 and
 * calls `onFallback` with its line, provided everything before it was ASCII (which both encodings
 * read alike). After valid non-ASCII UTF-8 it fails `mixed_encoding` naming the line instead: a
 * file in two encodings cannot be read right either way.
 */
export class Utf8OrWindows1252 extends Transform {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private windows1252 = false;
  private nonAscii = false;
  private line = 1;
  private pending = Buffer.alloc(0);

  constructor(private readonly onFallback: (line: number) => void) {
    super({ encoding: 'utf8' });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      const bytes = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
      const cut = this.windows1252 ? bytes.length : bytes.length - incompleteTail(bytes);
      this.pending = Buffer.from(bytes.subarray(cut));
      done(null, this.decode(bytes.subarray(0, cut)));
    } catch (e) {
      done(e as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      done(null, this.pending.length ? this.decode(this.pending) : '');
    } catch (e) {
      done(e as Error);
    }
  }

  private decode(bytes: Buffer): string {
    if (this.windows1252) return iconv.decode(bytes, 'windows-1252');
    try {
      const text = this.utf8.decode(bytes);
      this.nonAscii ||= NON_ASCII.test(text);
      this.line += newlines(text);
      return text;
    } catch {
      const lenient = new TextDecoder('utf-8').decode(bytes);
      const before = lenient.slice(0, lenient.indexOf('\uFFFD'));
      const line = this.line + newlines(before);
      if (this.nonAscii || NON_ASCII.test(before)) throw failure('mixed_encoding', { line });
      this.windows1252 = true;
      this.onFallback(line);
      return iconv.decode(bytes, 'windows-1252');
    }
  }
}
