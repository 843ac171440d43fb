import assert from 'node:assert/strict';
import { assertError, expectStatus } from '@werkbank/testing/node';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  contentOf,
  FRAMES,
  grant,
  newSwitchboard,
  SWITCHBOARD_PLUGINS,
  switchboardServer,
  SWITCHBOARDS,
  type User,
} from './switchboard-support';
import { PNG } from '@werkbank/plugin-magazine/testing';
import { bytesOf, frameUpload as upload } from './frame-upload-support';

/** `POST {frame}upload/` (docs/api.md "frame"; spec 001 §2.6 File upload tab). */
describe('Switchboard frames: file upload', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let alice: User;
  let bob: User;
  before(() => ({ alice, bob } = server.get()));

  it('streams the file into the blob store and appends a file datum that can be downloaded', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    const csv = Buffer.from('name;height\nElbe;12\n');
    const res = await upload(alice.client, frame.id, 'rivers.csv', csv, { path: 'data/rivers.csv' });
    const body = expectStatus(res, 201);
    assert.deepEqual(body.file, {
      path: 'data/rivers.csv',
      status: 'success',
      size: csv.length,
      mime_type: body.datum.mime_type,
    });
    assert.equal(body.datum.value, 'data/rivers.csv');
    assert.equal(body.datum.size, csv.length);
    assert.equal(body.datum.index, 0);
    assert.match(body.datum.download_url, new RegExp(`^${FRAMES}${frame.id}/file/[0-9a-f]{64}/download/$`));
    assert.equal(body.frame.size, 1);

    const items = (await contentOf(alice.client, frame)) as Array<Record<string, unknown>>;
    assert.deepEqual(items, [
      {
        value: 'data/rivers.csv',
        size: csv.length,
        mime_type: body.datum.mime_type,
        download_url: body.datum.download_url,
        embed_url: body.datum.embed_url,
      },
    ]);
    const got = await bytesOf(alice.client, body.datum.download_url);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, csv);
    assert.match(got.headers.get('content-disposition') ?? '', /attachment; filename="rivers.csv"/);
  });

  it('takes the file name when no path is sent, serves images inline through embed_url, and appends in order', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    expectStatus(await upload(alice.client, frame.id, 'a.txt', Buffer.from('a')), 201);
    const png = expectStatus(await upload(alice.client, frame.id, 'pixel.png', PNG), 201);
    assert.equal(png.datum.value, 'pixel.png');
    assert.equal(png.datum.mime_type, 'image/png');
    assert.equal(png.datum.index, 1);
    const embedded = await bytesOf(alice.client, png.datum.embed_url);
    assert.equal(embedded.status, 200);
    assert.match(embedded.headers.get('content-disposition') ?? '', /^inline/);
    assert.deepEqual(
      ((await contentOf(alice.client, frame)) as Array<{ value: string }>).map((i) => i.value),
      ['a.txt', 'pixel.png'],
    );
  });

  it('refuses frames that are not of a file type, bad names, duplicates and empty files, and stores nothing then', async () => {
    const sb = await newSwitchboard(alice.client);
    const strings = await addFrame(alice.client, sb, 'string');
    assertError(await upload(alice.client, strings.id, 'a.txt', Buffer.from('a')), 400, 'invalid_field');
    const frame = await addFrame(alice.client, sb, 'file');
    assertError(await upload(alice.client, frame.id, 'x.txt', Buffer.from('x'), { path: '../x.txt' }), 400, 'invalid_path');
    assertError(await upload(alice.client, frame.id, 'x.txt', Buffer.from('x'), { path: '/etc/x.txt' }), 400, 'invalid_path');
    assertError(await upload(alice.client, frame.id, 'empty.txt', Buffer.alloc(0)), 400, 'empty_file');
    expectStatus(await upload(alice.client, frame.id, 'same.txt', Buffer.from('1')), 201);
    assertError(await upload(alice.client, frame.id, 'same.txt', Buffer.from('2')), 409, 'duplicate_name', /same\.txt/);
    assert.equal(((await contentOf(alice.client, frame)) as unknown[]).length, 1);
  });

  it('needs write on the switchboard, the CSRF header, and follows the schedule rule of other frame edits', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    assertError(await upload(bob.client, frame.id, 'a.txt', Buffer.from('a')), 404, 'not_found');
    await grant(alice.client, sb, bob, ['read']);
    assertError(await upload(bob.client, frame.id, 'a.txt', Buffer.from('a')), 403, 'permission_denied');
    assertError(await upload(alice.client, frame.id, 'a.txt', Buffer.from('a'), { csrf: false }), 403, 'csrf_missing');

    await grant(alice.client, sb, bob, ['read', 'write', 'execute']);
    expectStatus(await bob.client.patch(`${SWITCHBOARDS}${sb.id}/`, { automatic: true }), 200);
    assertError(await upload(alice.client, frame.id, 'a.txt', Buffer.from('a')), 409, 'switchboard_scheduled');
    expectStatus(await upload(bob.client, frame.id, 'b.txt', Buffer.from('b')), 201);
  });

  it('serves a file only while the frame holds it, and only to readers of the switchboard', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    const up = expectStatus(await upload(alice.client, frame.id, 'secret.txt', Buffer.from('secret')), 201);
    assert.equal((await bytesOf(bob.client, up.datum.download_url)).status, 404);
    const other = await addFrame(alice.client, sb, 'file');
    const forged = String(up.datum.download_url).replace(`${FRAMES}${frame.id}/`, `${FRAMES}${other.id}/`);
    assert.equal((await bytesOf(alice.client, forged)).status, 404, 'another frame does not hold it');
    expectStatus(await alice.client.patch(`${FRAMES}${frame.id}/`, { content: [] }), 200);
    assert.equal((await bytesOf(alice.client, up.datum.download_url)).status, 404);
  });
});

describe('Switchboard frames: upload size limit', function () {
  this.timeout(60_000);
  const LIMIT = 64;
  let t: TestServer;
  before(async () => (t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS, config: { uploadMaxBytes: LIMIT } })));
  after(() => t?.close());

  it('refuses a file over UPLOAD_MAX_BYTES with 413 file_too_large and adds nothing', async () => {
    const { client } = await t.user();
    const sb = await newSwitchboard(client);
    const frame = await addFrame(client, sb, 'file');
    assertError(await upload(client, frame.id, 'big.bin', Buffer.alloc(LIMIT + 1, 1)), 413, 'file_too_large');
    expectStatus(await upload(client, frame.id, 'fits.bin', Buffer.alloc(LIMIT, 1)), 201);
    assert.deepEqual(
      ((await contentOf(client, frame)) as Array<{ value: string }>).map((i) => i.value),
      ['fits.bin'],
    );
  });
});
