import assert from 'node:assert/strict';
import { apiKeyClient, assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import {
  daysBefore,
  utcDay,
  viewVisitorsPath,
  VISITORS_OVERVIEW_PATH,
  type ViewVisitorsOverview,
  type ViewVisitorStatistics,
} from '../src/common/view-analytics';

type Made = { id: number; resource_uri: string };
const scene = (ref: string | number) => `/api/v2/presenting/view/${ref}/scene`;
const UA = { firefox: 'Mozilla/5.0 Firefox/140.0 visitor-marker-7f3a', chrome: 'Mozilla/5.0 Chrome/142.0 visitor-marker-7f3a' };
const as = (ua: string) => ({ headers: { 'user-agent': ua } });

/** Visitor statistics of views (spec 002 §2, §6, §7; spec 000 §7; decision 0089). */
describe('views: visitor statistics', function () {
  this.timeout(60_000);
  const logs: string[] = [];
  let t: TestServer;
  let admin: Client;
  let park: Made;
  let archive: Made;
  const today = utcDay(new Date());

  const stats = async (c: Client, id: number) => expectStatus<ViewVisitorStatistics>(await c.get(viewVisitorsPath(id)), 200);
  const stored = async (sql: string, params: unknown[] = []) => t.server.db.dataSource.query(sql, params);
  const withAnalyticsOff = async (body: () => Promise<void>) => {
    const gate = t.server.licences.gate;
    const before = gate.switches();
    gate.update({ ...before, analytics: false });
    try {
      await body();
    } finally {
      gate.update(before);
    }
  };

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'layers', 'views'], logs });
    admin = await t.admin();
    park = expectStatus(await admin.post('/api/v1/view/', { name: 'Stadtpark', slug: 'stadtpark', public: true }), 201);
    archive = expectStatus(await admin.post('/api/v1/view/', { name: 'Archiv' }), 201);
    // Left by an earlier day: its salt and hashes go when the first pageview of today is counted.
    const old = daysBefore(today, 5);
    await stored(`INSERT INTO views_visit_salt (day, salt) VALUES ($1, 'old-salt')`, [old]);
    await stored(`INSERT INTO views_visitor (view_id, day, hash) VALUES ($1, $2, 'aaaaaaaaaaaaaaaa')`, [archive.id, old]);
  });
  after(() => t?.close());

  it('counts every scene load as a pageview and each address and browser once a day, storing only salted hashes', async () => {
    const visitor = t.client();
    for (let i = 0; i < 3; i++) expectStatus(await visitor.get(scene('stadtpark'), as(UA.firefox)), 200);
    expectStatus(await t.client().get(scene(park.id), as(UA.chrome)), 200);
    // Without cookies, the same address and browser are the same visitor, even as another client.
    expectStatus(await t.client().get(scene('stadtpark'), as(UA.firefox)), 200);
    // Loads at the same moment count once as a visitor too.
    const third = 'Mozilla/5.0 Safari/18.0 visitor-marker-7f3a';
    await Promise.all([1, 2, 3].map(async () => expectStatus(await t.client().get(scene('stadtpark'), as(third)), 200)));
    const month = `${today.slice(0, 7)}-01`;
    assert.deepEqual(await stats(admin, park.id), {
      last_seven_days: { pageviews: 8, visitors: 3 },
      total: { pageviews: 8, visitors: 3 },
      monthly: [{ date: month, pageviews: 8, visitors: 3 }],
    });

    const hashes = (await stored(`SELECT view_id, day::text AS day, hash FROM views_visitor ORDER BY hash`)) as {
      view_id: number;
      day: string;
      hash: string;
    }[];
    assert.equal(hashes.length, 3, 'the earlier day’s hash is gone');
    for (const h of hashes) {
      assert.equal(h.view_id, park.id);
      assert.equal(h.day, today);
      assert.match(h.hash, /^[0-9a-f]{16}$/);
    }
    const salts = (await stored(`SELECT day::text AS day FROM views_visit_salt`)) as { day: string }[];
    assert.deepEqual(
      salts.map((s) => s.day),
      [today],
      'only today’s salt is kept',
    );
    const everything = JSON.stringify(
      await stored(`SELECT (SELECT json_agg(v) FROM views_visitor v) AS a, (SELECT json_agg(d) FROM views_visit_day d) AS b`),
    );
    assert.ok(!/visitor-marker|127\.0\.0\.1|::1/.test(everything), 'no address or User-Agent is stored');
  });

  it('adds up the days: the last seven days are today and the six before, months newest first', async () => {
    const days: [string, number, number][] = [
      [daysBefore(today, 6), 10, 4],
      [daysBefore(today, 7), 20, 5],
      [daysBefore(today, 40), 30, 6],
      [daysBefore(today, 400), 1, 1],
    ];
    for (const [day, pageviews, visitors] of days)
      await stored(`INSERT INTO views_visit_day (view_id, day, pageviews, visitors) VALUES ($1, $2, $3, $4)`, [
        archive.id,
        day,
        pageviews,
        visitors,
      ]);
    const months = new Map<string, { pageviews: number; visitors: number }>();
    for (const [day, pageviews, visitors] of days) {
      const m = months.get(`${day.slice(0, 7)}-01`) ?? { pageviews: 0, visitors: 0 };
      months.set(`${day.slice(0, 7)}-01`, { pageviews: m.pageviews + pageviews, visitors: m.visitors + visitors });
    }
    assert.deepEqual(await stats(admin, archive.id), {
      last_seven_days: { pageviews: 10, visitors: 4 },
      total: { pageviews: 61, visitors: 16 },
      monthly: [...months].sort(([a], [b]) => b.localeCompare(a)).map(([date, c]) => ({ date, ...c })),
    });
  });

  it('shows a view’s statistics to its readers only; others get 404 as for a view that does not exist', async () => {
    const stranger = await t.user();
    const reader = await t.user();
    expectStatus(
      await admin.patch(archive.resource_uri, { permissions: [{ user: `/api/v1/user/${reader.id}/`, perms: ['read'] }] }),
      200,
    );
    assertError(await stranger.client.get(viewVisitorsPath(archive.id)), 404, 'not_found');
    assert.equal((await stats(reader.client, archive.id)).total.pageviews, 61);
    assert.equal((await stats(stranger.client, park.id)).total.pageviews, 8, 'a public view is readable by every user');
    assertError(await admin.get(viewVisitorsPath(999_999)), 404, 'not_found');
    assertError(await admin.get('/api/v2/analytics/views/park/visitors'), 404, 'not_found');
    assertError(await t.client().get(viewVisitorsPath(park.id)), 401, 'not_authenticated');
    const key = expectStatus(await admin.post('/api/v1/apikey/', { user: '/api/v1/user/1/', realms: ['view'] }), 201).key;
    assertError(await apiKeyClient(t, key).get(viewVisitorsPath(park.id)), 403, 'realm_denied');
  });

  it('lists the views the caller may read, most viewed in the last seven days first, then by name, paged', async () => {
    const u = await t.user();
    const own = expectStatus(await u.client.post('/api/v1/view/', { name: 'Alleen' }), 201);
    const shared = expectStatus(await admin.post('/api/v1/view/', { name: 'Brunnen' }), 201);
    expectStatus(
      await admin.patch(shared.resource_uri, { permissions: [{ user: `/api/v1/user/${u.id}/`, perms: ['read'] }] }),
      200,
    );
    expectStatus(await u.client.get(scene(shared.id), as(UA.chrome)), 200);
    const page = expectStatus<ViewVisitorsOverview>(await u.client.get(VISITORS_OVERVIEW_PATH), 200);
    assert.deepEqual(
      page.objects.map((o) => o.name),
      ['Stadtpark', 'Brunnen', 'Alleen'],
      'the internal Archiv is not listed',
    );
    assert.deepEqual(page.meta, { offset: 0, limit: 50, total_count: 3 });
    assert.deepEqual(page.objects[0], {
      view: park.resource_uri,
      name: 'Stadtpark',
      slug: 'stadtpark',
      last_seven_days: { pageviews: 8, visitors: 3 },
      total: { pageviews: 8, visitors: 3 },
    });
    assert.deepEqual(page.objects[2].total, { pageviews: 0, visitors: 0 });
    assert.equal(page.objects[2].view, own.resource_uri);
    const second = expectStatus<ViewVisitorsOverview>(await u.client.get(`${VISITORS_OVERVIEW_PATH}?limit=1&offset=1`), 200);
    assert.deepEqual(
      second.objects.map((o) => o.name),
      ['Brunnen'],
    );
    assert.deepEqual(second.meta, { offset: 1, limit: 1, total_count: 3 });
    const all = expectStatus<ViewVisitorsOverview>(await admin.get(VISITORS_OVERVIEW_PATH), 200);
    assert.deepEqual(
      all.objects.map((o) => o.name),
      ['Archiv', 'Stadtpark', 'Brunnen', 'Alleen'],
      'a superuser reads every view',
    );
  });

  it('refuses a limit or offset that is not a whole number in its range, in the caller’s language', async () => {
    for (const q of ['limit=0', 'limit=501', 'limit=abc', 'offset=-1', 'limit=1.5'])
      assertError(await admin.get(`${VISITORS_OVERVIEW_PATH}?${q}`), 400, 'invalid_parameter');
    assertError(
      await admin.get(`${VISITORS_OVERVIEW_PATH}?limit=501`, { headers: { 'accept-language': 'de' } }),
      400,
      'invalid_parameter',
      /ganze Zahl von 1 bis 500/,
    );
    assertError(await admin.get(`${VISITORS_OVERVIEW_PATH}?limit=0`), 400, 'invalid_parameter', /whole number from 1 to 500/);
    assert.equal(expectStatus<ViewVisitorsOverview>(await admin.get(`${VISITORS_OVERVIEW_PATH}?limit=500`), 200).meta.limit, 500);
  });

  it('records nothing and answers 403 component_disabled while the analytics component is off', async () => {
    const count = async () =>
      (await stored(`SELECT pageviews FROM views_visit_day WHERE view_id = $1 AND day = $2`, [park.id, today]))[0].pageviews;
    const before = await count();
    await withAnalyticsOff(async () => {
      expectStatus(await t.client().get(scene('stadtpark'), as('Mozilla/5.0 Off/1.0')), 200);
      assertError(await admin.get(viewVisitorsPath(park.id)), 403, 'component_disabled');
      assertError(await admin.get(VISITORS_OVERVIEW_PATH), 403, 'component_disabled');
    });
    assert.equal(await count(), before);
    const config = expectStatus(await admin.get('/api/v2/backend/config'), 200);
    assert.equal(config.components.analytics, true);
  });

  it('names the statistics address in the configuration for signed-in users', async () => {
    const config = expectStatus(await admin.get('/api/v2/backend/config'), 200);
    const template = config.analytics_urls.visitors_for_view as string;
    assert.equal(template, '/api/v2/analytics/views/{id}/visitors');
    assert.equal(expectStatus(await admin.get(template.replace('{id}', String(park.id))), 200).total.pageviews, 8);
    assert.deepEqual(expectStatus(await t.client().get('/api/v2/backend/config'), 200).analytics_urls, {});
  });

  it('answers the scene even when counting fails, and logs the failure', async () => {
    await stored(`ALTER TABLE views_visit_day RENAME TO views_visit_day_away`);
    try {
      expectStatus(await t.client().get(scene('stadtpark'), as(UA.firefox)), 200);
    } finally {
      await stored(`ALTER TABLE views_visit_day_away RENAME TO views_visit_day`);
    }
    assert.ok(
      logs.some((l) => l.includes(`pageview of view ${park.id} not counted`)),
      logs.join('\n'),
    );
  });

  it('deletes a view’s statistics with the view', async () => {
    const gone = expectStatus(await admin.post('/api/v1/view/', { name: 'Kurzlebig', slug: 'kurzlebig', public: true }), 201);
    expectStatus(await t.client().get(scene('kurzlebig'), as(UA.chrome)), 200);
    assert.equal((await stats(admin, gone.id)).total.visitors, 1);
    expectStatus(await admin.delete(gone.resource_uri), 204);
    assert.deepEqual(await stored(`SELECT 1 FROM views_visit_day WHERE view_id = $1`, [gone.id]), []);
    assert.deepEqual(await stored(`SELECT 1 FROM views_visitor WHERE view_id = $1`, [gone.id]), []);
  });
});
