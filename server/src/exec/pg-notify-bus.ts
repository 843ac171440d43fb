import { afterCommit } from './transaction-hooks';
import pg from 'pg';
import { Disposable, Emitter } from '@werkbank/kernel';
import type { MessageBus, PublishOptions } from '@werkbank/sdk/node';
import { checkBusChannel, encodeBusMessage } from './bus-message';

type Handler = (payload: Record<string, unknown>) => void;

export interface PgNotifyBusOptions {
  /** The PostgreSQL server and database (NOTIFY reaches only listeners of the same database). */
  url: string;
  log: (message: string) => void;
  /** application_name of the listening connection (pg_stat_activity); default 'werkbank_bus'. */
  applicationName?: string;
  /** Waits between reconnection attempts: doubling from the first to the longest (default 250 ms, 10 s). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** The connection is pinged this often; no answer within the same time counts as lost (default 30 s). */
  pingIntervalMs?: number;
  /** How long `publish` waits for a lost connection to come back before it rejects (default 10 s). */
  publishTimeoutMs?: number;
}

interface Deferred<T> {
  promise: Promise<T>;
  settled: boolean;
  resolve(value: T): void;
  reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
  const d = { settled: false } as Deferred<T>;
  d.promise = new Promise<T>((res, rej) => {
    d.resolve = (v) => ((d.settled = true), res(v));
    d.reject = (e) => ((d.settled = true), rej(e));
  });
  d.promise.catch(() => undefined);
  return d;
}

const escape = (channel: string) => pg.escapeIdentifier(channel);

/**
 * The message bus on a PostgreSQL server: LISTEN/NOTIFY on one dedicated connection (not the
 * TypeORM pool, whose connections come and go). After a connection loss it reconnects with
 * exponential backoff and LISTENs again to every subscribed channel; messages sent while it was
 * away are lost, so subscribers that keep state re-read it on `onDidReconnect`. Messages of one
 * sender arrive in order; handlers run synchronously in that order.
 */
export class PgNotifyBus implements MessageBus, Disposable {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly onDidReconnectEmitter = new Emitter<void>();
  /** Fires when the connection is back after a loss (messages may have been missed). */
  readonly onDidReconnect = this.onDidReconnectEmitter.event;
  /** The client being connected or in use. */
  private current?: pg.Client;
  /** The connected client: LISTEN/UNLISTEN go to it at once. */
  private connected?: pg.Client;
  private ready = deferred<pg.Client>();
  private lastCommand: Promise<void> = Promise.resolve();
  private attempt = 0;
  private everConnected = false;
  private disposed = false;
  private retryTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;

  private constructor(private readonly options: PgNotifyBusOptions) {}

  /** Connects and resolves once the bus listens; rejects when the first connection fails. */
  static async open(options: PgNotifyBusOptions): Promise<PgNotifyBus> {
    const bus = new PgNotifyBus(options);
    try {
      await bus.connect();
    } catch (e) {
      await bus.close();
      throw new Error(`The message bus could not connect to PostgreSQL: ${(e as Error).message}`, { cause: e });
    }
    return bus;
  }

  /**
   * Sends `payload` to every subscriber of `channel` in every process on the database. With
   * `after` inside a transaction, the NOTIFY is part of that transaction: PostgreSQL delivers it
   * on commit and drops it on rollback. Rejects an invalid channel, a payload over 7,000 bytes, or
   * when the connection stays away longer than `publishTimeoutMs`.
   */
  async publish(channel: string, payload: Record<string, unknown>, options: PublishOptions = {}): Promise<void> {
    const text = encodeBusMessage(channel, payload);
    const send = async () => {
      const client = await this.whenConnected();
      await this.serial(client, 'SELECT pg_notify($1, $2)', [channel, text]);
    };
    // Inside a transaction the message waits for its commit (and is dropped on rollback), then goes
    // out on the bus's own connection: the transaction's connection is never shared with it.
    if (options.after?.queryRunner?.isTransactionActive) {
      afterCommit(
        options.after,
        () => void send().catch((e: Error) => this.options.log(`Bus message on ${channel} lost: ${e.message}`)),
      );
      return;
    }
    await send();
  }

