import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { Disposable, type StartupHookDescriptor } from '@werkbank/sdk/node';
import { eventRetention, pruneEvents, retentionDays } from './event-retention';

describe('activity feed retention (start-up hook)', function () {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ plugins: ['events'] });
  });
  after(async () => t?.close());

  it('reads EVENTS_RETENTION_DAYS as a positive whole number of days, otherwise keeps entries for ever', () => {
    assert.equal(retentionDays({ EVENTS_RETENTION_DAYS: '30' }), 30);
    assert.equal(retentionDays({}), undefined);
    assert.equal(retentionDays({ EVENTS_RETENTION_DAYS: '0' }), undefined);
    assert.equal(retentionDays({ EVENTS_RETENTION_DAYS: 'ten' }), undefined);
  });

  it('removes only entries older than the retention period', async () => {
    const db = t.server.db.dataSource;
    await db.query(
      `INSERT INTO werkbank_event (key, kind, object_repr, created) VALUES ('create', 'tag', 'old', now() - interval '40 days'), ('create', 'tag', 'recent', now() - interval '2 days')`,
    );
    assert.equal(await pruneEvents({ dataSource: db }, 30), 1);
    const left = (await db.query(`SELECT object_repr FROM werkbank_event WHERE object_repr IN ('old', 'recent')`)) as {
      object_repr: string;
    }[];
    assert.deepEqual(
      left.map((r) => r.object_repr),
      ['recent'],
    );
  });

  it('prunes at start when EVENTS_RETENTION_DAYS is set, saying how many entries went, and not at all without it', async () => {
    const hooks: StartupHookDescriptor[] = [];
    eventRetention.registerStartupHooks({ add: (hook) => (hooks.push(hook), Disposable.NULL) });
    assert.deepEqual(
      hooks.map((h) => h.id),
      ['events.retention'],
    );
    const db = t.server.db.dataSource;
    const repr = `expired ${Date.now()}`;
    await db.query(
      `INSERT INTO werkbank_event (key, kind, object_repr, created) VALUES ('create', 'tag', $1, now() - interval '40 days')`,
      [repr],
    );
    const left = async () =>
      ((await db.query(`SELECT count(*)::int AS n FROM werkbank_event WHERE object_repr = $1`, [repr])) as { n: number }[])[0].n;
    const before = process.env.EVENTS_RETENTION_DAYS;
    try {
      delete process.env.EVENTS_RETENTION_DAYS;
      const logs: string[] = [];
      assert.equal(await hooks[0].run({ dataSource: db, log: (m) => logs.push(m) }), undefined, 'no timer without the setting');
      assert.equal(await left(), 1);

      process.env.EVENTS_RETENTION_DAYS = '30';
      let logged!: (message: string) => void;
      const message = new Promise<string>((resolve) => (logged = resolve));
      const running = await hooks[0].run({ dataSource: db, log: (m) => logged(m) });
      try {
        assert.equal(await message, 'Activity feed: removed 1 entries older than 30 days');
        assert.equal(await left(), 0);
      } finally {
        running?.dispose();
      }
    } finally {
      if (before === undefined) delete process.env.EVENTS_RETENTION_DAYS;
      else process.env.EVENTS_RETENTION_DAYS = before;
    }
  });
});
