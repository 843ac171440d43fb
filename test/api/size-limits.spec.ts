import assert from 'node:assert/strict';
import http from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { canonicalJson } from '@werkbank/sdk/node';
import { newDepot, uploadFile, uploadReset } from '@werkbank/plugin-magazine/testing';
import {
  addFrame,
  addNode,
  contentOf,
  frameUpload,
  get,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, type Client } from './api-test-support';

/** UPLOAD_MAX_BYTES of this suite: uploads, frame uploads and downloads by functions. */
const UPLOAD_LIMIT = 4096;
/** OUTPUT_MAX_BYTES of this suite: one output of a node run, in bytes of canonical JSON. */
const OUTPUT_LIMIT = 2048;

/** The bytes of an output of one text, as the engine measures it. */
const outputBytes = (text: string) => Buffer.byteLength(canonicalJson([{ value: text }]));

/**
 * Every path that stores bytes (issue 20 item 6): each takes exactly its limit and refuses one byte
 * more, with the limits set small through the server's configuration.
 */
describe('size limits: every path that stores bytes, at the limit and one byte over', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: Client;
  let files: http.Server;
  let filesUrl: string;

  before(async () => {
    t = await startTestServer({
      plugins: [...SWITCHBOARD_PLUGINS, 'geodata'],
      config: { uploadMaxBytes: UPLOAD_LIMIT, outputMaxBytes: OUTPUT_LIMIT, fetchAllowedHosts: ['localhost'] },
    });
    alice = (await t.user()).client;
    // Serves /{n} as n bytes with their length announced, /chunked/{n} without.
    files = http.createServer((req, res) => {
      const [, chunked, n] = /^\/(chunked\/)?(\d+)$/.exec(req.url ?? '') ?? [];
      if (!n) return void res.writeHead(404).end();
      const body = Buffer.alloc(Number(n), 'w');
      res.writeHead(200, { 'content-type': 'application/octet-stream', ...(chunked ? {} : { 'content-length': body.length }) });
      if (chunked) res.write(body.subarray(0, 1));
      res.end(chunked ? body.subarray(1) : body);
    });
    const { address } = await lookup('localhost');
    await new Promise<void>((resolve) => files.listen(0, address, resolve));
    filesUrl = `http://localhost:${(files.address() as AddressInfo).port}`;
  });
  after(async () => {
    files?.close();
    await t?.close();
  });

  it('Magazine upload: stores a file of exactly UPLOAD_MAX_BYTES and refuses one byte more with 413', async () => {
    const depot = await newDepot(alice, 'file');
    const id = await uploadReset(alice, depot);
    const fits = await uploadFile(alice, id, 'fits.bin', Buffer.alloc(UPLOAD_LIMIT, 1));
    assert.equal(fits.status, 201, JSON.stringify(fits.body));
    assert.equal(fits.body.file.datum.size, UPLOAD_LIMIT);
    assertError(await uploadFile(alice, id, 'over.bin', Buffer.alloc(UPLOAD_LIMIT + 1, 1)), 413, 'file_too_large');
  });

  it('frame upload: stores a file of exactly UPLOAD_MAX_BYTES and refuses one byte more with 413', async () => {
    const sb = await newSwitchboard(alice);
    const frame = await addFrame(alice, sb, 'file');
    expectStatus(await frameUpload(alice, frame.id, 'fits.bin', Buffer.alloc(UPLOAD_LIMIT, 1)), 201);
    assertError(await frameUpload(alice, frame.id, 'over.bin', Buffer.alloc(UPLOAD_LIMIT + 1, 1)), 413, 'file_too_large');
    assert.deepEqual(
      ((await contentOf(alice, frame)) as Obj[]).map((f) => [f.value, f.size]),
      [['fits.bin', UPLOAD_LIMIT]],
    );
  });

  /** Runs string.upper on one text; returns the run's status, the node and the output's items. */
  async function upper(text: string): Promise<{ status: string; node: Obj; items: unknown[] }> {
    const sb = await newSwitchboard(alice);
    const input = await addFrame(alice, sb, 'string', [{ value: text }]);
    const node = await addNode(alice, sb, 'string.upper');
    const output = await addFrame(alice, sb, 'string');
    await link(alice, node, 'value', input, true);
    await link(alice, node, 'result', output, false);
    const exec = await runAndWait(t, alice, sb);
    return { status: exec.status, node: await get(alice, node.resource_uri), items: await contentOf(alice, output) };
  }

  it('function output: keeps an output of exactly OUTPUT_MAX_BYTES and fails the run one byte over', async () => {
    const length = OUTPUT_LIMIT - outputBytes('');
    const fits = await upper('x'.repeat(length));
    assert.equal(fits.status, 'success', JSON.stringify(fits.node.runinfo));
    assert.deepEqual(fits.items, [{ value: 'X'.repeat(length) }]);
    assert.equal(outputBytes('X'.repeat(length)), OUTPUT_LIMIT);
    const over = await upper('x'.repeat(length + 1));
    assert.equal(over.status, 'failure');
    assert.match(String(over.node.runinfo.exception), /output 'result' is too large/);
    assert.deepEqual(over.items, [], 'nothing of the refused output is stored');
  });

  it('function output: counts bytes, not characters', async () => {
    // 'ä' upper-cased is 'Ä', two bytes in UTF-8.
    const length = (OUTPUT_LIMIT - outputBytes('')) / 2;
    assert.equal((await upper('ä'.repeat(length))).status, 'success');
    const over = await upper('ä'.repeat(length) + 'x');
    assert.equal(over.status, 'failure');
  });

  /** Runs file.download on one address; returns the run's status, the node and the output files. */
  async function download(url: string): Promise<{ status: string; node: Obj; files: Obj[] }> {
    const sb = await newSwitchboard(alice);
    const node = await addNode(alice, sb, 'file.download', [{ name: 'url', default_value: { value: url } }]);
    const out = await addFrame(alice, sb, 'file');
    await link(alice, node, 'file', out, false);
    const exec = await runAndWait(t, alice, sb);
    return { status: exec.status, node: await get(alice, node.resource_uri), files: (await contentOf(alice, out)) as Obj[] };
  }

  for (const [title, prefix] of [
    ['with its length announced', ''],
    ['streamed without a length', 'chunked/'],
  ] as const) {
    it(`file.download: stores a download of exactly UPLOAD_MAX_BYTES and fails one byte over (${title})`, async () => {
      const fits = await download(`${filesUrl}/${prefix}${UPLOAD_LIMIT}`);
      assert.equal(fits.status, 'success', JSON.stringify(fits.node.runinfo));
      assert.deepEqual(
        fits.files.map((f) => f.size),
        [UPLOAD_LIMIT],
      );
      const over = await download(`${filesUrl}/${prefix}${UPLOAD_LIMIT + 1}`);
      assert.equal(over.status, 'failure');
      assert.match(String(over.node.runinfo.exception), /large|limit/i);
      assert.deepEqual(over.files, []);
    });
  }
});
