import assert from 'node:assert/strict';
import http from 'node:http';
import { readdir } from 'node:fs/promises';
import { join, relative as relative_ } from 'node:path';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, type Client } from '@werkbank/testing/node';
import { headOf, newDepot, valuesAt, type Datum, type Depot } from './magazine-support';
import { multipartParts, PNG, uploadFile } from './magazine-upload-support';

const LIMIT = 64 * 1024;

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Uploads and files (spec 000 §2 "File upload", §7 "Uploads"; spec 001 §3.3 File). */
describe('magazine: uploads and file datums', () => {
  let t: TestServer;
  let admin: Client;
  let depot: Depot;

  const reset = async (c: Client = admin, d: Depot = depot) =>
    expectStatus<{ upload_id: string; status: string; ready: boolean }>(
      await c.post('/magazine/upload-reset/', { depot: d.resource_uri }),
      200,
    ).upload_id;
  const status = async (id: string) => expectStatus<any>(await admin.get(`/magazine/upload-status/${id}/`), 200);
  const blobRoot = () => (t.server as unknown as { blobs: { root: string } }).blobs.root;
  const relative = async () => (await filesBelow(blobRoot())).map((f) => relative_(blobRoot(), f));
  const storedBlobs = async () => (await relative()).filter((f) => !f.startsWith('tmp'));
  const tempFiles = async () => (await relative()).filter((f) => f.startsWith('tmp'));

  before(async () => {
    t = await startTestServer({ config: { uploadMaxBytes: LIMIT } });
    admin = await t.admin();
  });
  beforeEach(async () => {
    depot = await newDepot(admin, 'file');
  });
  after(async () => {
    await t?.close();
  });

  it('uploads two files, one of which fails, and reports both statuses', async () => {
    const id = await reset();
    expectStatus(await admin.get(`/magazine/upload-status/${id}/`), 200);
    const ok = await uploadFile(admin, id, 'plan/notes.txt', Buffer.from('Hallo Werkbank\n'));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.file.status, 'success');
    const datum = ok.body.file.datum as Datum;
    assert.equal(datum.value, 'plan/notes.txt');
    assert.equal(datum.size, 15);
    assert.equal(datum.mime_type, 'text/plain');
    const bad = await uploadFile(admin, id, '../../etc/passwd', Buffer.from('x'));
    assertError(bad, 400, 'invalid_path');
    const s = await status(id);
    assert.deepEqual(
      s.files.map((f: { path: string; status: string }) => [f.path, f.status]),
      [
        ['plan/notes.txt', 'success'],
        ['../../etc/passwd', 'failed'],
      ],
    );
    assert.match(s.files[1].reason, /not allowed/);
    assert.equal(s.status, 'success', 'one failed file of two is not an overall failure');
    assert.equal(s.ready, true);
    assert.deepEqual(await valuesAt(admin, depot), ['plan/notes.txt']);
  });

  it('reports failure when more than one file failed, and when none succeeded', async () => {
    const id = await reset();
    await uploadFile(admin, id, '/abs', Buffer.from('x'));
    let s = await status(id);
    assert.equal(s.status, 'failure');
    assert.equal(s.ready, false);
    await uploadFile(admin, id, 'ok.txt', Buffer.from('fine'));
    await uploadFile(admin, id, 'a/../b', Buffer.from('x'));
    s = await status(id);
    assert.equal(s.status, 'failure');
    assert.equal(s.ready, true);
  });

  it('refuses empty files, duplicate names and files over the limit, storing nothing', async () => {
    const id = await reset();
    const before = await storedBlobs();
    assertError(await uploadFile(admin, id, 'empty.txt', Buffer.alloc(0)), 400, 'empty_file');
    expectStatus(await uploadFile(admin, id, 'one.txt', Buffer.from('first')), 201);
    const dup = await uploadFile(admin, id, 'one.txt', Buffer.from('second'));
    assertError(dup, 409, 'duplicate_name', /one\.txt/);
    const big = await uploadFile(admin, id, 'big.bin', Buffer.alloc(LIMIT + 1, 7));
    assertError(big, 413, 'file_too_large');
    const after = await storedBlobs();
    assert.equal(after.length, before.length + 1, 'only the accepted file is stored');
    assert.deepEqual(await tempFiles(), []);
    assert.deepEqual(await valuesAt(admin, depot), ['one.txt']);
    const s = await status(id);
    assert.deepEqual(
      s.files.map((f: { status: string }) => f.status),
      ['failed', 'success', 'failed', 'failed'],
    );
  });

  it('an interrupted upload leaves no partial blob and is marked failed', async () => {
    const id = await reset();
    const before = await storedBlobs();
    const { head, type } = multipartParts('cut.bin');
    const req = http.request(new URL(`/magazine/upload-file/${id}/`, t.url), {
      method: 'POST',
      headers: {
        'Content-Type': type,
        'Content-Length': head.length + 60_000,
        Cookie: cookie(admin),
        'X-CSRFToken': admin.csrfToken ?? '',
      },
    });
    req.on('error', () => undefined);
    req.write(Buffer.concat([head, Buffer.alloc(20_000, 1)]));
    const waitFor = async (wanted: string) => {
      for (let i = 0; i < 500; i++) {
        const s = await status(id);
        if (s.files[0]?.status === wanted) return s;
        await new Promise((r) => setImmediate(r));
      }
      assert.fail(`the file never became ${wanted}`);
    };
    await waitFor('uploading');
    req.destroy();
    const s = await waitFor('failed');
    assert.ok(s.files[0].reason);
    assert.deepEqual(await storedBlobs(), before);
    assert.deepEqual(await tempFiles(), []);
    assert.deepEqual(await valuesAt(admin, depot), []);
  });

  it('sniffs the mime type from the content, not from the name or the client', async () => {
    const id = await reset();
    const res = await uploadFile(admin, id, 'picture.txt', PNG);
    assert.equal(res.status, 201);
    assert.equal(res.body.file.datum.mime_type, 'image/png');
  });

  it('downloads with HTTP Range support and embeds safely', async () => {
    const id = await reset();
    const text = 'abcdefghijklmnopqrstuvwxyz';
    const d = (await uploadFile(admin, id, 'alphabet.txt', Buffer.from(text))).body.file.datum as Datum & {
      download_url: string;
      embed_url: string;
    };
    const full = await fetch(new URL(d.download_url, t.url), { headers: { Cookie: cookie(admin) } });
    assert.equal(full.status, 200);
    assert.equal(await full.text(), text);
    assert.equal(full.headers.get('accept-ranges'), 'bytes');
    assert.match(full.headers.get('content-disposition') ?? '', /attachment/);
    const part = await fetch(new URL(d.download_url, t.url), { headers: { Cookie: cookie(admin), Range: 'bytes=2-4' } });
    assert.equal(part.status, 206);
    assert.equal(await part.text(), 'cde');
    assert.equal(part.headers.get('content-range'), `bytes 2-4/${text.length}`);
    const tail = await fetch(new URL(d.download_url, t.url), { headers: { Cookie: cookie(admin), Range: 'bytes=-3' } });
    assert.equal(await tail.text(), 'xyz');
    const bad = await fetch(new URL(d.download_url, t.url), { headers: { Cookie: cookie(admin), Range: 'bytes=100-200' } });
    assert.equal(bad.status, 416);
    const embed = await fetch(new URL(d.embed_url, t.url), { headers: { Cookie: cookie(admin) } });
    assert.equal(embed.status, 200);
    assert.match(embed.headers.get('content-security-policy') ?? '', /sandbox/);
    // Old moments keep their files: the address names the moment.
    assert.ok(d.download_url.includes(`@${d.moment_id}/`));
    const stranger = await t.user();
    const denied = await fetch(new URL(d.download_url, t.url), { headers: { Cookie: cookie(stranger.client) } });
    assert.equal(denied.status, 404);
  });

  it('renames a file datum but keeps size and type server-managed', async () => {
    const id = await reset();
    const d = (await uploadFile(admin, id, 'a.txt', Buffer.from('aaa'))).body.file.datum as Datum;
    await uploadFile(admin, id, 'b.txt', Buffer.from('bbb'));
    const renamed = expectStatus<Datum>(await admin.patch(`/api/v1/datum/${d.index}/`, { value: 'c.txt' }), 200);
    assert.equal(renamed.value, 'c.txt');
    assert.equal(renamed.size, 3);
    assertError(await admin.patch(`/api/v1/datum/${d.index}/`, { size: 1 }), 400, 'read_only_field');
    assertError(await admin.patch(`/api/v1/datum/${d.index}/`, { value: 'b.txt' }), 409, 'duplicate_name');
    assertError(await admin.patch(`/api/v1/datum/${d.index}/`, { value: '../x' }), 400, 'invalid_path');
    assertError(await admin.patch(`/api/v1/datum/${d.index}/`, { value: '' }), 400, 'invalid_path');
    const trimmed = expectStatus<Datum>(await admin.patch(`/api/v1/datum/${d.index}/`, { value: ' d.txt\n' }), 200);
    assert.equal(trimmed.value, 'd.txt', 'names are stored as checked');
    const head = await headOf(admin, depot);
    assert.ok(head.persistent_size >= 6, `renaming keeps the files' bytes counted (${head.persistent_size})`);
    assertError(await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: 'x' }), 400, 'invalid_field');
    assert.equal((await headOf(admin, depot)).size, 2);
  });

  it('sweeps a file once no datum refers to it and the grace period has passed', async () => {
    const id = await reset();
    const kept = (await uploadFile(admin, id, 'shared.txt', Buffer.from('same bytes'))).body.file.datum as Datum;
    const other = await newDepot(admin, 'file');
    const id2 = await reset(admin, other);
    expectStatus(await uploadFile(admin, id2, 'copy.txt', Buffer.from('same bytes')), 201);
    expectStatus(await uploadFile(admin, id2, 'only.txt', Buffer.from('only here')), 201);
    const before = await storedBlobs();
    expectStatus(await admin.delete(other.resource_uri), 204);
    const db = t.server.db.dataSource;
    assert.equal(await t.server.blobSweep.sweep(), 0, 'nothing goes within the grace period');
    await db.query(`UPDATE werkbank_blob_candidate SET since = now() - interval '2 hours'`);
    assert.equal(await t.server.blobSweep.sweep(), 1, 'only the blob no datum uses any more');
    assert.equal((await storedBlobs()).length, before.length - 1);
    const res = await fetch(new URL(kept.download_url as string, t.url), { headers: { Cookie: cookie(admin) } });
    assert.equal(await res.text(), 'same bytes', 'the shared blob stays for the other depot');
  });

  it('two uploads of one name at once: one lands, the other is refused and its bytes are swept', async () => {
    const id = await reset();
    const before = await storedBlobs();
    const [a, b] = await Promise.all([
      uploadFile(admin, id, 'race.txt', Buffer.from('first racer')),
      uploadFile(admin, id, 'race.txt', Buffer.from('second racer')),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [201, 409]);
    assert.deepEqual(await valuesAt(admin, depot), ['race.txt']);
    const db = t.server.db.dataSource;
    await db.query(`UPDATE werkbank_blob_candidate SET since = now() - interval '2 hours'`);
    await t.server.blobSweep.sweep();
    assert.equal((await storedBlobs()).length, before.length + 1, 'only the winner’s bytes stay');
  });

  it('refuses uploads without an upload id, with a foreign one, or into a non-file depot', async () => {
    assertError(await uploadFile(admin, 'not-an-id', 'x.txt', Buffer.from('x')), 404, 'not_found');
    const id = await reset();
    const other = await t.user();
    const foreign = await uploadFile(other.client, id, 'x.txt', Buffer.from('x'));
    assert.equal(foreign.status, 404);
    assertError(await other.client.get(`/magazine/upload-status/${id}/`), 404, 'not_found');
    const strings = await newDepot(admin, 'string');
    assertError(await admin.post('/magazine/upload-reset/', { depot: strings.resource_uri }), 400, 'invalid_field');
    assertError(await admin.post('/magazine/upload-reset/', {}), 400, 'invalid_field');
  });
});

function cookie(c: Client): string {
  return [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
