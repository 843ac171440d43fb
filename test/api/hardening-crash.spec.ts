import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MagazineServices } from '../../plugins/magazine/src/node/magazine-services';
import { startTestServer, TestClient, type TestServer } from '@werkbank/testing/node';
import { failInterruptedUploads } from '../../plugins/magazine/src/node/interrupted-uploads';
import { expectStatus } from './api-test-support';
import { newDepot } from '@werkbank/plugin-magazine/testing';
import { multipartParts, uploadFile } from '@werkbank/plugin-magazine/testing';
import { startServerProcess } from '@werkbank/testing/node';

const PASSWORD = 'crash-test-admin-password';

/** Partial files in the blob store's temporary folder, with their sizes. */
const partials = (dataDir: string) =>
  readdirSync(join(dataDir, 'blobs', 'tmp'))
    .filter((n) => n.endsWith('.part'))
    .map((n) => statSync(join(dataDir, 'blobs', 'tmp', n)).size);

/** Sends the head of a Magazine upload and `sent` bytes of its file, and never the rest. */
function startUpload(client: TestClient, uploadId: string, path: string, total: number, sent: Buffer): http.ClientRequest {
  const { head, tail, type } = multipartParts(path);
  const req = http.request(new URL(`/magazine/upload-file/${uploadId}/`, client.baseUrl), {
    method: 'POST',
    headers: {
      'Content-Type': type,
      'Content-Length': head.length + total + tail.length,
      Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'X-CSRFToken': client.csrfToken ?? '',
    },
  });
  req.on('error', () => {}); // the server is killed under it
  req.write(Buffer.concat([head, sent]));
  return req;
}

/** An upload cut off by a crash (issue 14 item 28), with the server as a real process killed with SIGKILL. */
describe('hardening: an upload cut off by a crash', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'werkbank-crash-'));
  let child: ChildProcess | undefined;
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is marked failed at the next start, its partial file is deleted, and the re-sent file completes the upload', async () => {
    const data = randomBytes(4 * 1024 * 1024);
    const first = await startServerProcess(dataDir, { adminPassword: PASSWORD });
    child = first.child;
    let admin = new TestClient(first.url);
    await admin.login('admin', PASSWORD);
    const depot = await newDepot(admin, 'file');
    const id = expectStatus(await admin.post('/magazine/upload-reset/', { depot: depot.resource_uri }), 200).upload_id;
    const status = async () => expectStatus(await admin.get(`/magazine/upload-status/${id}/`), 200);

    const half = data.subarray(0, data.length / 2);
    const req = startUpload(admin, id, 'luftbilder/kachel.tif', data.length, half);
    // Until the server holds the row and has written what was sent so far.
    for (;;) {
      const s = await status();
      if (s.files[0]?.status === 'uploading' && partials(dataDir).some((size) => size >= half.length)) break;
    }
    child.kill('SIGKILL');
    await once(child, 'exit');
    req.destroy();
    assert.equal(partials(dataDir).length, 1, 'the crash left the partial file');

    const second = await startServerProcess(dataDir, { adminPassword: PASSWORD });
    child = second.child;
    admin = new TestClient(second.url);
    await admin.login('admin', PASSWORD);
    const after = await status();
    assert.equal(after.status, 'failure');
    assert.deepEqual(
      after.files.map((f: { path: string; status: string }) => [f.path, f.status]),
      [['luftbilder/kachel.tif', 'failed']],
    );
    assert.match(after.files[0].reason, /interrupted because the server stopped/);
    assert.deepEqual(partials(dataDir), [], 'the partial file is gone');

    const again = await uploadFile(admin, id, 'luftbilder/kachel.tif', data);
    assert.equal(again.status, 201, JSON.stringify(again.body));
    const done = await status();
    assert.equal(done.status, 'success');
    assert.deepEqual(
      done.files.map((f: { path: string; status: string; size: number }) => [f.path, f.status, f.size]),
      [['luftbilder/kachel.tif', 'success', data.length]],
    );
  });
});

describe('hardening: uploads of a server that stopped elsewhere (PostgreSQL, several processes)', function () {
  let t: TestServer;
  let admin: TestClient;
  before(async () => {
    t = await startTestServer({ plugins: ['types', 'tags', 'events', 'magazine'] });
    admin = await t.admin();
  });
  after(() => t?.close());

  it('fails rows whose heartbeat stopped, keeps live ones, and lets a re-sent file take over a stopped row', async () => {
    const depot = await newDepot(admin, 'file');
    const id = expectStatus(await admin.post('/magazine/upload-reset/', { depot: depot.resource_uri }), 200).upload_id;
    const db = t.server.db.dataSource;
    await db.query(
      `INSERT INTO magazine_upload_file (upload_id, path, status, heartbeat) VALUES
         ($1, 'alt.tif', 'uploading', now() - interval '10 minutes'),
         ($1, 'laeuft.tif', 'uploading', now()),
         ($1, 'wieder.tif', 'uploading', now() - interval '10 minutes')`,
      [id],
    );
    expectStatus(await uploadFile(admin, id, 'wieder.tif', Buffer.from('re-sent')), 201);
    assert.equal(await failInterruptedUploads(t.server.kernel.container.get(MagazineServices)), 1);
    const s = expectStatus(await admin.get(`/magazine/upload-status/${id}/`), 200);
    assert.deepEqual(
      s.files.map((f: { path: string; status: string }) => [f.path, f.status]),
      [
        ['alt.tif', 'failed'],
        ['laeuft.tif', 'uploading'],
        ['wieder.tif', 'success'],
      ],
    );
  });
});
