import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * A PMTiles v3 archive writer (the format: protomaps/PMTiles spec/v3/spec.md; decision 0062). The
 * `pmtiles` package only reads; this writes what it reads: the 127-byte header, a gzip-compressed
 * root directory within the first 16 KiB, leaf directories when the root would not fit, gzip
 * metadata JSON, and the tile data in tile-id order (clustered), equal tiles stored once and runs
 * of equal consecutive tiles as one entry.
 */

/** One stored tile: its Hilbert tile id (`zxyToTileId`), where its bytes are in the data file, and their hash. */
export interface TileRecord {
  tileId: number;
  offset: number;
  length: number;
  hash: string;
}

export interface ArchiveHeaderInfo {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** gzip (2) for MVT tiles compressed by the builder, none (1) otherwise. */
  tileCompression: 1 | 2;
}

interface DirEntry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

const HEADER_BYTES = 127;
const ROOT_LIMIT = 16_384 - HEADER_BYTES;

/** Unsigned varint (protobuf style) of numbers up to 2^53. */
function pushVarint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/** A directory as the spec lays it out (ids as deltas, then run lengths, lengths, offsets), gzip-compressed. */
export function serializeDirectory(entries: DirEntry[]): Buffer {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    pushVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) pushVarint(out, e.runLength);
  for (const e of entries) pushVarint(out, e.length);
  entries.forEach((e, i) => {
    // 0: right after the previous entry's bytes; otherwise offset + 1.
    if (i > 0 && e.offset === entries[i - 1].offset + entries[i - 1].length) pushVarint(out, 0);
    else pushVarint(out, e.offset + 1);
  });
  return gzipSync(Buffer.from(out));
}

/** Root and leaves for `entries`: leaves of `leafSize` entries, the root pointing at them (run length 0). */
function rootAndLeaves(entries: DirEntry[], leafSize: number): { root: Buffer; leaves: Buffer; count: number } {
  const rootEntries: DirEntry[] = [];
  const parts: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < entries.length; i += leafSize) {
    const leaf = serializeDirectory(entries.slice(i, i + leafSize));
    rootEntries.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
    parts.push(leaf);
    offset += leaf.length;
  }
  return { root: serializeDirectory(rootEntries), leaves: Buffer.concat(parts), count: parts.length };
}

/** The root directory, and leaf directories when the root alone would not fit in the first 16 KiB. */
export function buildDirectories(entries: DirEntry[]): { root: Buffer; leaves: Buffer; leafCount: number } {
  const root = serializeDirectory(entries);
  if (root.length <= ROOT_LIMIT) return { root, leaves: Buffer.alloc(0), leafCount: 0 };
  // As the reference writer (go-pmtiles): start at 4096 entries per leaf and grow until the root fits.
  let leafSize = Math.max(4096, Math.ceil(entries.length / 3500));
  for (;;) {
    const r = rootAndLeaves(entries, leafSize);
    if (r.root.length <= ROOT_LIMIT) return { root: r.root, leaves: r.leaves, leafCount: r.count };
    leafSize = Math.ceil(leafSize * 1.2);
  }
}

/**
 * The directory entries for `records` (any order): sorted by tile id, equal contents (same hash)
 * sharing one stored copy, consecutive ids with equal content as one run. Also which records'
 * bytes the data section holds, in order.
 */
export function planTiles(records: TileRecord[]): {
  entries: DirEntry[];
  stored: TileRecord[];
  dataLength: number;
  contents: number;
} {
  const sorted = [...records].sort((a, b) => a.tileId - b.tileId);
  const placed = new Map<string, { offset: number; length: number }>();
  const entries: DirEntry[] = [];
  const stored: TileRecord[] = [];
  let dataLength = 0;
  for (const r of sorted) {
    const last = entries[entries.length - 1];
    const at = placed.get(r.hash);
    if (last && at && last.offset === at.offset && last.tileId + last.runLength === r.tileId) {
      last.runLength += 1;
      continue;
    }
    if (at) {
      entries.push({ tileId: r.tileId, offset: at.offset, length: at.length, runLength: 1 });
      continue;
    }
    placed.set(r.hash, { offset: dataLength, length: r.length });
    entries.push({ tileId: r.tileId, offset: dataLength, length: r.length, runLength: 1 });
    stored.push(r);
    dataLength += r.length;
  }
  return { entries, stored, dataLength, contents: stored.length };
}

