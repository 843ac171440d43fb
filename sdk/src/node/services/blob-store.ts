import { token } from '@werkbank/kernel';
import type { Readable } from 'node:stream';

/** A stored blob: its sha256 (lower-case hex, the address), its length and the sniffed media type. */
export interface BlobInfo {
  hash: string;
  size: number;
  mime: string;
}

/** An inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface BlobRange {
  start: number;
  end: number;
}

export interface BlobPutOptions {
  /** Largest accepted size in bytes; more is refused with ApiError 413 `file_too_large`. */
  maxBytes: number;
  /** The client's file name: may refine a sniffed text type (`.csv`), never decides it. */
  filename?: string;
  /** Refuse a source without bytes with ApiError 400 `empty_file` (default false). */
  refuseEmpty?: boolean;
}

/**
 * Called by `put` with the hash of the received bytes before it keeps them (moves them into
 * place or keeps the copy already stored). The server passes holdBlob (blob-sweep.ts), which
 * makes every stored blob a sweep candidate, so bytes nothing comes to refer to are removed.
 * A rejection fails the put, which then stores nothing. The hold writes on its own database
 * connection: call `put` outside a transaction (on the embedded database one open transaction
 * holds the others), and record the reference afterwards, within the grace period.
 */
export type BlobHold = (hash: string) => Promise<void>;

/**
 * Content-addressed file storage (DESIGN §3). The default is FileBlobStore under the data folder;
 * an object store can implement the same interface. Blobs are immutable and shared: two puts of
 * the same bytes give the same hash, so delete a blob only when nothing refers to it any more:
 * plugins never delete, the server's sweep does (decision 0017).
 */
export interface BlobStore {
  /**
   * Streams `source` to a temporary file while hashing and counting, then moves it to its hash
   * address. Rejects with ApiError 413 `file_too_large` past `maxBytes`, with ApiError 400
   * `empty_file` when asked to, and with the source's error when it fails or is destroyed; a
   * rejected put leaves no temporary file and no (partial) blob. `mime` is sniffed from the first
   * bytes (sniffMime), never taken from the client.
   */
  put(source: Readable, opts: BlobPutOptions): Promise<BlobInfo>;
  /** The blob's size, or undefined when there is none under this hash (or the hash is malformed). */
  stat(hash: string): Promise<{ size: number } | undefined>;
  /** Reads the blob, or the inclusive `range` of it. A missing blob errors the stream (ENOENT). */
  open(hash: string, range?: BlobRange): Readable;
  /** Removes the blob; a missing one is not an error. */
  delete(hash: string): Promise<void>;
}
export const BlobStore = token<BlobStore>('BlobStore');
