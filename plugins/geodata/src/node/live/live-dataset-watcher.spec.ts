import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GuardedFetcher } from '@werkbank/testing/node';
import { LIVE_DATASET_CHANNEL, LiveDatasetWatcher, observationsTopic, SWITCHBOARD_LIVE_CHANNEL } from './live-dataset-watcher';
import { RUN_REQUEST_CHANNEL } from './live-run-trigger';
import { startStaTestServer, type StaTestServer } from './sta-test-server';
import { connectedPublisher, testBus, type TestBus } from './live-test-bus';
import type { LiveTarget } from './live-watch-targets';
import { STA_IMPORT } from './sta-import';
import { REST_IMPORT } from './rest-import';

/** The machine's Mosquitto broker. */
const BROKER = 'mqtt://127.0.0.1:1883';

describe('geodata live datasets: LiveDatasetWatcher (against the machine’s Mosquitto)', function () {
  let sta: StaTestServer;
  let bus: TestBus;
  let publisher: Awaited<ReturnType<typeof connectedPublisher>>;
  let watcher: LiveDatasetWatcher | undefined;
  let logs: string[];
  let onLog: (m: string) => void;

  before(async () => (publisher = await connectedPublisher(BROKER)));
  after(() => publisher.endAsync());
  beforeEach(async () => {
    sta = await startStaTestServer();
    bus = testBus();
    logs = [];
    onLog = () => {};
  });
  afterEach(async () => {
    watcher?.dispose();
    watcher = undefined;
    await sta.close();
  });

  /** Host names of the tests: a broker in the server's private network. */
  const resolve = async (host: string) => {
    if (host !== 'broker.intranet.test') throw new Error('ENOTFOUND');
    return [{ address: '10.0.0.5', family: 4 }];
  };

  function watch(targets: LiveTarget[]): LiveDatasetWatcher {
    watcher = new LiveDatasetWatcher({
      net: new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes: 1e8, resolve }),
      bus,
      log: (m) => {
        logs.push(m);
        onLog(m);
      },
      targets: async () => targets,
      isRunning: async () => false,
      debounceMs: 1,
      mqtt: { backoff: { first: 10, max: 40 } },
    });
    watcher.start();
    return watcher;
  }
  // A topic of its own per run, so that messages of other runs on the shared broker do not interfere.
  const staTarget = (nodeId: number, fields: Record<string, unknown> = {}): LiveTarget => ({
    switchboardId: 3,
    nodeId,
    func: STA_IMPORT,
    datasets: [{ origin: sta.origin, version: 'v1.1', mqtt_uri: BROKER, ...fields }],
  });

  it('subscribes to the Observations of every datastream and asks for a run when one arrives', async () => {
    sta.things[0].datastreams[0].id = 910_000 + process.pid;
    watch([staTarget(31)]);
    assert.deepEqual(await bus.next(LIVE_DATASET_CHANNEL), { switchboard_id: 3, node_id: 31, status: 'watching', topics: 3 });
    const topic = observationsTopic('v1.1', sta.things[0].datastreams[0].id);
    await publisher.publishAsync(topic, JSON.stringify({ result: 72.5, phenomenonTime: new Date().toISOString() }));
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 3, node_id: 31 });
    assert.ok(
      sta.requests.some((r) => r.includes('$select=id')),
      'datastream ids are looked up with the same Things query',
    );
  });

  it('narrows the topics with datastream_filter and quotes text ids', async () => {
    sta.things[0].datastreams[1].id = `humid-${process.pid}` as unknown as number;
    watch([staTarget(32, { datastream_filter: "name eq 'oven humidity'" })]);
    assert.equal((await bus.next(LIVE_DATASET_CHANNEL)).topics, 1);
    await publisher.publishAsync(`v1.1/Datastreams('humid-${process.pid}')/Observations`, '{"result": 40}');
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 3, node_id: 32 });
  });

  it('connects to a broker only where the fetch guard allows, and keeps trying with a growing delay', async () => {
    const delays: string[] = [];
    const fourth = new Promise<void>(
      (resolve) =>
        (onLog = (m) => {
          const retry = /refused \(url_refused\); retrying in ([\d.]+) s/.exec(m);
          if (retry && delays.push(retry[1]) === 4) resolve();
        }),
    );
    watch([staTarget(33, { mqtt_uri: 'mqtt://broker.intranet.test:1883' })]);
    await fourth;
    assert.deepEqual(delays, ['0.01', '0.02', '0.04', '0.04']);
    assert.ok(!bus.published.some((m) => m.channel === LIVE_DATASET_CHANNEL), 'nothing is watched');
  });

  it('follows changes of the switchboards: a removed node is no longer watched', async () => {
    const [oven, gauge] = [sta.things[0].datastreams[0], sta.things[1].datastreams[0]];
    oven.id = 920_000 + process.pid;
    gauge.id = 930_000 + process.pid;
    const targets = [
      staTarget(34, { datastream_filter: "name eq 'oven temperature'" }),
      staTarget(35, { datastream_filter: "name eq 'water level'" }),
    ];
    watch(targets);
    await bus.next(LIVE_DATASET_CHANNEL, (p) => p.node_id === 34);
    await bus.next(LIVE_DATASET_CHANNEL, (p) => p.node_id === 35);
    targets.shift();
    await bus.publish(SWITCHBOARD_LIVE_CHANNEL, { switchboard_id: 3, event: 'NODE_DELETE', resource_uri: '/api/v1/node/34/' });
    await watcher!.refresh();
    // One connection delivers in order: the oven's observation comes before the gauge's.
    await publisher.publishAsync(observationsTopic('v1.1', oven.id), '{"result": 1}');
    await publisher.publishAsync(observationsTopic('v1.1', gauge.id), '{"result": 2}');
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 3, node_id: 35 });
    assert.equal(bus.published.filter((m) => m.channel === RUN_REQUEST_CHANNEL).length, 1);
  });

  it('keeps watching the datastreams found before while the service does not answer', async () => {
    const ds = sta.things[1].datastreams[0];
    ds.id = 960_000 + process.pid;
    watch([staTarget(36, { datastream_filter: "name eq 'water level'" })]);
    await bus.next(LIVE_DATASET_CHANNEL);
    sta.failing = true;
    await watcher!.refresh(true);
    assert.match(logs.join('\n'), /fetch_status; keeping the datastreams found before/);
    await publisher.publishAsync(observationsTopic('v1.1', ds.id), '{"result": 3}');
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 3, node_id: 36 });
  });

  describe('REST datasets', () => {
    let server: http.Server;
    let origin: string;
    let body = '[]';
    let served = 0;
    let onServed: () => void = () => {};
    before(async () => {
      server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        served++;
        onServed();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/positions`;
    });
    after(() => {
      server.close();
      server.closeAllConnections();
    });

    it('polls the origin every update_interval seconds and asks for a run when the answer changes', async () => {
      body = '[{"lat": 50, "lon": 7}]';
      const target: LiveTarget = {
        switchboardId: 4,
        nodeId: 41,
        func: REST_IMPORT,
        datasets: [{ origin, jp_lat: '$.lat', jp_lon: '$.lon', update_interval: 1 }],
      };
      watch([target]);
      assert.deepEqual(await bus.next(LIVE_DATASET_CHANNEL), { switchboard_id: 4, node_id: 41, status: 'watching', topics: 1 });
      body = '[{"lat": 50.5, "lon": 7}]';
      assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 4, node_id: 41 });
    });

    it('asks for nothing while the answer stays the same', async () => {
      body = '[{"lat": 51, "lon": 7}]';
      served = 0;
      // The third request starts only after the second answer was compared with the first.
      const third = new Promise<void>((resolve) => (onServed = () => served === 3 && resolve()));
      watch([
        {
          switchboardId: 4,
          nodeId: 42,
          func: REST_IMPORT,
          datasets: [{ origin, jp_lat: '$.lat', jp_lon: '$.lon', update_interval: 1 }],
        },
      ]);
      await third;
      assert.ok(!bus.published.some((m) => m.channel === RUN_REQUEST_CHANNEL));
    });
  });
});
