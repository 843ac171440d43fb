import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, type Client } from '@werkbank/testing/node';
import { addDatum, newDepot } from '@werkbank/plugin-magazine/testing';
import {
  addFrame,
  addNode,
  contentOf,
  get,
  link,
  newSwitchboard,
  runAndWait,
  switchboardServer,
  waitForExecution,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';
import { startStaTestServer, type StaTestServer } from '../src/node/live/sta-test-server';
import { liveTargets } from '../src/node/live/live-watch-targets';
import { connectedPublisher } from '../src/node/live/live-test-bus';

/** The machine's Mosquitto broker: what the SensorThings service announces its observations on. */
const BROKER = 'mqtt://127.0.0.1:1883';
const LIVE_CHANNEL = 'werkbank_switchboard';
const LIVE_DATASET_CHANNEL = 'werkbank_live_dataset';

type Feature = { properties: Record<string, unknown> };

/**
 * Live datasets through the server (issue 6): sensorthings.import in a switchboard marked
 * automatic runs again by itself when the service's broker announces a new observation, and its
 * output frame then holds the new value.
 */
describe('geodata live datasets: an automatic switchboard kept current by a SensorThings service', function () {
  this.timeout(60_000);
  // The REST spec polls every second; the server's minimum (30 s by default) is lowered for it.
  const server = switchboardServer({
    plugins: ['geodata'],
    config: { fetchAllowedHosts: ['127.0.0.1'], liveRestMinInterval: 1 },
  });
  let t: TestServer;
  let alice: Client;
  let sta: StaTestServer;
  let publisher: Awaited<ReturnType<typeof connectedPublisher>>;

  before(async () => {
    sta = await startStaTestServer();
    // Ids of this process only: the broker is shared with every other test run on the machine.
    sta.things[0].datastreams[0].id = 950_000 + process.pid;
    ({ t } = server.get());
    alice = server.get().alice.client;
    publisher = await connectedPublisher(BROKER);
  });
  after(async () => {
    await publisher?.endAsync();
    await sta?.close();
  });

  /** A switchboard: a frame with the dataset → sensorthings.import → a frame of features. */
  async function staSwitchboard(c: Client, dataset: Record<string, unknown>) {
    const sb = await newSwitchboard(c);
    const settings = await addFrame(c, sb, 'sta-livedataset', [dataset]);
    const node = await addNode(c, sb, 'sensorthings.import');
    const out = await addFrame(c, sb, 'feature');
    await link(c, node, 'dataset', settings, true);
    await link(c, node, 'features', out, false);
    return { sb, node, out };
  }

  /** Resolves with the id of the next execution of `sb` other than `previous` (its live UPDATE). */
  function nextExecution(sb: Obj, previous: number): Promise<number> {
    return new Promise((resolve) => {
      const sub = t.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
        const fields = msg.fields as { execution?: number } | undefined;
        if (msg.resource_uri !== sb.resource_uri || !fields?.execution || fields.execution === previous) return;
        sub.dispose();
        resolve(fields.execution);
      });
    });
  }

  it('gives the datum types with the spec’s defaults', async () => {
    const sta = expectStatus<Obj>(await alice.get('/api/v1/type/sta-livedataset/'), 200);
    assert.deepEqual(sta.template, {
      origin: '',
      sta_version: 'v1.1',
      thing_filter: '',
      datastream_filter: '',
      mqtt_uri: '',
      batch_size: 100,
    });
    const rest = expectStatus<Obj>(await alice.get('/api/v1/type/rest-livedataset/'), 200);
    assert.deepEqual(rest.template, {
      origin: '',
      update_interval: 60,
      jp_obj_root: '$[*]',
      jp_lat: '',
      jp_lon: '',
      properties: [],
    });
  });

  it('keeps the API version of a dataset stored in a depot and refuses v1.0 when it is saved (issue 14 item 9)', async () => {
    const depot = await newDepot(alice, 'sta-livedataset');
    const saved = await addDatum(alice, depot, { origin: sta.origin, sta_version: 'v1.1', batch_size: 5 });
    const [read] = expectStatus<{ objects: Obj[] }>(await alice.get(`/api/v1/datum/by-depot/${depot.id}/`), 200).objects;
    assert.equal(read.sta_version, 'v1.1');
    assert.equal(read.batch_size, 5);
    assert.notEqual(read.version, 'v1.1', 'version is the datum envelope’s');
    const refused = await alice.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { origin: sta.origin, sta_version: 'v1.0' });
    assertError(refused, 400, 'invalid_value', /sta_version.*v1\.1/);
    assert.equal(refused.body.field, 'sta_version');
    assertError(
      await alice.patch(`/api/v1/datum/${saved.index}/`, { sta_version: 'v1.0', version: saved.version }),
      400,
      'invalid_value',
    );
    // In a frame too.
    const sb = await newSwitchboard(alice);
    const framed = await alice.post('/api/v1/frame/', {
      switchboard: sb.resource_uri,
      content_type: 'sta-livedataset',
      content: [{ origin: sta.origin, sta_version: 'v1.0' }],
    });
    assertError(framed, 400, 'invalid_value');
    assert.equal(framed.body.field, 'content[0].sta_version');
  });

  it('runs again when the broker announces an observation, with the new value in the output frame', async () => {
    const ds = sta.things[0].datastreams[0];
    const { sb, out } = await staSwitchboard(alice, { origin: sta.origin, sta_version: 'v1.1', mqtt_uri: BROKER, batch_size: 2 });
    const first = await runAndWait(t, alice, sb);
    assert.equal(first.status, 'success');
    const [oven] = (await contentOf(alice, out)) as Array<{ feature: Feature }>;
    assert.equal(oven.feature.properties['oven temperature'], 71.2);

    const watching = watched(sb);
    expectStatus(await alice.patch(sb.resource_uri, { automatic: true }), 200);
    await watching;

    // What a SensorThings server does when a sensor posts an observation: store it, then publish it.
    const observation = sta.observe(ds.id, 75.5);
    const started = nextExecution(sb, first.id as number);
    await publisher.publishAsync(
      `v1.1/Datastreams(${ds.id})/Observations`,
      JSON.stringify({ '@iot.id': observation.id, ...observation }),
    );
    const id = await started;
    const execution = await waitForExecution(t, alice, {
      id,
      resource_uri: `/api/v1/execution/${id}/`,
      switchboard: sb.resource_uri,
    } as Obj);
    assert.equal(execution.status, 'success', JSON.stringify(execution));
    assert.equal(execution.trigger, 'automatic');
    const [updated] = (await contentOf(alice, out)) as Array<{ feature: Feature }>;
    assert.equal(updated.feature.properties['oven temperature'], 75.5);
    assert.equal(updated.feature.properties['oven temperature_time'], observation.phenomenonTime);
    expectStatus(await alice.patch(sb.resource_uri, { automatic: false }), 200);
  });

  /** Resolves when the watcher announces that it watches a node of `sb`. */
  function watched(sb: Obj): Promise<void> {
    return new Promise<void>((resolve) => {
      const sub = t.server.bus.subscribe(LIVE_DATASET_CHANNEL, (msg) => {
        if (msg.switchboard_id !== sb.id) return;
        sub.dispose();
        resolve();
      });
    });
  }

  it('runs a REST dataset again when its answer changes, polling every update_interval seconds', async () => {
    let body = JSON.stringify([{ name: 'Pegel Köln', lat: 50.937, lon: 6.963, level: 312, note: 'x' }]);
    const rest = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => rest.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(rest.address() as AddressInfo).port}/gauges`;
      const sb = await newSwitchboard(alice);
      const dataset = {
        origin,
        update_interval: 1,
        jp_obj_root: '$[*]',
        jp_lat: '$.lat',
        jp_lon: '$.lon',
        properties: ['$.name', '$.level'],
      };
      const settings = await addFrame(alice, sb, 'rest-livedataset', [dataset]);
      const node = await addNode(alice, sb, 'rest.import');
      const out = await addFrame(alice, sb, 'feature');
      await link(alice, node, 'dataset', settings, true);
      await link(alice, node, 'features', out, false);
      const first = await runAndWait(t, alice, sb);
      assert.equal(first.status, 'success', JSON.stringify(first));
      const [gauge] = (await contentOf(alice, out)) as Array<{ feature: Feature }>;
      assert.deepEqual(gauge.feature, {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [6.963, 50.937] },
        properties: { name: 'Pegel Köln', level: 312 },
      });

      const watching = watched(sb);
      expectStatus(await alice.patch(sb.resource_uri, { automatic: true }), 200);
      await watching;
      const started = nextExecution(sb, first.id as number);
      body = JSON.stringify([{ name: 'Pegel Köln', lat: 50.937, lon: 6.963, level: 318 }]);
      const id = await started;
      const execution = await waitForExecution(t, alice, {
        id,
        resource_uri: `/api/v1/execution/${id}/`,
        switchboard: sb.resource_uri,
      } as Obj);
      assert.equal(execution.status, 'success', JSON.stringify(execution));
      assert.equal(execution.trigger, 'automatic');
      const [updated] = (await contentOf(alice, out)) as Array<{ feature: Feature }>;
      assert.equal(updated.feature.properties.level, 318);
      expectStatus(await alice.patch(sb.resource_uri, { automatic: false }), 200);
    } finally {
      rest.close();
      rest.closeAllConnections();
    }
  });

  it('watches datasets given as a node parameter or in a linked frame, on switchboards marked automatic only', async () => {
    const dataset = { origin: sta.origin, sta_version: 'v1.1', mqtt_uri: BROKER, batch_size: 7 };
    const manual = await newSwitchboard(alice);
    await addNode(alice, manual, 'sensorthings.import', [{ name: 'dataset', default_value: dataset }]);
    const automatic = await newSwitchboard(alice, { automatic: true });
    const byParameter = await addNode(alice, automatic, 'sensorthings.import', [{ name: 'dataset', default_value: dataset }]);
    const { sb: linked, node: byFrame } = await staSwitchboard(alice, { ...dataset, batch_size: 8 });
    expectStatus(await alice.patch(linked.resource_uri, { automatic: true }), 200);
    const targets = await liveTargets(t.server.db.dataSource, ['sensorthings.import']);
    assert.deepEqual(
      targets.filter((x) => [manual.id, automatic.id, linked.id].includes(x.switchboardId)),
      [
        { switchboardId: automatic.id, nodeId: byParameter.id, func: 'sensorthings.import', datasets: [dataset] },
        { switchboardId: linked.id, nodeId: byFrame.id, func: 'sensorthings.import', datasets: [{ ...dataset, batch_size: 8 }] },
      ],
    );
    for (const sb of [automatic, linked]) expectStatus(await alice.patch(sb.resource_uri, { automatic: false }), 200);
  });

  it('refuses a service root naming any SensorThings version but v1.1, in the language of the user who runs it', async () => {
    const hans = await t.user();
    expectStatus(await hans.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    const { sb, node } = await staSwitchboard(hans.client, { origin: `${sta.origin}/v1.0` });
    const exec = await runAndWait(t, hans.client, sb);
    assert.equal(exec.status, 'failure');
    const failed = await get(hans.client, node.resource_uri);
    assert.match(
      failed.runinfo.exception,
      /SensorThings-API-Version „v1\.0“ wird nicht unterstützt\. Nur v1\.1 wird unterstützt/,
    );
  });
});
