import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ApiError } from '@werkbank/sdk/node';
import { FileBlobStore } from './file-blob-store';
import { SNIFF_BYTES } from './sniff-mime';
import { filesUnder } from './blob-test-support';
import { currentTempOwner, tempOwnerTag } from './temp-owner';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe('FileBlobStore', () => {
  let dataDir: string;
  let store: FileBlobStore;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'werkbank-blob-spec-'));
    store = await FileBlobStore.open(dataDir);
  });
  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores bytes under blobs/sha256/ab/cd/<hash> with their hash, size and sniffed type', async () => {
    const blob = await store.put(Readable.from([Buffer.from('{"a": '), Buffer.from('1}')]), { maxBytes: 100 });
    assert.deepEqual(blob, { hash: sha256('{"a": 1}'), size: 8, mime: 'application/json' });
    const h = blob.hash;
    assert.ok(existsSync(join(dataDir, 'blobs', 'sha256', h.slice(0, 2), h.slice(2, 4), h)));
    assert.deepEqual(await store.stat(h), { size: 8 });
    assert.equal(await text(store.open(h)), '{"a": 1}');
    assert.equal(await text(store.open(h, { start: 2, end: 4 })), 'a":');
  });

  it('sniffs the first bytes however they arrive, and the whole file only when it fits the sniffed head', async () => {
    const chunks = (data: string, size: number) =>
      Readable.from(
        Array.from({ length: Math.ceil(data.length / size) }, (_, i) => Buffer.from(data.slice(i * size, (i + 1) * size))),
      );
    const put = async (data: string, size = 1000) => (await store.put(chunks(data, size), { maxBytes: 1e6 })).mime;
    // A NUL after the head does not make the file binary: only the first SNIFF_BYTES are looked at.
    assert.equal(await put(`${'a'.repeat(SNIFF_BYTES + 100)}\0${'b'.repeat(900)}`), 'text/plain');
    assert.equal(await put(`${'a'.repeat(SNIFF_BYTES - 100)}\0${'b'.repeat(900)}`), 'application/octet-stream');
    // Text that starts like JSON: a head larger files may have, parsed only when it is the whole file.
    const jsonLike = (length: number) => `{"a": "${'x'.repeat(length - 7)}`;
    assert.equal(await put(jsonLike(SNIFF_BYTES + 1)), 'application/json');
    assert.equal(await put(jsonLike(SNIFF_BYTES)), 'text/plain');
    assert.equal(await put(jsonLike(100), 7), 'text/plain');
  });

  it('keeps one copy of the same bytes and leaves no temporary file', async () => {
    const a = await store.put(Readable.from(['same bytes']), { maxBytes: 100, filename: 'a.txt' });
    const b = await store.put(Readable.from(['same ', 'bytes']), { maxBytes: 100, filename: 'b.csv' });
    assert.equal(a.hash, b.hash);
    assert.deepEqual(await filesUnder(join(dataDir, 'blobs')), [join('sha256', a.hash.slice(0, 2), a.hash.slice(2, 4), a.hash)]);
  });

  it('accepts exactly maxBytes and refuses one byte more with 413 file_too_large, leaving nothing', async () => {
    await store.put(Readable.from([Buffer.alloc(10, 1)]), { maxBytes: 10 });
    await assert.rejects(
      store.put(Readable.from([Buffer.alloc(6, 2), Buffer.alloc(5, 2)]), { maxBytes: 10 }),
      (e: unknown) => e instanceof ApiError && e.status === 413 && e.code === 'file_too_large' && e.params.limit === '10 B',
    );
    assert.equal((await filesUnder(join(dataDir, 'blobs'))).length, 1, 'only the first blob');
    assert.deepEqual(await filesUnder(store.tmpDir), []);
  });

  it('removes the temporary file when the source fails midway', async () => {
    async function* failing() {
      yield Buffer.from('partial ');
      throw new Error('connection lost');
    }
    await assert.rejects(store.put(Readable.from(failing()), { maxBytes: 100 }), /connection lost/);
    assert.deepEqual(await filesUnder(join(dataDir, 'blobs')), []);
  });

  it('refuses an empty source with 400 empty_file only when asked to', async () => {
    await assert.rejects(
      store.put(Readable.from([]), { maxBytes: 10, refuseEmpty: true }),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.code === 'empty_file',
    );
    assert.deepEqual(await filesUnder(join(dataDir, 'blobs')), []);
    assert.equal((await store.put(Readable.from([]), { maxBytes: 10 })).size, 0);
  });

  it('deletes blobs; unknown and malformed hashes have no stat and never reach outside the store', async () => {
    const { hash } = await store.put(Readable.from(['x']), { maxBytes: 10 });
    await store.delete(hash);
    await store.delete(hash);
    assert.equal(await store.stat(hash), undefined);
    assert.equal(await store.stat('../../etc/passwd'), undefined);
    assert.throws(() => store.open('../x'), TypeError);
    // A well-formed hash with something before or after it is no hash either.
    for (const wrapped of [`../../${hash}`, `${hash}/../../x`]) {
      assert.throws(() => store.pathOf(wrapped), /^TypeError: Not a sha256 blob hash: "/);
      assert.equal(await store.stat(wrapped), undefined);
    }
  });

  it('reports a damaged store instead of calling a blob missing', async () => {
    const hash = sha256('somewhere');
    // A file where the folder of the hash's first two characters should be.
    await writeFile(join(store.root, 'sha256', hash.slice(0, 2)), 'not a folder');
    await assert.rejects(store.stat(hash), { code: 'ENOTDIR' });
  });

  it('fails a put, instead of waiting for ever, when its temporary file cannot be created', async () => {
    await rm(store.tmpDir, { recursive: true });
    await assert.rejects(store.put(Readable.from(['x']), { maxBytes: 10 }), { code: 'ENOENT' });
  });

  it('removes temporary files older than a day when it opens, and keeps newer ones', async () => {
    const old = join(store.tmpDir, 'old.part');
    const fresh = join(store.tmpDir, 'fresh.part');
    await writeFile(old, 'left by a crash');
    await writeFile(fresh, 'an upload in progress');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    const almostADay = new Date(Date.now() - 23 * 3600 * 1000);
    await utimes(fresh, almostADay, almostADay);
    const reopened = await FileBlobStore.open(dataDir);
    assert.deepEqual(await filesUnder(reopened.tmpDir), ['fresh.part']);
    // Asked directly, it says how many it removed.
    await writeFile(old, 'left by a crash');
    await utimes(old, twoDaysAgo, twoDaysAgo);
    assert.equal(await reopened.sweepTemp(24 * 3600 * 1000), 1);
    assert.deepEqual(await filesUnder(reopened.tmpDir), ['fresh.part']);
  });

  it('removes at once the partial files of a process on this host that stopped, and keeps those of running ones', async () => {
    const self = currentTempOwner();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const tag = (pid: number, host = self.host) => tempOwnerTag({ host, pid, started: 1 });
    await writeFile(join(store.tmpDir, `${tag(gone)}.a.part`), 'cut off by a crash');
    await writeFile(join(store.tmpDir, `${tag(process.pid)}.b.part`), 'a predecessor with this process id');
    await writeFile(join(store.tmpDir, `${tag(process.ppid)}.c.part`), 'a running process');
    await writeFile(join(store.tmpDir, `${tag(gone, 'other-host')}.d.part`), 'another host sharing the folder');
    const reopened = await FileBlobStore.open(dataDir);
    assert.deepEqual((await filesUnder(reopened.tmpDir)).sort(), [
      `${tag(gone, 'other-host')}.d.part`,
      `${tag(process.ppid)}.c.part`,
    ]);
  });

  it('holds every put before keeping its bytes, also bytes already stored; a failed hold stores nothing', async () => {
    const held: Array<[string, boolean]> = [];
    const holding = await FileBlobStore.open(dataDir, {
      hold: async (hash) => {
        if (hash === sha256('refused')) throw new Error('database gone');
        held.push([hash, !!(await holding.stat(hash))]);
      },
    });
    await holding.put(Readable.from(['twice']), { maxBytes: 100 });
    await holding.put(Readable.from(['twice']), { maxBytes: 100 });
    assert.deepEqual(held, [
      [sha256('twice'), false],
      [sha256('twice'), true],
    ]);
    await assert.rejects(holding.put(Readable.from(['refused']), { maxBytes: 100 }), /database gone/);
    assert.equal(await holding.stat(sha256('refused')), undefined);
    assert.deepEqual(await filesUnder(holding.tmpDir), []);
  });

  it('uses a fresh temporary folder for memory:// and removes it on close', async () => {
    const memory = await FileBlobStore.open('memory://');
    assert.ok(memory.root.startsWith(join(tmpdir(), 'werkbank-blobs-')), memory.root);
    await memory.put(Readable.from(['kept until close']), { maxBytes: 100 });
    await memory.close();
    assert.equal(existsSync(memory.root), false);
  });

  it('keeps the blobs of a data folder when it closes', async () => {
    const { hash } = await store.put(Readable.from(['kept']), { maxBytes: 100 });
    await store.close();
    assert.equal(store.root, join(dataDir, 'blobs'));
    assert.deepEqual(await (await FileBlobStore.open(dataDir)).stat(hash), { size: 4 });
  });
});
