import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { configFromEnv, WerkbankServer } from '@werkbank/server';
import type { MessageBus, ServerConfig } from '@werkbank/sdk/node';
import { openDatabase, type DatabaseHandle } from '../../server/src/db/database';

import { InlineBus } from '../../server/src/exec/inline-bus';
import { InlineJobQueue } from '../../server/src/exec/inline-job-queue';
import { PgNotifyBus } from '../../server/src/exec/pg-notify-bus';
import { PgBossJobQueue } from '../../server/src/exec/pg-boss-job-queue';
import { TransactionHooks } from '../../server/src/exec/transaction-hooks';
import { SERVER_URL, sql, within } from './pg-test-support';

const ROOT = resolve(import.meta.dirname, '../..');

type Payload = Record<string, unknown>;

/** Records the messages of one channel; `until` resolves once a message matches. */
function listen(bus: MessageBus, channel: string) {
  const got: Payload[] = [];
  const waiters: Array<{ match: (p: Payload) => boolean; resolve: () => void }> = [];
  const subscription = bus.subscribe(channel, (p) => {
    got.push(p);
    for (const w of waiters.filter((w) => w.match(p))) w.resolve();
  });
  return {
    got,
    subscription,
    until(match: (p: Payload) => boolean, what: string): Promise<void> {
      if (got.some(match)) return Promise.resolve();
      return within(new Promise<void>((res) => waiters.push({ match, resolve: res })), what);
    },
  };
}

const step = (name: string) => (p: Payload) => p.step === name;

/** `PublishOptions.after`, the same on both buses: delivered after commit, dropped on rollback. */
function afterCommitBehaviour(ctx: { bus: () => MessageBus; other: () => MessageBus; db: () => DataSource }) {
  it('delivers a message published inside a transaction only after it commits', async () => {
    const channel = `after_${randomBytes(4).toString('hex')}`;
    const heard = listen(ctx.other(), channel);
    await (ctx.other() as Partial<PgNotifyBus>).whenListening?.();
    await ctx.db().transaction(async (m) => {
      await ctx.bus().publish(channel, { step: 'committed' }, { after: m });
      await ctx.bus().publish(channel, { step: 'meanwhile' });
      await heard.until(step('meanwhile'), 'the message sent outside the transaction');
      assert.deepEqual(
        heard.got.map((p) => p.step),
        ['meanwhile'],
        'a message waiting for the commit arrived before it',
      );
    });
    await heard.until(step('committed'), 'the message after the commit');
    assert.deepEqual(
      heard.got.map((p) => p.step),
      ['meanwhile', 'committed'],
    );
    heard.subscription.dispose();
  });

  it('drops a message whose transaction rolls back, and one of a savepoint that rolls back', async () => {
    const channel = `rollback_${randomBytes(4).toString('hex')}`;
    const heard = listen(ctx.other(), channel);
    await (ctx.other() as Partial<PgNotifyBus>).whenListening?.();
    await assert.rejects(
      ctx.db().transaction(async (m) => {
        await ctx.bus().publish(channel, { step: 'rolled back' }, { after: m });
        throw new Error('abort');
      }),
      /abort/,
    );
    await ctx.db().transaction(async (outer) => {
      await ctx.bus().publish(channel, { step: 'outer' }, { after: outer });
      await assert.rejects(
        outer.transaction(async (inner) => {
          await ctx.bus().publish(channel, { step: 'inner rolled back' }, { after: inner });
          throw new Error('abort inner');
        }),
        /abort inner/,
      );
      await outer.transaction(async (inner) => {
        await ctx.bus().publish(channel, { step: 'inner released' }, { after: inner });
      });
    });
    await ctx.bus().publish(channel, { step: 'marker' });
    await heard.until(step('marker'), 'the marker sent after both transactions');
    assert.deepEqual(heard.got.map((p) => p.step).sort(), ['inner released', 'marker', 'outer']);
    heard.subscription.dispose();
  });

  it('delivers at once when the manager is in no transaction', async () => {
    const channel = `now_${randomBytes(4).toString('hex')}`;
    const heard = listen(ctx.other(), channel);
    await (ctx.other() as Partial<PgNotifyBus>).whenListening?.();
    await ctx.bus().publish(channel, { step: 'now' }, { after: ctx.db().manager });
    await heard.until(step('now'), 'the message');
    heard.subscription.dispose();
  });

  it('refuses invalid channel names and payloads over 7,000 bytes', async () => {
    await assert.rejects(ctx.bus().publish('Not-Valid', {}), /Invalid message bus channel/);
    await assert.rejects(ctx.bus().publish('x'.repeat(64), {}), /Invalid message bus channel/);
    await assert.rejects(ctx.bus().publish('big', { data: 'ä'.repeat(3600) }), /at most 7000/);
    assert.throws(() => ctx.bus().subscribe('1abc', () => undefined), /Invalid message bus channel/);
  });
}

