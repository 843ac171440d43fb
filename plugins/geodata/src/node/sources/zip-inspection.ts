import { sourcesFailure } from './download-text';

/** One file or folder of a ZIP archive, as its central directory declares it. */
export interface ZipEntry {
  /** The entry's path inside the archive ('/'-separated, checked to stay inside the target folder). */
  name: string;
  /** Compressed and uncompressed sizes in bytes, as declared (readers must still count while inflating). */
  compressedSize: number;
  size: number;
  /** 0 stored, 8 deflate. */
  method: number;
  /** Offset of the entry's local header in the archive. */
  offset: number;
  directory: boolean;
  encrypted: boolean;
}

/** What an archive may hold before it is read (defaults: ZIP_LIMITS). */
export interface ZipLimits {
  maxEntries: number;
  /** Largest declared total of uncompressed bytes. */
  maxTotalSize: number;
  /** Largest expansion (uncompressed / compressed) of the whole archive and of each entry over 1 MiB. */
  maxRatio: number;
}

export const ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxTotalSize: 4 * 1024 ** 3, maxRatio: 200 };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MIB = 1024 * 1024;

/**
 * Reads a ZIP archive's central directory and refuses hostile archives before anything is
 * extracted: `zip_invalid` (not a ZIP, truncated, ZIP64), `zip_too_many_entries`, `zip_too_large`
 * (declared total), `zip_bomb` (expansion ratio), `zip_overlap` (entries sharing bytes: the overlapping-file
 * bomb), `zip_unsafe_path` (absolute paths, drive letters, `..` segments, backslashes: zip slip).
 * Declared sizes can lie: a reader that inflates must still stop at `size` bytes per entry.
 */
export function inspectZip(zip: Buffer, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  const end = findEndRecord(zip);
  const count = zip.readUInt16LE(end + 10);
  const dirSize = zip.readUInt32LE(end + 12);
  const dirOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || dirOffset === 0xffffffff || dirSize === 0xffffffff)
    throw sourcesFailure('zip_invalid', { detail: 'ZIP64' });
  if (count > limits.maxEntries) throw sourcesFailure('zip_too_many_entries', { count, limit: limits.maxEntries });
  if (dirOffset + dirSize > end) throw sourcesFailure('zip_invalid', { detail: 'central directory outside the file' });

  const entries: ZipEntry[] = [];
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || zip.readUInt32LE(p) !== CENTRAL) throw sourcesFailure('zip_invalid', { detail: `entry ${i}` });
    const flags = zip.readUInt16LE(p + 8);
    const nameLength = zip.readUInt16LE(p + 28);
    const name = zip.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    const entry: ZipEntry = {
      name,
      method: zip.readUInt16LE(p + 10),
      compressedSize: zip.readUInt32LE(p + 20),
      size: zip.readUInt32LE(p + 24),
      offset: zip.readUInt32LE(p + 42),
      directory: name.endsWith('/'),
      encrypted: (flags & 1) === 1,
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.offset === 0xffffffff)
      throw sourcesFailure('zip_invalid', { detail: 'ZIP64' });
    checkPath(name);
    entries.push(entry);
    p += 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }

  const total = entries.reduce((s, e) => s + e.size, 0);
  if (total > limits.maxTotalSize) throw sourcesFailure('zip_too_large', { size: total, limit: limits.maxTotalSize });
  const compressed = entries.reduce((s, e) => s + e.compressedSize, 0);
  const bomb = entries.find((e) => e.size > MIB && e.size / Math.max(1, e.compressedSize) > limits.maxRatio);
  if (bomb || (total > MIB && total / Math.max(1, compressed) > limits.maxRatio))
    throw sourcesFailure('zip_bomb', { name: bomb?.name ?? '', limit: limits.maxRatio });
  checkNoOverlap(zip, entries, dirOffset);
  return entries;
}

/** The end of central directory record: the last signature within the 64 KiB comment window. */
function findEndRecord(zip: Buffer): number {
  for (let p = zip.length - 22; p >= Math.max(0, zip.length - 22 - 0xffff); p--) if (zip.readUInt32LE(p) === EOCD) return p;
  throw sourcesFailure('zip_invalid', { detail: 'no end of central directory' });
}

/** Zip slip: an entry path must stay inside the folder it is extracted to. */
function checkPath(name: string): void {
  const unsafe =
    !name ||
    name.includes('\\') ||
    name.includes('\0') ||
    name.startsWith('/') ||
    /^[a-zA-Z]:/.test(name) ||
    name.split('/').some((segment) => segment === '..');
  if (unsafe) throw sourcesFailure('zip_unsafe_path', { name });
}

/** Each entry's local header and data lie inside the file, before the directory, sharing no bytes. */
function checkNoOverlap(zip: Buffer, entries: ZipEntry[], dirOffset: number): void {
  const spans = entries.map((e) => {
    if (e.offset + 30 > dirOffset || zip.readUInt32LE(e.offset) !== LOCAL)
      throw sourcesFailure('zip_invalid', { detail: `local header of ${e.name}` });
    const start = e.offset;
    const endAt = start + 30 + zip.readUInt16LE(start + 26) + zip.readUInt16LE(start + 28) + e.compressedSize;
    if (endAt > dirOffset) throw sourcesFailure('zip_invalid', { detail: `data of ${e.name}` });
    return { start, end: endAt, name: e.name };
  });
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++)
    if (spans[i].start < spans[i - 1].end) throw sourcesFailure('zip_overlap', { name: spans[i].name });
}
