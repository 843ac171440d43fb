import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { fileTooLarge } from './blob-errors';
import { SNIFF_BYTES } from './sniff-mime';

/** Chunks gathered while a write is running go to disk together, in one writev of up to this much. */
const BATCH_BYTES = 1024 * 1024;

/**
 * One stage that counts, hashes and writes a stream to a new file (flag `wx`), then syncs it:
 * the blob store's upload path. Over `maxBytes` it fails with 413 `file_too_large`. The caller
 * removes the file on failure. Keeps the first SNIFF_BYTES for type sniffing.
 */
export class HashingFileWriter extends Writable {
  size = 0;
  readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly hasher = createHash('sha256');
  private file?: FileHandle;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: BATCH_BYTES });
  }

  /** The sha256 of what was written (call once, after the stream finished). */
  digest(): string {
    return this.hasher.digest('hex');
  }

  override _construct(done: (error?: Error | null) => void): void {
    open(this.path, 'wx').then(
      (f) => {
        this.file = f;
        done();
      },
      (e: Error) => done(e),
    );
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void): void {
    const buffers: Buffer[] = [];
    for (const { chunk } of chunks) {
      this.size += chunk.length;
      if (this.size > this.maxBytes) return done(fileTooLarge(this.maxBytes));
      this.hasher.update(chunk);
      if (this.headBytes < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - this.headBytes);
        this.head.push(Buffer.from(part));
        this.headBytes += part.length;
      }
      buffers.push(chunk);
    }
    this.writeAll(buffers).then(() => done(), done);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this._writev([{ chunk }], done);
  }

  override _final(done: (error?: Error | null) => void): void {
    // Synced before it counts as stored: a blob that exists is complete on disk.
    this.file!.sync().then(() => done(), done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    const file = this.file;
    this.file = undefined;
    if (!file) return done(error);
    file.close().then(
      () => done(error),
      () => done(error),
    );
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    let pending = buffers;
    while (pending.length) {
      const { bytesWritten } = await this.file!.writev(pending);
      // A short write: continue with what is left.
      let skip = bytesWritten;
      const rest: Buffer[] = [];
      for (const b of pending) {
        if (skip >= b.length) skip -= b.length;
        else {
          rest.push(skip ? b.subarray(skip) : b);
          skip = 0;
        }
      }
      pending = rest;
    }
  }
}