describe('message bus and job queue', function () {
  this.timeout(60_000);

  describe('InlineBus on the embedded database', () => {
    let db: DatabaseHandle;
    const bus = new InlineBus(() => undefined);
    before(async () => {
      db = await openDatabase({
        dataDir: 'memory://',
        entities: [],
        migrations: [],
        subscribers: [new TransactionHooks()],
        log: () => undefined,
      });
    });
    after(async () => {
      await db?.close();
    });
    afterCommitBehaviour({ bus: () => bus, other: () => bus, db: () => db.dataSource });

    it('keeps the publish order for every subscriber', async () => {
      const heard = listen(bus, 'order');
      for (let i = 0; i < 10; i++) await bus.publish('order', { i });
      await heard.until((p) => p.i === 9, 'the last message');
      assert.deepEqual(
        heard.got.map((p) => p.i),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
      heard.subscription.dispose();
    });

    it('refuses to start a server with EXECUTION=workers on the embedded database', async () => {
      const config: ServerConfig = {
        ...configFromEnv({}, ROOT),
        dataDir: 'memory://',
        databaseUrl: undefined,
        execution: 'workers',
      };
      const server = new WerkbankServer({ config, plugins: [], log: () => undefined });
      await assert.rejects(server.start(), /EXECUTION=workers needs a PostgreSQL server/);
    });
  });

  describe('on a PostgreSQL server', () => {
    const name = `werkbank_exec_${randomBytes(6).toString('hex')}`;
    let url: string;
    let dataSource: DataSource;
    let a: PgNotifyBus;
    let b: PgNotifyBus;
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);

    before(async () => {
      await sql(SERVER_URL, `CREATE DATABASE ${name}`);
      const u = new URL(SERVER_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      dataSource = await new DataSource({ type: 'postgres', url, logging: false }).initialize();
      a = await PgNotifyBus.open({ url, log, applicationName: `${name}_a` });
      b = await PgNotifyBus.open({ url, log, applicationName: `${name}_b`, retryMinMs: 50 });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      if (dataSource?.isInitialized) await dataSource.destroy();
      await sql(SERVER_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    describe('PgNotifyBus', () => {
      it("lets two instances hear each other's messages, in order", async () => {
        const atB = listen(b, 'ping_pong');
        const atA = listen(a, 'ping_pong');
        await Promise.all([a.whenListening(), b.whenListening()]);
        for (let i = 0; i < 5; i++) await a.publish('ping_pong', { from: 'a', i });
        await b.publish('ping_pong', { from: 'b' });
        await atB.until((p) => p.from === 'a' && p.i === 4, "a's last message at b");
        await atA.until((p) => p.from === 'b', "b's message at a");
        assert.deepEqual(
          atB.got.filter((p) => p.from === 'a').map((p) => p.i),
          [0, 1, 2, 3, 4],
        );
        atA.subscription.dispose();
        atB.subscription.dispose();
      });

      afterCommitBehaviour({ bus: () => a, other: () => b, db: () => dataSource });

      it('stops delivering after the last handler of a channel is disposed', async () => {
        const first = listen(b, 'unsubscribed');
        await b.whenListening();
        first.subscription.dispose();
        const marker = listen(b, 'marker_channel');
        await b.whenListening();
        await a.publish('unsubscribed', { step: 'unheard' });
        await a.publish('marker_channel', { step: 'marker' });
        await marker.until(step('marker'), 'the marker');
        assert.deepEqual(first.got, []);
        marker.subscription.dispose();
      });

      it('reconnects after losing its connection and listens again', async () => {
        const heard = listen(b, 'after_reconnect');
        await b.whenListening();
        let onReconnect: { dispose(): void } | undefined;
        const reconnected = new Promise<void>((res) => (onReconnect = b.onDidReconnect(() => res())));
        const [{ n }] = await sql<{ n: number }>(
          url,
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1`,
          [`${name}_b`],
        );
        assert.equal(n, 1);
        await within(reconnected, 'the reconnection');
        onReconnect?.dispose();
        await b.whenListening();
        await a.publish('after_reconnect', { step: 'back' });
        await heard.until(step('back'), 'a message after the reconnection');
        assert.ok(logs.some((l) => /connection lost/.test(l)));
        heard.subscription.dispose();
      });
    });

    describe('PgBossJobQueue', () => {
      const queue = `werkbank_test_${randomBytes(6).toString('hex')}`;
      const started: PgBossJobQueue[] = [];
      const start = async (role: 'server' | 'worker', concurrency = 2) => {
        const q = await PgBossJobQueue.start({ url, role, concurrency, log });
        started.push(q);
        return q;
      };
      const states = async (jobName: string) =>
        Object.fromEntries(
          (
            await sql<{ state: string; n: number }>(
              url,
              `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state`,
              [jobName],
            )
          ).map((r) => [r.state, r.n]),
        );
      after(async () => {
        await Promise.all(started.map((q) => q.close()));
        for (const n of [queue, `${queue}_fail`]) {
          await sql(url, `DELETE FROM pgboss.job WHERE name = $1`, [n]);
          await sql(url, `SELECT pgboss.delete_queue($1)`, [n]);
          await sql(url, `DELETE FROM pgboss.archive WHERE name = $1`, [n]);
        }
      });

      it('gives each of 20 jobs to exactly one of two workers; a server only sends', async () => {
        const sender = await start('server');
        const w1 = await start('worker');
        const w2 = await start('worker');
        const calls: Array<{ worker: string; id: string; n: number; attempt: number }> = [];
        let allTaken!: () => void;
        const taken = new Promise<void>((res) => (allTaken = res));
        const handler = (worker: string) => async (data: { n: number }, job: { id: string; attempt: number }) => {
          calls.push({ worker, id: job.id, n: data.n, attempt: job.attempt });
          if (calls.length === 20) allTaken();
        };
        sender.work(queue, handler('server'));
        w1.work(queue, handler('w1'));
        w2.work(queue, handler('w2'), { concurrency: 3 });
        const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => sender.send(queue, { n })));
        await within(taken, '20 handled jobs');
        // Stopping waits for running handlers, so a second delivery would have been counted by now.
        await Promise.all([w1.close(), w2.close()]);
        assert.equal(calls.length, 20);
        assert.deepEqual(calls.map((c) => c.id).sort(), [...ids].sort());
        assert.deepEqual(
          calls.map((c) => c.n).sort((x, y) => x - y),
          Array.from({ length: 20 }, (_, n) => n),
        );
        assert.ok(!calls.some((c) => c.worker === 'server'), 'a server-role queue took a job');
        assert.ok(calls.every((c) => c.attempt === 0));
        assert.deepEqual(await states(queue), { completed: 20 });
      });

      it('fails the job of a handler that throws, after its retries', async () => {
        const sender = await start('server');
        const worker = await start('worker', 1);
        const attempts: number[] = [];
        let done!: () => void;
        const bothAttempts = new Promise<void>((res) => (done = res));
        worker.work(`${queue}_fail`, async (_data, job) => {
          attempts.push(job.attempt);
          if (attempts.length === 2) done();
          throw new Error(`broken on attempt ${job.attempt}`);
        });
        await sender.send(`${queue}_fail`, {}, { retryLimit: 1 });
        await within(bothAttempts, 'the first attempt and its retry');
        await worker.close();
        assert.deepEqual(attempts, [0, 1]);
        assert.deepEqual(await states(`${queue}_fail`), { failed: 1 });
        assert.ok(logs.some((l) => /broken on attempt 1/.test(l)));
      });
    });

    describe('the server and `npm run worker`', () => {
      it('wires PgNotifyBus and PgBossJobQueue when DATABASE_URL and EXECUTION=workers are set', async () => {
        const config: ServerConfig = { ...configFromEnv({}, ROOT), dataDir: 'memory://', databaseUrl: url, execution: 'workers' };
        const server = new WerkbankServer({ config, plugins: [], log: () => undefined });
        try {
          await server.start();
          assert.ok(server.bus instanceof PgNotifyBus);
          assert.ok(server.jobs instanceof PgBossJobQueue);
        } finally {
          await server.close();
        }
        const inline = new WerkbankServer({ config: { ...config, execution: 'inline' }, plugins: [], log: () => undefined });
        try {
          await inline.start();
          assert.ok(inline.jobs instanceof InlineJobQueue);
        } finally {
          await inline.close();
        }
      });

      const runWorker = (env: Record<string, string>) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker.ts'], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: '', EXECUTION: '', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout!.on('data', (d) => (out += d));
        child.stderr!.on('data', (d) => (out += d));
        return { child, output: () => out };
      };

      it('refuses to start a worker without DATABASE_URL and EXECUTION=workers', async () => {
        const w = runWorker({ EXECUTION: 'workers' });
        const [code] = await within(once(w.child, 'exit'), 'the worker to exit');
        assert.equal(code, 1);
        assert.match(w.output(), /DATABASE_URL=postgres:\/\/\.\.\. and EXECUTION=workers/);
      });

      it('starts a worker that serves no HTTP and stops on SIGTERM', async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'werkbank-worker-'));
        try {
          const w = runWorker({
            DATABASE_URL: url,
            EXECUTION: 'workers',
            EXECUTION_CONCURRENCY: '3',
            WERKBANK_PLUGINS: 'hello',
            DATA_DIR: dataDir,
            ADMIN_PASSWORD: 'worker-test-pw',
          });
          const exited = once(w.child, 'exit');
          await within(
            new Promise<void>((res, rej) => {
              w.child.stdout!.on('data', () => /Werkbank worker started \(concurrency 3\)/.test(w.output()) && res());
              void exited.then(() => rej(new Error(`the worker exited: ${w.output()}`)));
            }),
            'the worker to start',
            45_000,
          );
          w.child.kill('SIGTERM');
          const [code, signal] = await within(exited, 'the worker to stop');
          assert.equal(code, 0, `exit ${code} ${signal}: ${w.output()}`);
          assert.doesNotMatch(w.output(), /running at http/);
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      });
    });
  });
});
