import net from 'node:net';
import tls from 'node:tls';
import { MqttClient, type IClientOptions } from 'mqtt';
import { Emitter, type Disposable, type UrlFetcher } from '@werkbank/sdk/node';
import { reasonOf } from './live-settings';

/** Delays between reconnects: doubling from the first to the last (ms). */
export interface Backoff {
  first: number;
  max: number;
}
const DEFAULT_BACKOFF: Backoff = { first: 1000, max: 60_000 };

/** How a feed reaches its broker: the guard's host check, a log, and the MQTT client factory (tests replace it). */
export interface MqttFeedOptions {
  uri: string;
  checkHost: UrlFetcher['checkHost'];
  log(message: string): void;
  backoff?: Backoff;
  connect?: (options: IClientOptions) => MqttClient;
}

/** mqtt.js options for `uri`, connecting to the checked `address` (TLS keeps the host name for SNI). */
export function clientOptions(uri: string, address: string): IClientOptions {
  const url = new URL(uri);
  const tls = url.protocol === 'mqtts:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return {
    protocol: tls ? 'mqtts' : 'mqtt',
    hostname: address,
    port: Number(url.port) || (tls ? 8883 : 1883),
    ...(tls ? { servername: host } : {}),
    ...(url.username ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : {}),
    clientId: `werkbank-live-${Math.random().toString(16).slice(2, 10)}`,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 30_000,
    // Node's own timers: mqtt.js would pick web-worker timers when it takes the runtime for a browser.
    timerVariant: 'native',
  };
}

/**
 * An mqtt.js client over a TCP (or TLS) connection to exactly `options.hostname`:
 * mqtt.connect chooses its transport by guessing the runtime once at import (a `window` global,
 * as browser tests install, made it open a browser WebSocket); the server always speaks TCP.
 */
export function mqttClient(options: IClientOptions): MqttClient {
  const port = Number(options.port);
  const host = String(options.hostname);
  const stream = () =>
    options.protocol === 'mqtts'
      ? tls.connect({ host, port, servername: options.servername as string | undefined })
      : net.connect({ host, port });
  return new MqttClient(stream, options);
}

/**
 * One connection to an MQTT broker (a SensorThings service's `mqtt_uri`) with a set of topics.
 * The host is checked by the server's fetch guard before every connect and the client connects
 * to the address checked. A lost or refused connection is retried with backoff; errors are
 * logged, never thrown. `onDidReceive` fires per message with its topic; `onDidSubscribe` when
 * the broker has confirmed the topics (after each connect and each change).
 */
export class MqttFeed implements Disposable {
  private readonly received = new Emitter<string>();
  private readonly subscribed = new Emitter<string[]>();
  readonly onDidReceive = this.received.event;
  readonly onDidSubscribe = this.subscribed.event;
  private readonly abort = new AbortController();
  private readonly backoff: Backoff;
  private client?: MqttClient;
  private topics = new Set<string>();
  private retry?: NodeJS.Timeout;
  private delay: number;

  constructor(private readonly options: MqttFeedOptions) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.delay = this.backoff.first;
  }

  /** Connects (in the background). */
  start(): void {
    void this.connect();
  }

  /** Subscribes to topics new in `topics`, unsubscribes from those no longer in it. */
  setTopics(topics: Set<string>): void {
    const added = [...topics].filter((t) => !this.topics.has(t));
    const removed = [...this.topics].filter((t) => !topics.has(t));
    this.topics = new Set(topics);
    if (!this.client?.connected) return;
    if (removed.length) this.client.unsubscribe(removed);
    if (added.length) this.subscribe(added);
  }

  dispose(): void {
    this.abort.abort();
    clearTimeout(this.retry);
    this.client?.end(true);
    this.client = undefined;
    this.received.dispose();
    this.subscribed.dispose();
  }

  private async connect(): Promise<void> {
    let address: string;
    try {
      ({ address } = await this.options.checkHost(this.options.uri, this.abort.signal));
    } catch (e) {
      return this.fail(`refused (${reasonOf(e)})`);
    }
    if (this.abort.signal.aborted) return;
    let client: MqttClient;
    try {
      client = (this.options.connect ?? mqttClient)(clientOptions(this.options.uri, address));
    } catch (e) {
      return this.fail(`not connected (${(e as Error).message})`);
    }
    this.client = client;
    client.on('connect', () => {
      this.delay = this.backoff.first;
      this.options.log(`Live datasets: connected to ${this.safeUri()}`);
      if (this.topics.size) this.subscribe([...this.topics]);
    });
    client.on('message', (topic) => this.received.fire(topic));
    client.on('error', (e) => this.options.log(`Live datasets: MQTT ${this.safeUri()}: ${e.message}`));
    client.on('close', () => {
      if (this.client !== client) return;
      client.removeAllListeners();
      client.end(true);
      this.client = undefined;
      this.fail('connection closed');
    });
  }

  private subscribe(topics: string[]): void {
    this.client?.subscribe(topics, { qos: 0 }, (e) => {
      if (e) this.options.log(`Live datasets: MQTT ${this.safeUri()}: subscribing failed: ${e.message}`);
      else this.subscribed.fire(topics);
    });
  }

  /** Logs and tries again after the current delay, doubling it up to the maximum. */
  private fail(reason: string): void {
    if (this.abort.signal.aborted) return;
    this.options.log(`Live datasets: MQTT ${this.safeUri()}: ${reason}; retrying in ${this.delay / 1000} s`);
    this.retry = setTimeout(() => void this.connect(), this.delay);
    this.retry.unref();
    this.delay = Math.min(this.delay * 2, this.backoff.max);
  }

  /** The broker address without credentials, for logs. */
  private safeUri(): string {
    const url = new URL(this.options.uri);
    url.username = '';
    url.password = '';
    return url.href;
  }
}
