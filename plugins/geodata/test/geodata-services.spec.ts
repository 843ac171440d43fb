import assert from 'node:assert/strict';
import http from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '@werkbank/testing/node';
import { expectStatus, type Client } from '@werkbank/testing/node';
import { fixture } from '../src/node/services/services-test-server';
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
 * The service imports in a running switchboard, as the insert dialog's url tab sets them up: the
 * address in the input url, fetched through the server's URL guard (FETCH_ALLOWED_HOSTS), the
 * datums checked against their types when the engine stores them, failures in the user's language.
 */
describe('geodata services: wfs.import and wms.import through the server', function () {
  this.timeout(60_000);
  const server = switchboardServer({ plugins: ['geodata'], config: { fetchAllowedHosts: ['localhost'] } });
  let t: TestServer;
  let alice: Client;
  let service: http.Server;
  let base: string;

  before(async () => {
    ({ t } = server.get());
    alice = server.get().alice.client;
    service = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', base);
      const q = (name: string) => [...url.searchParams].find(([k]) => k.toLowerCase() === name)?.[1] ?? '';
      let name = '';
      if (url.pathname === '/wfs2') name = 'wfs-2.0.0-capabilities.xml';
      else if (url.pathname === '/wfs2/features' && q('typenames') === 'app:haltestellen')
        name = `wfs-2.0.0-haltestellen-${q('startindex')}.xml`;
      else if (url.pathname === '/wms130') name = 'wms-1.3.0-capabilities.xml';
      if (!name) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/xml' }).end(fixture(name, base));
    });
    const { address } = await lookup('localhost');
    await new Promise<void>((resolve) => service.listen(0, address, resolve));
    base = `http://localhost:${(service.address() as AddressInfo).port}`;
  });
  after(async () => {
    service?.close();
  });

  async function importNode(
    client: Client,
    func: string,
    url: string,
    output: string,
    type: string,
    extra: Array<{ name: string; default_value: unknown }> = [],
  ) {
    const sb = await newSwitchboard(client);
    const node = await addNode(client, sb, func, [{ name: 'url', default_value: { value: url } }, ...extra]);
    const out = await addFrame(client, sb, type);
    await link(client, node, output, out, false);
    const exec = await runAndWait(t, client, sb);
    return { exec, node: await get(client, node.resource_uri), items: (await contentOf(client, out)) as Obj[] };
  }

  it('wfs.import pages a WFS 2.0 into a frame of features in longitude/latitude', async () => {
    const { exec, items } = await importNode(
      alice,
      'wfs.import',
      `${base}/wfs2?typeNames=app:haltestellen`,
      'features',
      'feature',
    );
    assert.equal(exec.status, 'success');
    assert.equal(items.length, 5);
    assert.deepEqual(items[0].feature.geometry, { type: 'Point', coordinates: [13.7336, 51.0507] });
    assert.equal(items[4].feature.properties.name, 'Straßburger Platz');
  });

  it('wms.import stores wms datums that pass the type schema', async () => {
    const { exec, items } = await importNode(alice, 'wms.import', `${base}/wms130`, 'layers', 'wms');
    assert.equal(exec.status, 'success');
    assert.deepEqual(
      items.map((i) => [i.layers, i.tms_url, i.bbox]),
      [
        ['strassen', `${base}/wms130/map?`, [13.57, 50.97, 13.97, 51.18]],
        ['luftbild', `${base}/wms130/map?`, [13.6, 51.0, 13.9, 51.1]],
      ],
    );
  });

  it('an unknown feature type fails the node with a German message for a German user', async () => {
    const hans = await t.user();
    expectStatus(await hans.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    const { exec, node } = await importNode(hans.client, 'wfs.import', `${base}/wfs2`, 'features', 'feature', [
      { name: 'typename', default_value: { value: 'app:strassen' } },
    ]);
    assert.equal(exec.status, 'failure');
    assert.match(
      node.runinfo.exception,
      /bietet keinen Feature-Typ „app:strassen“ an\. Er bietet: app:haltestellen, app:flurstuecke/,
    );
  });
});
