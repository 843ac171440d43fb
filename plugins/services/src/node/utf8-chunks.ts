/** Bytes per chunk (a WFS GetFeature answer's). */
const CHUNK_BYTES = 256 * 1024;

/**
 * Text encoded as UTF-8 into chunks of about CHUNK_BYTES, piece by piece: a WFS answer is encoded
 * feature by feature and no text of a whole batch is joined first (with 100,000 GML features the
 * joined texts made garbage collection a quarter of the answer's time).
 */
export class Utf8Chunks {
  private readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;

  /** Starts with `text`. */
  constructor(text = '') {
    this.add(text);
  }

  add(text: string): void {
    // At most 3 bytes per UTF-16 unit.
    if (this.pos + text.length * 3 > this.buf.length) {
      this.flush();
      if (text.length * 3 > this.buf.length) {
        this.chunks.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  private flush(): void {
    if (!this.pos) return;
    this.chunks.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.pos = 0;
  }

  /** The chunks written, after `last` (the last chunk ends the text). */
  done(last = ''): Buffer[] {
    this.add(last);
    if (this.pos) this.chunks.push(this.buf.subarray(0, this.pos));
    return this.chunks;
  }
}
