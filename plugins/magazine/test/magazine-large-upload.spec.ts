import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClient } from '@werkbank/testing/node';
import { expectStatus } from '@werkbank/testing/node';
import { newDepot } from './magazine-support';
import { uploadFile } from './magazine-upload-support';
import { startServerProcess } from '@werkbank/testing/node';

const PASSWORD = 'large-upload-admin-password';
/** Over 2 GiB, so no 32-bit size or in-memory buffer can hold it. */
const SIZE = 2 * 1024 ** 3 + 1024 ** 2;

/** Starts `npm start`'s server in a child process with a small heap; resolves its address. */
const startServer = (dataDir: string) =>
  startServerProcess(dataDir, { adminPassword: PASSWORD, nodeOptions: ['--max-old-space-size=256'] });

/** spec 000 §9: uploads up to 5 GB stream to disk; memory never grows with the file (DESIGN §3). */
describe('magazine: a file larger than 2 GiB on a 256 MB heap', function () {
  this.timeout(300_000);
  let dir: string;
  let child: ChildProcess | undefined;
  let admin: TestClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'werkbank-large-'));
    const started = await startServer(join(dir, 'data'));
    child = started.child;
    admin = new TestClient(started.url);
    await admin.login('admin', PASSWORD);
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('streams a sparse 2 GiB file through the upload calls and serves ranges of it', async () => {
    const file = join(dir, 'sparse.bin');
    const handle = await open(file, 'w');
    await handle.truncate(SIZE);
    await handle.write(Buffer.from('END'), 0, 3, SIZE - 3);
    await handle.close();

    const depot = await newDepot(admin, 'file');
    const reset = expectStatus<{ upload_id: string }>(
      await admin.post('/magazine/upload-reset/', { depot: depot.resource_uri }),
      200,
    );
    const res = await uploadFile(admin, reset.upload_id, 'huge/sparse.bin', { stream: createReadStream(file), length: SIZE });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.file.size, SIZE);
    assert.equal(res.body.file.datum.mime_type, 'application/octet-stream');
    assert.equal(child!.exitCode, null, 'the server is still running');

    const url = new URL(res.body.file.datum.download_url as string, admin.baseUrl);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const tail = await fetch(url, { headers: { Cookie: cookie, Range: 'bytes=-3' } });
    assert.equal(tail.status, 206);
    assert.equal(tail.headers.get('content-range'), `bytes ${SIZE - 3}-${SIZE - 1}/${SIZE}`);
    assert.equal(await tail.text(), 'END');
    const head = await fetch(url, { headers: { Cookie: cookie, Range: 'bytes=0-3' } });
    assert.deepEqual(Buffer.from(await head.arrayBuffer()), Buffer.alloc(4));
  });
});
