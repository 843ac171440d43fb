import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobHold, BlobInfo, BlobPutOptions, BlobRange, BlobStore } from '@werkbank/sdk/node';
import { emptyFile } from './blob-errors';
import { HashingFileWriter } from './hashing-file-writer';
import { SNIFF_BYTES, sniffMime } from './sniff-mime';
import { currentTempOwner, ownerStopped, parseTempOwner, tempOwnerTag, type TempOwner } from './temp-owner';

const HASH = /^[0-9a-f]{64}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * BlobStore on the local file system: `{root}/sha256/ab/cd/<hash>`, temporary files in
 * `{root}/tmp/` (same file system, so the final rename is atomic), named after the process that
 * writes them (`{host}~{pid}~{started}.{uuid}.part`). Create it with `open`.
 */
export class FileBlobStore implements BlobStore {
  private readonly owner: TempOwner = currentTempOwner();

  private constructor(
    readonly root: string,
    private readonly ephemeral: boolean,
    private readonly hold?: BlobHold,
  ) {}

  /**
   * The store of a data folder: `{dataDir}/blobs/`. For `memory://` (tests) a fresh temporary
   * folder that `close()` removes. Partial files of puts cut off by a crash are removed: at once
   * when their process ran on this host and is gone (issue 14 item 28), otherwise (another host
   * sharing the folder, files of older versions) once they are a day old. `hold` is called for
   * every put before its bytes are kept (BlobHold).
   */
  static async open(dataDir: string, opts: { hold?: BlobHold } = {}): Promise<FileBlobStore> {
    const ephemeral = dataDir.startsWith('memory://');
    const root = ephemeral ? await mkdtemp(join(tmpdir(), 'werkbank-blobs-')) : join(dataDir, 'blobs');
    const store = new FileBlobStore(root, ephemeral, opts.hold);
    await mkdir(store.tmpDir, { recursive: true });
    await mkdir(join(root, 'sha256'), { recursive: true });
    await store.sweepTemp(DAY_MS);
    return store;
  }

  get tmpDir(): string {
    return join(this.root, 'tmp');
  }

  /** Where the blob with this hash lives. Throws on a malformed hash (never a path outside root). */
  pathOf(hash: string): string {
    if (!HASH.test(hash)) throw new TypeError(`Not a sha256 blob hash: ${JSON.stringify(hash)}`);
    return join(this.root, 'sha256', hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(source: Readable, opts: BlobPutOptions): Promise<BlobInfo> {
    const tmp = join(this.tmpDir, `${tempOwnerTag(this.owner)}.${randomUUID()}.part`);
    const writer = new HashingFileWriter(tmp, opts.maxBytes);
    try {
      await pipeline(source, writer);
      const size = writer.size;
      if (opts.refuseEmpty && size === 0) throw emptyFile();
      const hash = writer.digest();
      const dest = this.pathOf(hash);
      // Everything that may fail comes before the bytes are moved into place: a rejected put stores nothing.
      const mime = await sniffMime(Buffer.concat(writer.head), { complete: size <= SNIFF_BYTES, filename: opts.filename });
      // Held first: a sweep that was removing these bytes has finished, so the check below sees it.
      await this.hold?.(hash);
      if (await this.stat(hash)) {
        // Same bytes already stored: keep the existing blob untouched.
        await rm(tmp, { force: true });
      } else {
        await mkdir(dirname(dest), { recursive: true });
        await rename(tmp, dest);
      }
      return { hash, size, mime };
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async stat(hash: string): Promise<{ size: number } | undefined> {
    if (!HASH.test(hash)) return undefined;
    try {
      const s = await stat(this.pathOf(hash));
      return s.isFile() ? { size: s.size } : undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  open(hash: string, range?: BlobRange): Readable {
    return createReadStream(this.pathOf(hash), range ? { start: range.start, end: range.end } : {});
  }

  async delete(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }

  /**
   * Removes the temporary files of processes that stopped on this host, and any older than
   * `olderThanMs`; returns how many. Called by `open`.
   */
  async sweepTemp(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await readdir(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      const s = await stat(path).catch(() => undefined);
      const owner = parseTempOwner(name);
      if (s && (s.mtimeMs < cutoff || (owner && ownerStopped(owner, this.owner)))) {
        await rm(path, { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }

  /** Called when the server stops: removes the folder of a `memory://` store; keeps real data. */
  async close(): Promise<void> {
    if (this.ephemeral) await rm(this.root, { recursive: true, force: true });
  }
}
