import assert from 'node:assert/strict';
import http from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '@werkbank/sdk/testing/node';
import type { Client } from './api-test-support';
import {
  addFrame,
  addNode,
  contentOf,
  get,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from './switchboard-support';

/**
 * file.download in a running switchboard: the server's URL guard (FETCH_ALLOWED_HOSTS) decides
 * what a user-given URL may reach, and its refusals reach the node as messages for people.
 */
describe('geodata sources: file.download through the server', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: Client;
  let files: http.Server;
  let port: number;
  const logs: string[] = [];

  before(async () => {
    // localhost is allowed by name (as an administrator allows an intranet host); 127.0.0.1 is not.
    t = await startTestServer({
      plugins: [...SWITCHBOARD_PLUGINS, 'geodata'],
      config: { fetchAllowedHosts: ['localhost'] },
      logs,
    });
    alice = (await t.user()).client;
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
    await t?.close();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    logs.length = 0;
  });

  async function download(url: string): Promise<{ node: Obj; text: unknown[]; status: string }> {
    const sb = await newSwitchboard(alice);
    const node = await addNode(alice, sb, 'file.download', [{ name: 'url', default_value: { value: url } }]);
    const out = await addFrame(alice, sb, 'string');
    await link(alice, node, 'text', out, false);
    const exec = await runAndWait(t, alice, sb);
    return { node: await get(alice, node.resource_uri), text: await contentOf(alice, out), status: exec.status };
  }

  it('writes the text of an allowed URL into the output frame', async () => {
    const { text, status } = await download(`http://localhost:${port}/points.csv`);
    assert.equal(status, 'success');
    assert.deepEqual(
      text.map((i) => (i as Obj).value),
      ['name;x\nGörlitz;1\n'],
    );
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
