import { bootPlugins, byTestId, type BootedWorkbench } from '@werkbank/testing/browser';
import assert from 'node:assert/strict';
import { definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import adminBrowser from '../admin-browser-module';
import { UserApiStatsTab } from './user-api-stats-tab';
import type { ApiCallStatistic } from '../../common/api-stats-format';

const USER = '/api/v1/user/5/';
const CALLS = 'GET /api/v2/analytics/api-calls';

function Probe() {
  return <UserApiStatsTab user={USER} />;
}
const probeRoutes: RC = { registerRoutes: (r) => r.add({ id: 'probe.api-stats', path: '/probe/', component: Probe }) };
const probePlugin = definePlugin((ctx) => ctx.contribute(RouteContribution, probeRoutes));

const row = (status: number, p50: number, p95: number, fields: Partial<ApiCallStatistic> = {}): ApiCallStatistic => ({
  month: '2026-11',
  path: '/api/v1/layer/{id}/',
  status_code: status,
  count: 1234,
  p50_duration_ms: p50,
  p95_duration_ms: p95,
  ...fields,
});

const boot = (answer: unknown, components = { api_stats: true }) =>
  bootPlugins(
    [{ manifest: { id: 'admin' }, module: adminBrowser }],
    '/probe/',
    { [CALLS]: answer },
    [{ id: 'probe', module: probePlugin }],
    components,
  );

describe('admin: the API Statistics tab (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it("shows the user's calls with status badges and durations in ms or seconds", async () => {
    const rows = [
      row(200, 12.34, 980),
      row(304, 3, 4.5),
      row(404, 1500, 2345.6, { path: '/api/v1/group/{id}/' }),
      row(500, 0.4, 1000),
    ];
    booted = await boot({ objects: rows, meta: { offset: 0, limit: 4, total_count: 4 } });
    await booted.waitFor(() => document.querySelectorAll('[data-testid="api-stats-row"]').length === 4);
    assert.deepEqual(booted.api.calls.find((c) => `${c.method} ${c.path}` === CALLS)?.query, { user: USER });
    const cells = [...document.querySelectorAll('[data-testid="api-stats-row"]')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    assert.deepEqual(cells, [
      ['November 2026', '/api/v1/layer/{id}/', '200', '1,234', '12.3 ms', '980 ms'],
      ['November 2026', '/api/v1/layer/{id}/', '304', '1,234', '3 ms', '4.5 ms'],
      ['November 2026', '/api/v1/group/{id}/', '404', '1,234', '1.50 s', '2.35 s'],
      ['November 2026', '/api/v1/layer/{id}/', '500', '1,234', '0.4 ms', '1.00 s'],
    ]);
    const intents = [...document.querySelectorAll('[data-testid="api-stats-status"]')].map(
      (tag) => /bp6-intent-(\w+)/.exec(tag.className)?.[1],
    );
    assert.deepEqual(intents, ['success', 'warning', 'danger', 'danger']);
    assert.equal(document.querySelectorAll('[data-testid="api-stats-table"] th[scope="col"]').length, 6);
  });

  it('says when the user has no statistics', async () => {
    booted = await boot({ objects: [], meta: { offset: 0, limit: 0, total_count: 0 } });
    await booted.waitFor(
      () => !!byTestId('user-api-stats')?.textContent?.includes('No API call statistics available for this user.'),
    );
    assert.equal(byTestId('api-stats-table'), null);
  });

  it("shows an error alert titled 'Error' when loading fails, and loads again on Refresh", async () => {
    let fail = true;
    booted = await boot(() => {
      if (fail) throw new Error('The server is not reachable.');
      return { objects: [row(201, 5, 6)], meta: { offset: 0, limit: 1, total_count: 1 } };
    });
    await booted.waitFor(() => !!byTestId('api-stats-error'));
    const alert = byTestId('api-stats-error')!;
    assert.equal(alert.getAttribute('role'), 'alert');
    assert.equal(alert.querySelector('h5, .bp6-heading')?.textContent, 'Error');
    assert.ok(alert.textContent!.includes('Failed to load API statistics: The server is not reachable.'), alert.textContent!);
    fail = false;
    (byTestId('api-stats-refresh') as HTMLButtonElement).click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="api-stats-row"]').length === 1);
    assert.equal(byTestId('api-stats-error'), null);
  });

  it('shows the add-on notice while api_stats is not licensed, and loads nothing', async () => {
    booted = await boot({ objects: [] }, { api_stats: false });
    await booted.waitFor(() => !!byTestId('addon-notice-api_stats'));
    assert.equal(booted.api.calls.filter((c) => `${c.method} ${c.path}` === CALLS).length, 0);
  });
});
