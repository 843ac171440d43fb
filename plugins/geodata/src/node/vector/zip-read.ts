import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
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

async function extractEntry(zip: Buffer, entry: ZipEntry, maxBytes: number): Promise<Buffer> {
  if (entry.encrypted) throw failure('zip_encrypted', { name: entry.name });
  const limit = Math.min(maxBytes, entry.size);
  const start = entry.offset + 30 + zip.readUInt16LE(entry.offset + 26) + zip.readUInt16LE(entry.offset + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
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
