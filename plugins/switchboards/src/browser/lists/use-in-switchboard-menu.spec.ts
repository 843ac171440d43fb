import { boot, byTestId, failure, text, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { createElement, useNavigate } from '@werkbank/sdk/react';
import { definePlugin, Disposable, KernelToken, RouteContribution, useService, useT, type Kernel } from '@werkbank/sdk/browser';
import { DatumCardMenuContribution, type DatumCardMenuEntry } from '@werkbank/plugin-magazine/api';
import { switchboard } from './lists-test-fixtures';
import { useRecordSwitchboardVisit } from './use-record-switchboard-visit';

/** What the Magazine hands its datum card menu entries (a datum shown at moment 12). */
const target = {
  datum: { id: 5, index: 5, resource_uri: '/api/v1/datum/5@12/', content_type: '/api/v1/type/string/', value: 'Elbe' },
  depot: { id: 1, resource_uri: '/api/v1/depot/1/', name: 'Flüsse', content_type: '/api/v1/type/string/' },
  readOnly: true,
};

/** Stands in for the Magazine's datum card: renders the entries contributed to its menu as buttons. */
function DatumCardProbe() {
  const kernel = useService<Kernel>(KernelToken);
  const t = useT('magazine');
  const items: DatumCardMenuEntry[] = [];
  for (const c of kernel.contributions<DatumCardMenuContribution>(DatumCardMenuContribution).getContributions())
    c.registerDatumCardMenu({ add: (e) => (items.push(e), Disposable.NULL) });
  return createElement(
    'div',
    null,
    items.map((item) =>
      createElement('button', { key: item.id, 'data-testid': `menu-${item.id}`, onClick: () => item.run(target) }, t(item.label)),
    ),
  );
}

/** Stands in for the canvas screen: records a visit as the canvas does once its switchboard is loaded. */
function CanvasProbe() {
  useRecordSwitchboardVisit({ id: 9, name: 'Neu' });
  const navigate = useNavigate();
  return createElement('button', { 'data-testid': 'to-list', onClick: () => navigate('/switchboards/') }, 'list');
}

const probe = {
  id: 'probe',
  module: definePlugin((ctx) => {
    const routes: RouteContribution = {
      registerRoutes: (r) => {
        r.add({ id: 'probe.datum', path: '/probe/datum/', component: DatumCardProbe });
        r.add({ id: 'probe.canvas', path: '/probe/canvas/', component: CanvasProbe });
      },
    };
    ctx.contribute(RouteContribution, routes);
  }),
};

const canvas = { switchboard: switchboard(7, 'Elbe'), nodes: [], frames: [], links: [], notes: [] };

describe('switchboards: “Use in switchboard” and recording visits (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
    localStorage.clear();
  });

  it('creates a switchboard from the datum at its moment and opens its canvas; Back returns to the depot', async () => {
    booted = await boot(
      '/probe/datum/',
      {
        'POST /api/v2/switchboard/create/datum/': { resource_uri: '/api/v1/switchboard/7/', switchboard_id: 7, name: 'Elbe' },
        'GET /api/v1/switchboard/7/reload/': canvas,
      },
      [probe],
    );
    await booted.waitFor(() => !!byTestId('menu-switchboards.use-in-switchboard'));
    assert.equal(byTestId('menu-switchboards.use-in-switchboard')!.textContent, 'Use in switchboard');
    byTestId('menu-switchboards.use-in-switchboard')!.click();
    await booted.waitFor(() => location.pathname === '/switchboard/7');
    const call = booted.api.calls.find((c) => c.path === '/api/v2/switchboard/create/datum/')!;
    assert.deepEqual(call.query, { datum: '/api/v1/datum/5@12/' });
    assert.equal(booted.api.calls.filter((c) => c.path === '/api/v2/switchboard/create/datum/').length, 1, 'created once');

    history.back();
    await booted.waitFor(() => location.pathname === '/probe/datum/');
  });

  it('shows why no switchboard could be created, with a way back', async () => {
    booted = await boot(
      '/probe/datum/',
      { 'POST /api/v2/switchboard/create/datum/': failure(404, 'The given object was not found.') },
      [probe],
    );
    await booted.waitFor(() => !!byTestId('menu-switchboards.use-in-switchboard'));
    byTestId('menu-switchboards.use-in-switchboard')!.click();
    await booted.waitFor(
      () => text().includes('The switchboard could not be created') && text().includes('The given object was not found.'),
    );
    assert.equal(location.pathname, '/switchboards/from-datum');
  });

  it('records a visit of the canvas as the most recently used switchboard (useRecordSwitchboardVisit)', async () => {
    localStorage.setItem(
      'werkbank.navigation',
      JSON.stringify({
        switchboard_mru: {
          '/api/v1/user/1/': [
            { id: 4, name: 'Alt 4' },
            { id: 3, name: 'Alt 3' },
          ],
        },
      }),
    );
    booted = await boot(
      '/probe/canvas/',
      { 'GET /api/v1/switchboardfolder/': { objects: [], meta: {} }, 'GET /api/v1/switchboard/': { objects: [], meta: {} } },
      [probe],
    );
    await booted.waitFor(() => !!byTestId('to-list'));
    byTestId('to-list')!.click();
    await booted.waitFor(() => !!byTestId('recent-switchboards'));
    const shown = [...byTestId('recent-switchboards')!.querySelectorAll('button')].map((b) => b.textContent);
    assert.deepEqual(shown, ['Neu', 'Alt 4']);
  });
});
