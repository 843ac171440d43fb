import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiCallRecorder,
  API_STATS_ACCURACY,
  DDSketch,
  apiKeyClient,
  assertError,
  expectStatus,
  startTestServer,
  userUri,
  type TestServer,
} from '@werkbank/testing/node';

const CALLS = '/api/v2/analytics/api-calls';

interface Statistic {
  month: string;
  path: string;
  status_code: number;
  count: number;
  p50_duration_ms: number;
  p95_duration_ms: number;
}

/** Durations with a known spread (xorshift), 1 ms to about 3 s. */
function durations(n: number, seed: number): number[] {
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  return Array.from({ length: n }, () => Math.exp(next() * 8));
}

/** The quantile the sketch bounds: the value of rank ⌊q·(n − 1)⌋ in sorted order. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))];
}

/** Within the sketch's relative accuracy, plus the reply's rounding to two decimals. */
function assertWithin(got: number, truth: number, what: string): void {
  assert.ok(Math.abs(got - truth) <= API_STATS_ACCURACY * truth + 0.005, `${what}: ${got} ms, true ${truth} ms`);
}

/** Issue 19 "API statistics": every API call counted per month, path template, status and user. */
describe('admin: API call statistics (api_stats)', function () {
  let t: TestServer;

  before(async () => {
    t = await startTestServer({ plugins: ['admin'] });
  });
  after(async () => t?.close());

  const statsOf = async (userId: number): Promise<Statistic[]> => {
    const admin = await t.admin();
    return expectStatus(await admin.get(`${CALLS}?user=${encodeURIComponent(userUri(userId))}`), 200).objects;
  };
  const storedRows = async (userId: number) =>
    (await t.server.db.dataSource.query(`SELECT count(*)::int AS n FROM werkbank_api_call_bucket WHERE user_id = $1`, [
      userId,
    ])) as { n: number }[];

  it('counts known traffic by route template and status code, never by raw path', async () => {
    const u = await t.user();
    const other = await t.user();
    for (let i = 0; i < 5; i++) expectStatus(await u.client.get(userUri(u.id)), 200);
    for (let i = 0; i < 3; i++) expectStatus(await u.client.get(userUri(other.id)), 200);
    for (let i = 0; i < 2; i++) assertError(await u.client.get('/api/v1/group/999999/'), 404, 'not_found');
    assertError(await u.client.post('/api/v1/group/', { name: 'x' }, { csrf: false }), 403, 'csrf_missing');
    assertError(await u.client.get('/api/v1/no-such-kind/'), 404, 'not_found');
    const month = new Date().toISOString().slice(0, 7);
    const rows = await statsOf(u.id);
    const find = (path: string, status: number) => rows.find((r) => r.path === path && r.status_code === status);
    assert.equal(find('/api/v1/user/{id}/', 200)?.count, 8, JSON.stringify(rows));
    assert.equal(find('/api/v1/group/{id}/', 404)?.count, 2);
    // Refused before the router: no route matched, so the raw path is not recorded either.
    assert.equal(find('(unmatched)', 403)?.count, 1);
    assert.equal(find('(unmatched)', 404)?.count, 1);
    assert.ok(
      rows.every((r) => r.month === month && !/\d{3,}/.test(r.path)),
      'every row is this month and no raw id appears',
    );
    for (const r of rows) assert.ok(r.p50_duration_ms > 0 && r.p95_duration_ms >= r.p50_duration_ms, JSON.stringify(r));
  });

  it('answers p50 and p95 within the sketch accuracy (1 %) on known durations', async () => {
    const u = await t.user();
    const values = durations(10_000, 42);
    for (const v of values) t.server.apiCalls.record({ month: '2026-01', path: '/api/v1/known/', status: 200, userId: u.id }, v);
    for (const v of values.slice(0, 100))
      t.server.apiCalls.record({ month: '2025-12', path: '/api/v1/known/', status: 302, userId: u.id }, v);
    const rows = await statsOf(u.id);
    const known = rows.filter((r) => r.path === '/api/v1/known/');
    assert.deepEqual(
      known.map((r) => [r.month, r.status_code, r.count]),
      [
        ['2026-01', 200, 10_000],
        ['2025-12', 302, 100],
      ],
      'newest month first',
    );
    assertWithin(known[0].p50_duration_ms, exact(values, 0.5), 'p50');
    assertWithin(known[0].p95_duration_ms, exact(values, 0.95), 'p95');
    assertWithin(known[1].p95_duration_ms, exact(values.slice(0, 100), 0.95), 'p95 of the small series');
  });

  it('merges two processes exactly: their flushed buckets add up to one sketch of all calls', async () => {
    const u = await t.user();
    const db = t.server.db.dataSource;
    const a = durations(3000, 7);
    const b = durations(4000, 9);
    const first = new ApiCallRecorder(db);
    const second = new ApiCallRecorder(db);
    const key = { month: '2026-02', path: '/api/v1/merged/{id}/', status: 200, userId: u.id };
    const whole = new DDSketch(API_STATS_ACCURACY);
    for (const v of a) {
      first.record(key, v);
      whole.add(v);
    }
    for (const v of b) {
      second.record(key, v);
      whole.add(v);
    }
    // Interleaved flushes from both, as two servers would do.
    await Promise.all([first.flush(), second.flush()]);
    second.record(key, 5);
    whole.add(5);
    await second.stop();
    const stored = (await db.query(
      `SELECT bucket, count::int AS count FROM werkbank_api_call_bucket WHERE user_id = $1 AND month = '2026-02' ORDER BY bucket`,
      [u.id],
    )) as Array<{ bucket: number; count: number }>;
    assert.deepEqual(
      stored.map((r) => [r.bucket, r.count]),
      whole.buckets(),
    );
    const [row] = (await statsOf(u.id)).filter((r) => r.month === '2026-02');
    assert.equal(row.count, a.length + b.length + 1);
    assert.equal(row.p95_duration_ms, Math.round(whole.quantile(0.95)! * 100) / 100);
    assertWithin(row.p50_duration_ms, exact([...a, ...b, 5], 0.5), 'merged p50');
  });

  it('keeps calls in memory until a flush: recording writes nothing per request', async () => {
    const u = await t.user();
    for (let i = 0; i < 4; i++) expectStatus(await u.client.get(userUri(u.id)), 200);
    assert.deepEqual(await storedRows(u.id), [{ n: 0 }], 'nothing stored before the flush');
    assert.ok(t.server.apiCalls.pending > 0);
    await t.server.apiCalls.flush();
    assert.ok((await storedRows(u.id))[0].n > 0, 'stored after the flush');
    assert.equal(t.server.apiCalls.pending, 0);
    const [row] = (await statsOf(u.id)).filter((r) => r.path === '/api/v1/user/{id}/');
    assert.equal(row.count, 4);
  });

  it('flushes on shutdown: counts recorded since the last flush survive a restart', async function () {
    this.timeout(60_000);
    const dataDir = await mkdtemp(join(tmpdir(), 'werkbank-api-stats-'));
    const restartable = await startTestServer({ plugins: ['admin'], config: { dataDir } });
    try {
      const u = await restartable.user();
      for (let i = 0; i < 3; i++) expectStatus(await u.client.get(userUri(u.id)), 200);
      await restartable.restart();
      const admin = await restartable.admin();
      const rows = expectStatus(await admin.get(`${CALLS}?user=${encodeURIComponent(userUri(u.id))}`), 200).objects;
      assert.equal(rows.find((r: Statistic) => r.path === '/api/v1/user/{id}/')?.count, 3, JSON.stringify(rows));
    } finally {
      await restartable.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('answers only superusers, only while api_stats is on, and only for a readable user', async () => {
    const u = await t.user();
    assertError(await u.client.get(`${CALLS}?user=${encodeURIComponent(userUri(u.id))}`), 403, 'superuser_required');
    assertError(await t.client().get(`${CALLS}?user=${encodeURIComponent(userUri(u.id))}`), 401, 'not_authenticated');
    const admin = await t.admin();
    assertError(await admin.get(`${CALLS}?user=/api/v1/group/1/`), 400, 'invalid_parameter');
    assertError(await admin.get(CALLS), 400, 'invalid_parameter');
    assertError(await admin.get(`${CALLS}?user=${encodeURIComponent(userUri(999_999))}`), 404, 'not_found');
    const key = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(1), realms: ['user'] }), 201).key;
    assertError(await apiKeyClient(t, key).get(`${CALLS}?user=${encodeURIComponent(userUri(u.id))}`), 403, 'realm_denied');

    const gate = t.server.licences.gate;
    const before = gate.switches();
    gate.update({ ...before, api_stats: false });
    try {
      const quiet = await t.user();
      expectStatus(await quiet.client.get(userUri(quiet.id)), 200);
      await t.server.apiCalls.flush();
      assert.deepEqual(await storedRows(quiet.id), [{ n: 0 }], 'nothing recorded while the component is off');
      assertError(await admin.get(`${CALLS}?user=${encodeURIComponent(userUri(quiet.id))}`), 403, 'component_disabled');
    } finally {
      gate.update(before);
    }
  });

  it('answers an empty list for a user without calls', async () => {
    const admin = await t.admin();
    const id = await t.server.accounts.createUser({ username: 'stats.silent', password: 'pw-silent-1234' });
    const body = expectStatus(await admin.get(`${CALLS}?user=${encodeURIComponent(userUri(id))}`), 200);
    assert.deepEqual(body, { objects: [], meta: { offset: 0, limit: 0, total_count: 0 } });
  });
});