  subscribe(channel: string, handler: Handler): Disposable {
    checkBusChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      this.command(`LISTEN ${escape(channel)}`);
    }
    set.add(handler);
    const handlers = set;
    return Disposable.create(() => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.handlers.get(channel) === handlers) {
        this.handlers.delete(channel);
        this.command(`UNLISTEN ${escape(channel)}`);
      }
    });
  }

  /** Resolves once every subscription made so far is listening (messages sent after it are heard). */
  async whenListening(): Promise<void> {
    await this.whenConnected();
    await this.lastCommand;
  }

  /** Stops listening and closes the connection; publishing afterwards rejects. */
  dispose(): void {
    void this.close();
  }

  async close(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ready.reject(new Error('The message bus is closed.'));
    this.onDidReconnectEmitter.dispose();
    const client = this.current;
    this.current = this.connected = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: this.options.applicationName ?? 'werkbank_bus',
      keepAlive: true,
    });
    // Listeners stay attached for the client's life: an 'error' without a listener would crash.
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('connection closed')));
    client.on('notification', (n) => {
      if (this.current === client) this.deliver(n.channel, n.payload);
    });
    this.current = client;
    try {
      await client.connect();
      if (this.current !== client) throw new Error('The message bus is closed.');
      this.connected = client;
      // Queued in one go, after which subscribe() sends its own LISTEN: no subscription is missed.
      for (const ch of this.handlers.keys()) await this.serial(client, `LISTEN ${escape(ch)}`);
    } catch (e) {
      this.lost(client, e as Error);
      throw e;
    }
    if (this.current !== client) return;
    const reconnected = this.everConnected;
    this.everConnected = true;
    this.attempt = 0;
    this.startPing(client);
    this.ready.resolve(client);
    if (reconnected) {
      this.options.log('Message bus reconnected');
      this.onDidReconnectEmitter.fire();
    }
  }

  /** Called for every error or end of a client; acts once per client, for the current one only. */
  private lost(client: pg.Client, error: Error): void {
    if (this.current !== client) return;
    this.current = this.connected = undefined;
    clearInterval(this.pingTimer);
    // Publishers waiting for the connection keep waiting for the next one.
    if (this.ready.settled) this.ready = deferred();
    client.end().catch(() => undefined);
    if (this.disposed || !this.everConnected) return;
    if (this.attempt === 0) this.options.log(`Message bus connection lost (${error.message}); reconnecting`);
    const min = this.options.retryMinMs ?? 250;
    const wait = Math.min(min * 2 ** this.attempt, this.options.retryMaxMs ?? 10_000);
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.connect().catch(() => undefined); // lost() has scheduled the next attempt
    }, wait);
  }

  private startPing(client: pg.Client): void {
    const every = this.options.pingIntervalMs ?? 30_000;
    this.pingTimer = setInterval(() => {
      const timeout = setTimeout(() => this.lost(client, new Error('no answer to ping')), every);
      this.serial(client, 'SELECT 1').then(
        () => clearTimeout(timeout),
        (e: Error) => {
          clearTimeout(timeout);
          this.lost(client, e);
        },
      );
    }, every);
    this.pingTimer.unref();
  }

  /** LISTEN/UNLISTEN on the connected client; without one, connect() listens to every channel. */
  /** The tail of the connection's statements: pg runs one at a time per client, so they queue here. */
  private chain: Promise<unknown> = Promise.resolve();

  /** Runs a statement after the ones sent before it on this connection (in order, one at a time). */
  private serial(client: pg.Client, sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    const run = () => client.query(sql, params);
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private command(sql: string): void {
    const client = this.connected;
    if (!client) return;
    this.lastCommand = this.serial(client, sql).then(
      () => undefined,
      (e: Error) => {
        if (this.connected === client) this.options.log(`Message bus: ${sql} failed: ${e.message}`);
      },
    );
  }

  private async whenConnected(): Promise<pg.Client> {
    if (this.disposed) throw new Error('The message bus is closed.');
    const ms = this.options.publishTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`The message bus has had no database connection for ${ms} ms.`)), ms);
    });
    try {
      return await Promise.race([this.ready.promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private deliver(channel: string, text: string | undefined): void {
    const handlers = this.handlers.get(channel);
    if (!handlers?.size) return;
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(text ?? '') as Record<string, unknown>;
    } catch {
      this.options.log(`Message bus: ignored a message on ${channel} that is not JSON`);
      return;
    }
    for (const h of [...handlers]) {
      try {
        h(payload);
      } catch (e) {
        this.options.log(`Bus handler on ${channel} failed: ${(e as Error).stack ?? String(e)}`);
      }
    }
  }
}
