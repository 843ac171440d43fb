import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { assertError, expectStatus } from './api-test-support';
import type { TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  runAndWait,
  switchboardServer,
  type User,
} from '@werkbank/plugin-switchboards/testing';
import { newDepot, type Datum } from '@werkbank/plugin-magazine/testing';
import { uploadFile } from '@werkbank/plugin-magazine/testing';
import { bytesOf, frameUpload, heldFrameUpload } from '@werkbank/plugin-switchboards/testing';
import { sweepContent } from '../../plugins/switchboards/src/node/frame-content';
import { BlobSweep } from '../../server/src/blob/blob-sweep';

/**
 * The server's one blob sweep asks every plugin which blobs it still uses (decision 0017): the
 * Magazine's datum versions and the switchboards' frame content, node runs included.
 */
describe('Blob sweep: references of the Magazine and of switchboard frames', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  before(() => ({ t, alice } = server.get()));

  const db = () => t.server.db.dataSource;
  const hashIn = (url: string) => /\/file\/([0-9a-f]{64})\//.exec(url)![1];
  const stored = async (hash: string) => !!(await t.server.blobs.stat(hash));
  /** Lets the grace period of every candidate pass, then sweeps; returns how many blobs went. */
  const sweepAfterGrace = async () => {
    await db().query(`UPDATE werkbank_blob_candidate SET since = now() - interval '2 hours'`);
    return t.server.blobSweep.sweep();
  };
  /** Lets content that nothing refers to go, as the hourly content sweep does after an hour. */
  const sweepOldContent = async () => {
    await db().query(`UPDATE switchboard_content SET created = now() - interval '2 hours'`);
    return sweepContent(db().manager);
  };
  /** A file datum in a new depot of alice's (Magazine upload). */
  const magazineFile = async (name: string, bytes: Buffer) => {
    const depot = await newDepot(alice.client, 'file');
    const reset = await alice.client.post('/magazine/upload-reset/', { depot: depot.resource_uri });
    const id = expectStatus<{ upload_id: string }>(reset, 200).upload_id;
    const up = await uploadFile(alice.client, id, name, bytes);
    assert.equal(up.status, 201, JSON.stringify(up.body));
    return { depot, datum: up.body.file.datum as Datum };
  };
  /** A file uploaded into a new file frame of a new switchboard of alice's. */
  const frameFile = async (name: string, bytes: Buffer) => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    const up = expectStatus(await frameUpload(alice.client, frame.id, name, bytes), 201);
    return { sb, frame, url: String(up.datum.download_url) };
  };

  it('keeps a blob a frame holds when the Magazine deletes its datum of the same bytes', async () => {
    const bytes = Buffer.from('Pegel Dresden;1.92\n');
    const { depot } = await magazineFile('pegel.csv', bytes);
    const { url } = await frameFile('pegel.csv', bytes);
    expectStatus(await alice.client.delete(depot.resource_uri), 204);
    await sweepAfterGrace();
    assert.ok(await stored(hashIn(url)), 'the frame still uses the bytes');
    const got = await bytesOf(alice.client, url);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, bytes);
  });

  it('keeps a blob the Magazine holds when a frame drops its datum of the same bytes', async () => {
    const bytes = Buffer.from('Pegel Meißen;2.05\n');
    const { datum } = await magazineFile('meissen.csv', bytes);
    const { frame, url } = await frameFile('meissen.csv', bytes);
    expectStatus(await alice.client.patch(frame.resource_uri, { content: [] }), 200);
    assert.ok((await sweepOldContent()) >= 1, 'the frame’s old content went');
    await sweepAfterGrace();
    assert.ok(await stored(hashIn(url)));
    const got = await bytesOf(alice.client, String(datum.download_url));
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, bytes);
  });

  it('sweeps in the background when started, logs what it removed or why it failed, and stop waits for it', async () => {
    const lines: string[] = [];
    const log = (line: string) => void lines.push(line);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    /** Bytes of a Magazine datum whose depot is deleted, past the grace period. */
    const orphan = async (text: string) => {
      const bytes = Buffer.from(text);
      const { depot } = await magazineFile('kurz.txt', bytes);
      expectStatus(await alice.client.delete(depot.resource_uri), 204);
      await db().query(`UPDATE werkbank_blob_candidate SET since = now() - interval '2 hours'`);
      assert.ok(await stored(sha(bytes)));
      return sha(bytes);
    };
    await sweepAfterGrace(); // what earlier tests left
    const first = await orphan('nur kurz gebraucht\n');
    const down = { id: 'test.down', usedOf: () => Promise.reject(new Error('source down')) };
    const failing = new BlobSweep(db(), t.server.blobs, { all: () => [down] }, log);
    failing.start();
    await failing.stop();
    assert.deepEqual(lines, ['Blob store: sweep failed: source down']);
    assert.ok(await stored(first), 'a source that fails keeps its batch');

    const sweeper = new BlobSweep(db(), t.server.blobs, t.server.blobReferences, log);
    sweeper.start();
    await sweeper.stop();
    assert.deepEqual(lines.slice(1), ['Blob store: removed 1 files nothing refers to any more']);
    assert.equal(await stored(first), false);
    sweeper.start();
    await sweeper.stop();
    assert.equal(lines.length, 2, 'nothing removed, nothing logged');
    const second = await orphan('auch nur kurz\n');
    sweeper.start();
    await sweeper.stop();
    assert.deepEqual(lines.slice(2), ['Blob store: removed 1 files nothing refers to any more']);
    assert.equal(await stored(second), false);
  });

  it('removes a frame upload’s blob once no frame holds it, but only after the grace period', async () => {
    const { frame, url } = await frameFile('entwurf.txt', Buffer.from('Entwurf 1'));
    const hash = hashIn(url);
    await sweepAfterGrace();
    assert.ok(await stored(hash), 'an upload the frame holds stays');
    expectStatus(await alice.client.patch(frame.resource_uri, { content: [] }), 200);
    await sweepAfterGrace();
    assert.ok(await stored(hash), 'content stays an hour after the frame let go of it, and its files with it');
    await sweepOldContent();
    await t.server.blobSweep.sweep();
    assert.ok(await stored(hash), 'nothing goes within the grace period');
    await sweepAfterGrace();
    assert.equal(await stored(hash), false, 'the bytes went with the last content that held them');
  });

  it('keeps a blob while a node run’s kept content holds it, and removes it with the switchboard', async () => {
    const { sb, frame, url } = await frameFile('karte.txt', Buffer.from('Kartenblatt 5048'));
    const hash = hashIn(url);
    const copy = await addFrame(alice.client, sb, 'file');
    const merge = await addNode(alice.client, sb, 'frame.merge');
    await link(alice.client, merge, 'frames', frame, true, { list_index: 0 });
    await link(alice.client, merge, 'frame', copy, false);
    assert.equal((await runAndWait(t, alice.client, sb)).status, 'success');
    assert.equal(((await contentOf(alice.client, copy)) as unknown[]).length, 1, 'the run copied the file datum');
    expectStatus(await alice.client.patch(frame.resource_uri, { content: [] }), 200);
    expectStatus(await alice.client.patch(copy.resource_uri, { content: [] }), 200);
    await sweepOldContent();
    await sweepAfterGrace();
    assert.ok(await stored(hash), 'the run’s inputs and outputs still hold the file (replays read them)');
    expectStatus(await alice.client.delete(sb.resource_uri), 204);
    await sweepOldContent();
    await sweepAfterGrace();
    assert.equal(await stored(hash), false);
  });

  it('removes the bytes of a frame upload that failed after they were stored', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    const bytes = Buffer.from('zu spät für den Frame');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const upload = heldFrameUpload(alice.client, frame.id, 'spaet.txt', bytes);
    // The server has checked the frame and streams the file once its temporary file exists.
    while (!(await readdir(t.server.blobs.tmpDir)).length) await new Promise((res) => setTimeout(res, 10));
    expectStatus(await alice.client.delete(frame.resource_uri), 204);
    assertError(await upload.finish(), 404, 'not_found');
    assert.ok(await stored(hash), 'the bytes were stored before the frame was found gone');
    await t.server.blobSweep.sweep();
    assert.ok(await stored(hash), 'an upload in flight is held for the grace period');
    await sweepAfterGrace();
    assert.equal(await stored(hash), false);
  });
});
