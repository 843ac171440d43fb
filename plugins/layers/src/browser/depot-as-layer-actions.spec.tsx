import assert from 'node:assert/strict';
import {
  bootPlugins,
  browserPlugin,
  byTestId,
  cancelHreflessLinkClicks,
  clickText,
  failure,
  page,
  text,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import layersBrowser from './layers-browser-module';
import { wireLayer } from './layers-test-kit';

cancelHreflessLinkClicks();

const moment = (id: number, status: string) => ({
  id,
  resource_uri: `/api/v1/moment/${id}/`,
  depot: '/api/v1/depot/1/',
  created: '2026-11-27T10:00:00Z',
  user: '/api/v1/user/1/',
  user_name: 'Admin',
  status,
  origin: '',
  temporary: false,
  message: '',
  size: 1,
  persistent_size: 10,
  node_run: null,
  extent: null,
});
const head = moment(12, 'open');

const depot = (type: string, access: string[] = ['read', 'write']) => ({
  id: 1,
  resource_uri: '/api/v1/depot/1/',
  name: 'Bäume',
  description: '',
  content_type: `/api/v1/type/${type}/`,
  folder: null,
  metadata: null,
  style_depot: null,
  owner: '/api/v1/user/1/',
  permissions: [],
  favored: false,
  size: 1,
  access,
  current_moment: head,
});

function routes(type: string, extra: Record<string, unknown> = {}, access?: string[]): Record<string, unknown> {
  return {
    'GET /api/v1/depot/1/': depot(type, access),
    'GET /api/v1/moment/': page([head, moment(10, 'approved')]),
    'GET /api/v1/depotfoldertree/': { objects: [] },
    'GET /api/v1/datum/by-depot/1/': page([]),
    'GET /api/v1/layer/7/': wireLayer(7, { name: 'Bäume' }),
    ...extra,
  };
}

async function boot(type: string, extra: Record<string, unknown> = {}, access?: string[]): Promise<BootedWorkbench> {
  const plugins = [
    await browserPlugin('types'),
    await browserPlugin('magazine'),
    { manifest: { id: 'layers', requires: ['types', 'magazine'] }, module: layersBrowser },
  ];
  return bootPlugins(plugins, '/depot/1/', routes(type, extra, access), [], { magazine: true });
}

/** "Show as layer" and "Edit as layer" on the Magazine's depot screen (decision 0064), in jsdom. */
describe('layers: show and edit a depot as a layer from the depot screen', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('shows the depot as a layer and opens the address the server gives', async () => {
    booted = await boot('wms', {
      'GET /api/v1/depot/1/show_as_layer/': { status: 'ok', url: '/layers/edit/7', layer_id: 7, created: true },
    });
    await booted.waitFor(() => !!byTestId('depot-action-layers.show-as-layer'));
    assert.ok(byTestId('depot-action-layers.edit-as-layer'));
    byTestId('depot-action-layers.show-as-layer')!.click();
    await booted.waitFor(() => window.location.pathname === '/layers/edit/7');
    assert.ok(booted.api.calls.some((c) => c.method === 'GET' && c.path === '/api/v1/depot/1/show_as_layer/'));
  });

  it('shows the server’s reason when it says no', async () => {
    booted = await boot('wms', {
      'GET /api/v1/depot/1/edit_as_layer/': failure(400, 'No layer type shows depots of the type “wms”.'),
    });
    await booted.waitFor(() => !!byTestId('depot-action-layers.edit-as-layer'));
    byTestId('depot-action-layers.edit-as-layer')!.click();
    await booted.waitFor(() => document.body.textContent!.includes('No layer type shows depots'));
    assert.equal(window.location.pathname, '/depot/1/');
  });

  it('offers a moment as a layer in the moment menu, to readers too, in German', async () => {
    booted = await boot(
      'wms',
      { 'GET /api/v1/moment/10/show_as_layer/': { status: 'ok', url: '/layers/edit/7', layer_id: 7, created: false } },
      ['read'],
    );
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!byTestId('moment-menu-10'));
    assert.ok(!byTestId('moment-approve'), 'a reader gets no moment changes');
    byTestId('moment-menu-10')!.click();
    await booted.waitFor(() => text().includes('Als Layer anzeigen'));
    clickText('Als Layer anzeigen', 'a');
    await booted.waitFor(() => window.location.pathname === '/layers/edit/7');
  });

  it('offers nothing for depots no layer type shows', async () => {
    booted = await boot('string');
    await booted.waitFor(() => !!byTestId('depot-header') && !!byTestId('moment-menu-12'));
    assert.ok(!byTestId('depot-action-layers.show-as-layer'));
    byTestId('moment-menu-12')!.click();
    await booted.waitFor(() => text().includes('Approve') || text().includes('Freigeben'));
    assert.ok(!text().includes('Show as layer'));
  });
});
