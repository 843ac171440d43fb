import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { pruneEvents, retentionDays } from './event-retention';

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
});
