import { Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import { createInflateRaw, inflateRaw } from 'node:zlib';
import { inspectZip, type ZipEntry } from '../sources/zip-inspection';
import { failure } from './vector-params';

/** The files of a ZIP archive, checked by inspectZip and not yet extracted. */
export interface ZipArchive {
  entries: ZipEntry[];
  /**
   * The bytes of one entry, inflated with at most `maxBytes` of output (`zip_entry_too_large`
   * beyond), on zlib's thread pool so a large part does not hold up the server.
   */
  extract(entry: ZipEntry, maxBytes: number): Promise<Buffer>;
}

/**
 * Opens a ZIP archive held in memory: inspectZip first refuses hostile archives (zip slip, bombs,
 * overlapping entries, too many entries), then entries are extracted on demand, in memory only,
 * each inflated with a byte limit, since declared sizes may lie. Throws `zip_encrypted` and
 * `zip_method` for entries it cannot read and the sources area's `zip_*` failures.
 */
export function openZip(zip: Buffer): ZipArchive {
  const entries = inspectZip(zip);
  return { entries, extract: (entry, maxBytes) => extractEntry(zip, entry, maxBytes) };
}

const inflate = promisify(inflateRaw);

/** The compressed bytes of an entry (after its local header); `zip_encrypted` for encrypted ones. */
function entryData(zip: Buffer, entry: ZipEntry): Buffer {
  if (entry.encrypted) throw failure('zip_encrypted', { name: entry.name });
  const start = entry.offset + 30 + zip.readUInt16LE(entry.offset + 26) + zip.readUInt16LE(entry.offset + 28);
  return zip.subarray(start, start + entry.compressedSize);
}

/** Compressed bytes per chunk of an entry's stream (each reported to `onRead`). */
const STREAM_CHUNK = 64 * 1024;

/**
 * One entry of an archive checked by inspectZip as a stream of its inflated bytes, for parts too
 * large to hold unpacked: at most its declared size comes out (`zip_entry_too_large` beyond, since
 * declared sizes may lie), `zip_entry_broken` for damaged data. `onRead` gets the compressed bytes
 * as they are consumed (for progress).
 */
export function entryStream(zip: Buffer, entry: ZipEntry, onRead: (bytes: number) => void = () => undefined): Readable {
  const data = entryData(zip, entry);
  if (entry.method !== 0 && entry.method !== 8) throw failure('zip_method', { name: entry.name, method: entry.method });
  const chunks = function* () {
    for (let at = 0; at < data.length; at += STREAM_CHUNK) {
      const chunk = data.subarray(at, at + STREAM_CHUNK);
      onRead(chunk.length);
      yield chunk;
    }
  };
  let out = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      out += chunk.length;
      if (out > entry.size) done(failure('zip_entry_too_large', { name: entry.name, limit: entry.size }));
      else done(null, chunk);
    },
  });
  const source = Readable.from(chunks(), { objectMode: false });
  const inflated = entry.method === 0 ? source : source.pipe(createInflateRaw());
  inflated.on('error', () => limit.destroy(failure('zip_entry_broken', { name: entry.name })));
  return inflated.pipe(limit);
}

async function extractEntry(zip: Buffer, entry: ZipEntry, maxBytes: number): Promise<Buffer> {
  const data = entryData(zip, entry);
  const limit = Math.min(maxBytes, entry.size);
  if (entry.size > maxBytes) throw failure('zip_entry_too_large', { name: entry.name, limit: maxBytes });
  if (entry.method === 0) return Buffer.from(data.subarray(0, limit));
  if (entry.method !== 8) throw failure('zip_method', { name: entry.name, method: entry.method });
  try {
    return await inflate(data, { maxOutputLength: Math.max(1, limit) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw failure('zip_entry_too_large', { name: entry.name, limit: entry.size });
    throw failure('zip_entry_broken', { name: entry.name });
  }
}