const e7 = (deg: number) => Math.round(deg * 1e7);

/** The 127-byte header (all offsets and lengths little-endian u64). */
function header(f: {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leavesOffset: number;
  leavesLength: number;
  dataOffset: number;
  dataLength: number;
  addressed: number;
  entries: number;
  contents: number;
  info: ArchiveHeaderInfo;
}): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.write('PMTiles', 0, 'ascii');
  b.writeUInt8(3, 7);
  const u64 = [
    f.rootOffset,
    f.rootLength,
    f.metadataOffset,
    f.metadataLength,
    f.leavesOffset,
    f.leavesLength,
    f.dataOffset,
    f.dataLength,
    f.addressed,
    f.entries,
    f.contents,
  ];
  u64.forEach((n, i) => b.writeBigUInt64LE(BigInt(n), 8 + i * 8));
  b.writeUInt8(1, 96); // clustered: tile data in tile-id order
  b.writeUInt8(2, 97); // internal compression: gzip
  b.writeUInt8(f.info.tileCompression, 98);
  b.writeUInt8(1, 99); // tile type: MVT
  b.writeUInt8(f.info.minZoom, 100);
  b.writeUInt8(f.info.maxZoom, 101);
  const [w, s, e, n] = f.info.bounds;
  b.writeInt32LE(e7(w), 102);
  b.writeInt32LE(e7(s), 106);
  b.writeInt32LE(e7(e), 110);
  b.writeInt32LE(e7(n), 114);
  b.writeUInt8(f.info.minZoom, 118);
  b.writeInt32LE(e7((w + e) / 2), 119);
  b.writeInt32LE(e7((s + n) / 2), 123);
  return b;
}

/**
 * Writes the archive to `outPath`: tiles whose bytes are in the file `dataPath` (as `records`
 * say), `metadata` as its JSON. Returns the archive's size and the counts the header holds.
 */
export function writeArchive(
  outPath: string,
  dataPath: string,
  records: TileRecord[],
  metadata: Record<string, unknown>,
  info: ArchiveHeaderInfo,
): { size: number; addressed: number; contents: number } {
  const plan = planTiles(records);
  const dirs = buildDirectories(plan.entries);
  const meta = gzipSync(Buffer.from(JSON.stringify(metadata), 'utf8'));
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + dirs.root.length;
  const leavesOffset = metadataOffset + meta.length;
  const dataOffset = leavesOffset + dirs.leaves.length;
  const head = header({
    rootOffset,
    rootLength: dirs.root.length,
    metadataOffset,
    metadataLength: meta.length,
    leavesOffset,
    leavesLength: dirs.leaves.length,
    dataOffset,
    dataLength: plan.dataLength,
    addressed: records.length,
    entries: plan.entries.length,
    contents: plan.contents,
    info,
  });
  const out = openSync(outPath, 'w');
  const src = openSync(dataPath, 'r');
  try {
    for (const part of [head, dirs.root, meta, dirs.leaves]) writeSync(out, part);
    let buf = Buffer.alloc(64 * 1024);
    for (const r of plan.stored) {
      if (buf.length < r.length) buf = Buffer.alloc(r.length);
      readSync(src, buf, 0, r.length, r.offset);
      writeSync(out, buf, 0, r.length);
    }
  } finally {
    closeSync(src);
    closeSync(out);
  }
  return { size: dataOffset + plan.dataLength, addressed: records.length, contents: plan.contents };
}
