import assert from 'node:assert/strict';
import {
  bootWorkbench,
  browserPlugin,
  byTestId,
  page,
  RecordingApiClient,
  testConfig,
  text,
  typeInto,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import layersBrowser from './layers-browser-module';
import { wireLayer } from './layers-test-kit';

const layer = wireLayer;

const pile = (id: number, depot: number, name: string) => ({
  id,
  resource_uri: `/api/v1/pile/${id}/`,
  layer: '/api/v1/layer/7/',
  depot: `/api/v1/depot/${depot}/`,
  depot_id: depot,
  active: depot === 1,
  name,
  content_type: '/api/v1/type/feature/',
  size: 3,
  switchboard: null,
  switchboard_name: null,
  position: 0,
});

async function boot(path: string, routes: ConstructorParameters<typeof RecordingApiClient>[0]): Promise<BootedWorkbench> {
  const plugins = [await browserPlugin('types'), { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser }];
  const config = testConfig({ plugins: ['types', 'layers'] });
  config.service_urls = { wms: '/services/wms/{name}?SERVICE=WMS', wfs: '/services/wfs/{name}' };
  return bootWorkbench(plugins, { path, api: new RecordingApiClient(routes), config });
}

describe('layers: list and editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('lists layers and makes the Layers menu entry live', async () => {
    booted = await boot('/layers/', {
      'GET /api/v1/layer/': page([layer(1, { name: 'Bäume' }), layer(2, { name: 'Flüsse', public: true })]),
    });
    await booted.waitFor(() => text().includes('Bäume') && text().includes('Flüsse'));
    assert.ok(text().includes('PUBLIC') && text().includes('INTERNAL ONLY'));
    const menu = byTestId('menu-core.layers');
    assert.ok(menu, 'the Layers entry is there');
    assert.ok(!menu.className.includes('disabled') && menu.getAttribute('aria-disabled') !== 'true', 'and enabled');
  });

  it('edits settings, reorders piles and shows service addresses with the short name or the id', async () => {
    const filled = { ...pile(2, 2, 'zwei'), switchboard: '/api/v1/switchboard/5/', switchboard_name: 'Bäume laden' };
    const stored = layer(7, { name: 'Bäume', layerpiles: [pile(1, 1, 'eins'), filled] });
    booted = await boot('/layers/edit/7', {
      'GET /api/v1/layer/7/': stored,
      'PATCH /api/v1/layer/7/': (c) => ({
        ...stored,
        ...(c.body as object),
        layerpiles: stored.layerpiles,
      }),
    });
    await booted.waitFor(() => !!document.querySelector('#layer-name'));
    typeInto(document.querySelector<HTMLInputElement>('#layer-name')!, 'Stadtbäume');
    typeInto(document.querySelector<HTMLInputElement>('#layer-slug')!, 'mit leer');
    await booted.waitFor(() => text().includes('The short name may contain only letters'));
    typeInto(document.querySelector<HTMLInputElement>('#layer-slug')!, 'trees');

    [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((tab) => tab.textContent === 'Data')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="layer-pile"]').length === 2);
    // The switchboard that fills a pile's depot links to its canvas (decision 0064).
    const links = document.querySelectorAll<HTMLAnchorElement>('[data-testid="pile-switchboard"]');
    assert.deepEqual(
      [...links].map((a) => [a.textContent, a.getAttribute('href')]),
      [['Bäume laden', '/switchboard/5']],
    );
    const rows = document.querySelectorAll<HTMLElement>('[data-testid="layer-pile"]');
    const DomEvent = (rows[0].ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
    rows[1].dispatchEvent(new DomEvent('dragstart', { bubbles: true }));
    rows[0].dispatchEvent(new DomEvent('drop', { bubbles: true }));
    await booted.waitFor(() => document.querySelector('[data-testid="layer-pile"]')!.textContent!.includes('zwei'));

    byTestId('layer-save')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'PATCH'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, {
      name: 'Stadtbäume',
      slug: 'trees',
      layerpiles: [
        { id: 2, depot: '/api/v1/depot/2/', name: 'zwei' },
        { id: 1, depot: '/api/v1/depot/1/', name: 'eins' },
      ],
    });

    [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((tab) => tab.textContent === 'Services')!.click();
    await booted.waitFor(() => !!byTestId('layer-service-wms'));
    assert.match(byTestId<HTMLInputElement>('layer-service-wms')!.value, /\/services\/wms\/trees\?SERVICE=WMS$/);
  });

  it('shows a reader the editor read-only, in German', async () => {
    booted = await boot('/layers/edit/7', { 'GET /api/v1/layer/7/': layer(7, { access: ['read'] }) });
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!byTestId('layer-read-only'));
    assert.ok(text().includes('Sie dürfen diesen Layer lesen, aber nicht ändern.'));
    assert.equal(document.querySelector<HTMLInputElement>('#layer-name')!.disabled, true);
    assert.ok(!byTestId('layer-save'));
  });
});
