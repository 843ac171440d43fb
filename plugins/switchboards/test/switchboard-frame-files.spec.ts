import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { assertError, expectStatus } from '@werkbank/testing/node';
import type { TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  FRAMES,
  grant,
  link,
  list,
  newSwitchboard,
  runAndWait,
  switchboardServer,
  SWITCHBOARDS,
  type Obj,
  type User,
} from './switchboard-support';
import { newDepot } from '@werkbank/plugin-magazine/testing';
import { uploadFile } from '@werkbank/plugin-magazine/testing';
import { bytesOf, frameUpload } from './frame-upload-support';
import { putContent } from '../src/node/frame-content';

type Item = Record<string, unknown>;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const fileUrl = (frameId: number, hash: string, mode = 'download') => `${FRAMES}${frameId}/file/${hash}/${mode}/`;

/**
 * Frame files are served only as the server recorded them (docs/api.md "frame", decision 0018): a
 * file datum's download_url, embed_url, mime_type and size are the server's, so a datum written by
 * hand cannot make a frame serve a blob it never received, nor change the type it is served with.
 */
describe('Switchboard frames: files only as the server recorded them', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  let bob: User;
  before(() => ({ t, alice, bob } = server.get()));

  const db = () => t.server.db.dataSource;
  /** A file frame of a new switchboard of `user`'s, with these files uploaded into it. */
  const filesFrame = async (user: User, files: Record<string, string>) => {
    const sb = await newSwitchboard(user.client);
    const frame = await addFrame(user.client, sb, 'file');
    const datums: Item[] = [];
    for (const [name, text] of Object.entries(files)) {
      datums.push(expectStatus(await frameUpload(user.client, frame.id, name, Buffer.from(text)), 201).datum as Item);
    }
    return { sb, frame, datums };
  };
  /** A file only bob has: in his private Magazine depot, or in a frame of his. */
  const bobsSecrets = async () => {
    const magazineBytes = Buffer.from('Bobs Gehaltsliste;4711\n');
    const depot = await newDepot(bob.client, 'file');
    const reset = await bob.client.post('/magazine/upload-reset/', { depot: depot.resource_uri });
    const id = expectStatus<{ upload_id: string }>(reset, 200).upload_id;
    assert.equal((await uploadFile(bob.client, id, 'gehalt.csv', magazineBytes)).status, 201);
    const { frame, datums } = await filesFrame(bob, { 'plan.txt': 'Bobs Plan' });
    const frameHash = /\/file\/([0-9a-f]{64})\//.exec(String(datums[0].download_url))![1];
    return { magazineHash: sha256(magazineBytes), frameHash, bobsFrame: frame };
  };
  const forgedItem = (frameId: number, hash: string, extra: Item = {}) => ({
    value: 'beute.csv',
    size: 1,
    mime_type: 'text/plain',
    download_url: fileUrl(frameId, hash),
    embed_url: fileUrl(frameId, hash, 'embed'),
    ...extra,
  });

  it('refuses a hand-made datum naming a blob in the caller’s own frame on every write, and never serves it', async () => {
    const { magazineHash, frameHash, bobsFrame } = await bobsSecrets();
    const missingHash = sha256(Buffer.from('gibt es nicht'));
    const { sb, frame } = await filesFrame(alice, { 'mine.txt': 'meins' });
    for (const hash of [magazineHash, frameHash, missingHash]) {
      const forged = forgedItem(frame.id, hash);
      // The same answer whether the blob exists or not: nothing to probe.
      assertError(await alice.client.patch(frame.resource_uri, { content: [forged] }), 400, 'invalid_value', /uploaded file/);
      assertError(await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, forged), 400, 'invalid_value');
      assertError(await alice.client.post(`/api/v1/datum/create-in-frame/${frame.id}/`, forged), 400, 'invalid_value');
      const created = await alice.client.post(FRAMES, { switchboard: sb.resource_uri, content_type: 'file', content: [forged] });
      assertError(created, 400, 'invalid_value');
      assert.equal((await bytesOf(alice.client, fileUrl(frame.id, hash))).status, 404);
    }
    // Naming bob's frame, which serves the file to bob only, does not copy it either.
    const fromBob = forgedItem(bobsFrame.id, frameHash, { size: undefined, mime_type: undefined });
    assertError(await alice.client.patch(frame.resource_uri, { content: [fromBob] }), 400, 'invalid_value');
    assert.deepEqual(
      ((await contentOf(alice.client, frame)) as Item[]).map((i) => i.value),
      ['mine.txt'],
      'nothing was written',
    );
  });

  it('does not serve a blob a datum names when the server never recorded it for the frame', async () => {
    // As if a datum had reached the content some other way (content stored before this check).
    const { magazineHash } = await bobsSecrets();
    const { frame } = await filesFrame(alice, { 'mine.txt': 'meins' });
    const hash = await putContent(db().manager, [forgedItem(frame.id, magazineHash)]);
    await db().query(`UPDATE switchboard_frame SET content_hash = $2 WHERE id = $1`, [frame.id, hash]);
    assert.equal((await bytesOf(alice.client, fileUrl(frame.id, magazineHash))).status, 404);
    assert.equal((await bytesOf(alice.client, fileUrl(frame.id, magazineHash, 'embed'))).status, 404);
  });

  it('serves a file with the type the blob store found, not with a type a datum claims', async () => {
    const { frame, datums } = await filesFrame(alice, { 'seite.txt': 'Nur Text, kein HTML' });
    const [datum] = datums;
    assert.equal(datum.mime_type, 'text/plain');
    const patch = await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, { mime_type: 'text/html' });
    assertError(patch, 400, 'invalid_value');
    assert.equal(patch.body.field, 'content[0].mime_type');
    assertError(await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, { size: 1 }), 400, 'invalid_value');
    // Even a datum that claims another type in stored content does not change what is served.
    const hash = await putContent(db().manager, [{ ...datum, mime_type: 'text/html' }]);
    await db().query(`UPDATE switchboard_frame SET content_hash = $2 WHERE id = $1`, [frame.id, hash]);
    const got = await bytesOf(alice.client, String(datum.embed_url));
    assert.equal(got.status, 200);
    assert.match(got.headers.get('content-type') ?? '', /^text\/plain/);
  });

  it('refuses a forged file datum as a workflow input, and takes the input frame’s own file', async () => {
    const { frameHash } = await bobsSecrets();
    const sb = await newSwitchboard(alice.client);
    const input = await addFrame(alice.client, sb, 'file', [], { frame_type: 1, name: 'dateien' });
    const own = expectStatus(await frameUpload(alice.client, input.id, 'eigen.txt', Buffer.from('eigen')), 201).datum as Item;
    const execute = (items: Item[]) => alice.client.post(`${sb.resource_uri}execute/`, { inputs: { dateien: items } });
    const refused = await execute([forgedItem(input.id, frameHash)]);
    assertError(refused, 400, 'invalid_value');
    assert.equal(refused.body.field, 'inputs.dateien[0].download_url');
    const { index: _index, ...fields } = own;
    expectStatus(await execute([fields]), 202);
  });

  it('keeps a file datum saved back unchanged, renamed or re-added, and it still downloads', async () => {
    const { frame, datums } = await filesFrame(alice, { 'a.txt': 'A', 'b.txt': 'B' });
    const items = (await contentOf(alice.client, frame)) as Item[];
    // The frame dialog sends the whole datum back with an edit.
    expectStatus(await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, { ...items[0], index: 0 }), 200);
    const renamed = expectStatus(
      await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, { ...items[0], value: 'neu/a.txt' }),
      200,
    );
    assert.equal(renamed.item.download_url, datums[0].download_url);
    const got = await bytesOf(alice.client, String(datums[0].download_url));
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'A');
    assert.match(got.headers.get('content-disposition') ?? '', /filename="a.txt"/);
    // A content PATCH with the items as they are, then without one and with it again (undo).
    const now = (await contentOf(alice.client, frame)) as Item[];
    expectStatus(await alice.client.patch(frame.resource_uri, { content: now }), 200);
    expectStatus(await alice.client.patch(frame.resource_uri, { content: [now[0]] }), 200);
    expectStatus(await alice.client.patch(frame.resource_uri, { content: now }), 200);
    assert.equal((await bytesOf(alice.client, String(datums[1].download_url))).status, 200);
    // A datum that drops its addresses is a plain description of a file: it names no bytes.
    const { download_url: _d, embed_url: _e, ...plain } = now[1];
    expectStatus(await alice.client.patch(frame.resource_uri, { content: [now[0], plain] }), 200);
  });

  it('lets a frame holding datums a run passed on be saved back', async () => {
    const { sb, frame, datums } = await filesFrame(alice, { 'karte.txt': 'Blatt 5048' });
    const copy = await addFrame(alice.client, sb, 'file');
    const merge = await addNode(alice.client, sb, 'frame.merge');
    await link(alice.client, merge, 'frames', frame, true, { list_index: 0 });
    await link(alice.client, merge, 'frame', copy, false);
    assert.equal((await runAndWait(t, alice.client, sb)).status, 'success');
    const items = (await contentOf(alice.client, copy)) as Item[];
    assert.equal(items[0].download_url, datums[0].download_url, 'the run passed the datum on as it was');
    expectStatus(await alice.client.patch(`${FRAMES}${copy.id}/content/0/`, { ...items[0], value: 'blatt.txt' }), 200);
    expectStatus(await alice.client.patch(copy.resource_uri, { content: items }), 200);
  });

  it('keeps the upload’s name rules on PATCH of a file name, and names a duplicated file datum anew', async () => {
    const { frame, datums } = await filesFrame(alice, { 'a.txt': 'A', 'b.txt': 'B', liesmich: 'L' });
    const patch = (i: number, body: Item) => alice.client.patch(`${FRAMES}${frame.id}/content/${i}/`, body);
    const bad = await patch(0, { value: '../x' });
    assertError(bad, 400, 'invalid_path');
    assert.equal(bad.body.field, 'content[0].value');
    assertError(await patch(0, { value: '/etc/passwd' }), 400, 'invalid_path');
    assertError(await patch(0, { value: 'b.txt' }), 409, 'duplicate_name', /b\.txt/);

    const dup = (i: number) => alice.client.post(`${FRAMES}${frame.id}/content/${i}/duplicate/`, {});
    assert.equal(expectStatus(await dup(0), 201).item.value, 'a (2).txt');
    assert.equal(expectStatus(await dup(0), 201).item.value, 'a (3).txt');
    const third = expectStatus(await dup(4), 201).item;
    assert.equal(third.value, 'liesmich (2)');
    assert.deepEqual(
      ((await contentOf(alice.client, frame)) as Item[]).map((i) => i.value),
      ['a.txt', 'a (3).txt', 'a (2).txt', 'b.txt', 'liesmich', 'liesmich (2)'],
    );
    assert.equal(third.download_url, datums[2].download_url);
    assert.equal((await bytesOf(alice.client, String(third.download_url))).status, 200);
  });

  it('copies the files with a duplicated switchboard: they download from the copy, also once the original is gone', async () => {
    const { sb, frame } = await filesFrame(alice, { 'pegel.csv': 'Dresden;1.92' });
    const copy = expectStatus<Obj>(await alice.client.post(`${sb.resource_uri}duplicate/`, {}), 201);
    const [copied] = await list(alice.client, `${FRAMES}?switchboard_id=${copy.id}`);
    assert.notEqual(copied.id, frame.id);
    const [item] = (await contentOf(alice.client, copied)) as Item[];
    assert.match(String(item.download_url), new RegExp(`^${FRAMES}${copied.id}/file/[0-9a-f]{64}/download/$`));
    assert.equal(item.embed_url, String(item.download_url).replace(/download\/$/, 'embed/'));
    expectStatus(await alice.client.delete(sb.resource_uri), 204);
    const got = await bytesOf(alice.client, String(item.download_url));
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'Dresden;1.92');
  });

  it('imports an exported switchboard: its files come along for who may download them, others keep only the names', async () => {
    const { sb } = await filesFrame(alice, { 'pegel.csv': 'Meißen;2.05' });
    const file = expectStatus(await alice.client.get(`${sb.resource_uri}export/`), 200);
    const mine = expectStatus<Obj>(await alice.client.post(`${SWITCHBOARDS}import/`, { file }), 201);
    const [own] = await list(alice.client, `${FRAMES}?switchboard_id=${mine.id}`);
    const [ownItem] = (await contentOf(alice.client, own)) as Item[];
    assert.equal((await bytesOf(alice.client, String(ownItem.download_url))).status, 200);

    const theirs = expectStatus<Obj>(await bob.client.post(`${SWITCHBOARDS}import/`, { file }), 201);
    const [frame] = await list(bob.client, `${FRAMES}?switchboard_id=${theirs.id}`);
    const [item] = (await contentOf(bob.client, frame)) as Item[];
    assert.equal(item.value, 'pegel.csv');
    assert.equal(item.download_url, undefined, 'bob may not download alice’s file, so the copy does not name it');
    // Once alice lets bob read her switchboard, his import brings the file along.
    await grant(alice.client, sb, bob, ['read']);
    const shared = expectStatus<Obj>(await bob.client.post(`${SWITCHBOARDS}import/`, { file }), 201);
    const [sharedFrame] = await list(bob.client, `${FRAMES}?switchboard_id=${shared.id}`);
    const [sharedItem] = (await contentOf(bob.client, sharedFrame)) as Item[];
    assert.equal((await bytesOf(bob.client, String(sharedItem.download_url))).body.toString(), 'Meißen;2.05');
  });
});
