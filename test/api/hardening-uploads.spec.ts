import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus, type Client } from './api-test-support';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';
import { bytesOf, frameUpload, heldFrameUpload } from '@werkbank/plugin-switchboards/testing';
import { uploadFile } from '@werkbank/plugin-magazine/testing';
import { newDepot } from '@werkbank/plugin-magazine/testing';
import { zippedShapefile } from '@werkbank/testing/node';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Real files through every upload path (issue 14 item 1): a zipped Shapefile of realistic size made
 * by GDAL, whose first entry runs far past the bytes the type sniffer looks at.
 */
describe('hardening: a real zipped Shapefile through every upload path', function () {
  let t: TestServer;
  let admin: Client;
  let alice: Client;
  let dir: string;
  let zipPath: string;
  let zip: Buffer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hardening-uploads-'));
    zipPath = zippedShapefile(dir);
    zip = readFileSync(zipPath);
    assert.ok(zip.length > 300 * 1024, `the archive has ${zip.length} bytes`);
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'], config: { fileImportRoots: [dir] } });
    admin = await t.admin();
    alice = (await t.user()).client;
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads it to a frame as application/zip, serves the same bytes, and shapefile.import reads all 400 areas', async () => {
    const sb = await newSwitchboard(alice);
    const upload = await addFrame(alice, sb, 'file');
    const res = await frameUpload(alice, upload.id, 'gebiete-shp.zip', zip);
    const body = expectStatus(res, 201);
    assert.equal(body.file.mime_type, 'application/zip');
    assert.equal(body.file.size, zip.length);
    const got = await bytesOf(alice, body.datum.download_url);
    assert.equal(sha256(got.body), sha256(zip));

    const shp = await addNode(alice, sb, 'shapefile.import', []);
    const features = await addFrame(alice, sb, 'feature');
    await link(alice, shp, 'file', upload, true);
    await link(alice, shp, 'features', features, false);
    const exec = await runAndWait(t, alice, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const page = expectStatus(await alice.get(`${features.resource_uri}content/?limit=1`), 200);
    assert.equal(page.meta.total_count, 400);
  });

  it('uploads it to a file depot of the Magazine', async () => {
    const depot = await newDepot(alice, 'file');
    const id = expectStatus(await alice.post('/magazine/upload-reset/', { depot: depot.resource_uri }), 200).upload_id;
    const res = await uploadFile(alice, id, 'lieferung/gebiete-shp.zip', zip);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.file.status, 'success');
    assert.equal(res.body.file.datum.mime_type, 'application/zip');
    assert.equal(res.body.upload.status, 'success');
    const got = await bytesOf(alice, `${res.body.file.datum.resource_uri}download/`);
    assert.equal(sha256(got.body), sha256(zip));
  });

  it('imports it from the server’s disk with file.import', async () => {
    const sb = await newSwitchboard(admin);
    const node = await addNode(admin, sb, 'file.import', [{ name: 'path', default_value: { value: basename(zipPath) } }]);
    const out = await addFrame(admin, sb, 'file');
    await link(admin, node, 'file', out, false);
    const exec = await runAndWait(t, admin, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [file] = (await contentOf(admin, out)) as Obj[];
    assert.equal(file.value, 'gebiete-shp.zip');
    assert.equal(file.mime_type, 'application/zip');
    assert.equal(file.size, zip.length);
  });

  it('keeps no bytes of an upload that is refused after they arrived (the sweep takes them)', async () => {
    const sb = await newSwitchboard(alice);
    const frame = await addFrame(alice, sb, 'file');
    const other = Buffer.concat([zip, Buffer.from('different bytes')]);
    const held = heldFrameUpload(alice, frame.id, 'gebiete-shp.zip', other);
    expectStatus(await frameUpload(alice, frame.id, 'gebiete-shp.zip', zip), 201);
    const refused = await held.finish();
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'duplicate_name');
    assert.ok(await t.server.blobs.stat(sha256(zip)), 'the stored file stays');
    await t.server.blobSweep.sweep(0);
    assert.equal(await t.server.blobs.stat(sha256(other)), undefined, 'the refused bytes are gone');
    assert.ok(await t.server.blobs.stat(sha256(zip)), 'the stored file is still there');
  });
});
