import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IClientOptions, MqttClient } from 'mqtt';
import { clientOptions, MqttFeed } from './mqtt-feed';

/** A stand-in for mqtt.js's client: records subscriptions; the test makes it connect and drop. */
class FakeClient extends EventEmitter {
  connected = false;
  ended = false;
  subscriptions: string[][] = [];
  subscribe(topics: string[], _opts: unknown, callback: (e?: Error) => void): void {
    this.subscriptions.push(topics);
    callback();
  }
  unsubscribe(): void {}
  end(): void {
    this.ended = true;
  }
  up(): void {
    this.connected = true;
    this.emit('connect');
  }
  drop(): void {
    this.connected = false;
    this.emit('close');
  }
}

describe('geodata live datasets: MqttFeed', () => {
  it('connects to the address the guard checked, keeping the host name for TLS and the credentials', () => {
    const options = clientOptions('mqtts://user:p%40ss@broker.example.org:8884', '93.184.216.34');
    assert.equal(options.hostname, '93.184.216.34');
    assert.equal(options.port, 8884);
    assert.equal(options.protocol, 'mqtts');
    assert.equal(options.servername, 'broker.example.org');
    assert.deepEqual([options.username, options.password], ['user', 'p@ss']);
    assert.equal(options.reconnectPeriod, 0, 'reconnects are the feed’s own, with backoff and a new host check');
    assert.equal(clientOptions('mqtt://broker.example.org', '93.184.216.34').port, 1883);
  });

  it('logs a client that cannot be made and tries again, never throwing', async () => {
    let attempts = 0;
    const logs: string[] = [];
    let second: () => void = () => {};
    const retried = new Promise<void>((resolve) => (second = resolve));
    const feed = new MqttFeed({
      uri: 'mqtt://broker.example.org',
      checkHost: async () => ({ address: '93.184.216.34', family: 4 }),
      log: (m) => logs.push(m),
      backoff: { first: 1, max: 1 },
      connect: () => {
        if (++attempts === 2) second();
        throw new Error('bad options');
      },
    });
    feed.start();
    await retried;
    feed.dispose();
    assert.match(logs[0], /not connected \(bad options\); retrying in 0.001 s/);
  });

  it('subscribes after every connect and reconnects with a growing delay after the connection drops', async () => {
    const clients: FakeClient[] = [];
    const checked: string[] = [];
    let connected: () => void = () => {};
    const logs: string[] = [];
    let retried: (m: string) => void = () => {};
    const feed = new MqttFeed({
      uri: 'mqtt://broker.example.org:1883',
      checkHost: async (uri) => {
        checked.push(uri);
        return { address: '93.184.216.34', family: 4 };
      },
      log: (m) => {
        logs.push(m);
        retried(m);
      },
      backoff: { first: 5, max: 10 },
      connect: (options: IClientOptions) => {
        assert.equal(options.hostname, '93.184.216.34');
        const client = new FakeClient();
        clients.push(client);
        connected();
        return client as unknown as MqttClient;
      },
    });
    const nextClient = () => new Promise<void>((resolve) => (connected = resolve));
    const retry = () => new Promise<string>((resolve) => (retried = (m) => /retrying/.test(m) && resolve(m)));
    let made = nextClient();
    feed.setTopics(new Set(['v1.1/Datastreams(1)/Observations']));
    feed.start();
    await made;
    const confirmed = new Promise<string[]>((resolve) => feed.onDidSubscribe(resolve));
    clients[0].up();
    assert.deepEqual(await confirmed, ['v1.1/Datastreams(1)/Observations']);

    let retrying = retry();
    made = nextClient();
    clients[0].drop();
    assert.match(await retrying, /connection closed; retrying in 0.005 s/);
    await made;
    assert.equal(checked.length, 2, 'the host is checked again before reconnecting');
    retrying = retry();
    made = nextClient();
    clients[1].drop();
    assert.match(await retrying, /retrying in 0.01 s/);
    await made;
    clients[2].up();
    assert.deepEqual(clients[2].subscriptions, [['v1.1/Datastreams(1)/Observations']], 'subscribed again after reconnecting');
    retrying = retry();
    clients[2].drop();
    assert.match(await retrying, /retrying in 0.005 s/, 'a successful connect resets the delay');
    feed.dispose();
    assert.ok(clients[0].ended && clients[1].ended);
  });
});
