import assert from 'node:assert/strict';
import http from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '@werkbank/testing/node';
import type { Client } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  get,
  link,
  newSwitchboard,
  runAndWait,
  switchboardServer,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';

/**
 * file.download in a running switchboard: the server's URL guard (FETCH_ALLOWED_HOSTS) decides
 * what a user-given URL may reach, and its refusals reach the node as messages for people.
 */
describe('geodata sources: file.download through the server', function () {
  this.timeout(60_000);
  // localhost is allowed by name (as an administrator allows an intranet host); 127.0.0.1 is not.
  const server = switchboardServer({ plugins: ['geodata'], config: { fetchAllowedHosts: ['localhost'] } });
  let t: TestServer;
  let alice: Client;
  let files: http.Server;
  let port: number;

  before(async () => {
    ({ t } = server.get());
    alice = server.get().alice.client;
    files = http.createServer((req, res) => {
      if (req.url === '/points.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end('name;x\nGörlitz;1\n');
      else if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
      else res.writeHead(404).end();
    });
    const { address } = await lookup('localhost');
    await new Promise<void>((resolve) => files.listen(0, address, resolve));
    port = (files.address() as AddressInfo).port;
  });
  after(async () => {
    files?.close();
  });

  async function download(url: string): Promise<{ node: Obj; files: Obj[]; status: string; sb: Obj; out: Obj }> {
    const sb = await newSwitchboard(alice);
    const node = await addNode(alice, sb, 'file.download', [{ name: 'url', default_value: { value: url } }]);
    const out = await addFrame(alice, sb, 'file');
    await link(alice, node, 'file', out, false);
    const exec = await runAndWait(t, alice, sb);
    return {
      node: await get(alice, node.resource_uri),
      files: (await contentOf(alice, out)) as Obj[],
      status: exec.status,
      sb,
      out,
    };
  }

  it('stores the file of an allowed URL in the output frame, downloadable from there', async () => {
    const {
      files: [file],
      status,
      out,
    } = await download(`http://localhost:${port}/points.csv`);
    assert.equal(status, 'success');
    assert.equal(file.value, 'points.csv');
    assert.equal(file.size, Buffer.byteLength('name;x\nGörlitz;1\n'));
    assert.equal(file.download_url, `${out.resource_uri}file/${file.download_url.split('/file/')[1].split('/')[0]}/download/`);
    const res = await alice.get(file.download_url);
    assert.equal(res.status, 200);
    assert.equal(res.body, 'name;x\nGörlitz;1\n');
    assert.match(String(res.headers.get('content-type')), /^text\/csv/);
  });

  it('passes the downloaded file on to csv.import, which reads it as the running user', async () => {
    const sb = await newSwitchboard(alice);
    const node = await addNode(alice, sb, 'file.download', [
      { name: 'url', default_value: { value: `http://localhost:${port}/points.csv` } },
    ]);
    const files = await addFrame(alice, sb, 'file');
    await link(alice, node, 'file', files, false);
    const csv = await addNode(alice, sb, 'csv.import', []);
    await link(alice, csv, 'file', files, true);
    const rows = await addFrame(alice, sb, 'row');
    await link(alice, csv, 'rows', rows, false);
    const exec = await runAndWait(t, alice, sb);
    assert.equal(exec.status, 'success');
    assert.deepEqual(
      ((await contentOf(alice, rows)) as Obj[]).map((r) => r.value),
      [{ name: 'Görlitz', x: 1 }],
    );
  });

  it('keeps the file from readers of other switchboards', async () => {
    const {
      files: [file],
    } = await download(`http://localhost:${port}/points.csv`);
    const bob = (await t.user()).client;
    assert.equal((await bob.get(file.download_url)).status, 404);
  });

  it('fails the node with a message when the URL reaches a loopback address that is not allowed', async () => {
    const { node, status } = await download(`http://127.0.0.1:${port}/points.csv`);
    assert.equal(status, 'failure');
    assert.match(node.runinfo.exception, /127\.0\.0\.1.*local or private network.*FETCH_ALLOWED_HOSTS/);
  });

  it('fails the node when an allowed server redirects to a link-local address', async () => {
    const { node, status } = await download(`http://localhost:${port}/to-metadata`);
    assert.equal(status, 'failure');
    assert.match(node.runinfo.exception, /169\.254\.169\.254/);
  });
});
