import assert from 'node:assert/strict';
import {
  bootWorkbench,
  browserPlugin,
  byTestId,
  RecordingApiClient,
  testConfig,
  text,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import layersBrowser from './layers-browser-module';
import { wireLayer } from './layers-test-kit';
import type { TileArchive } from '../common/layers-api';

const stored = wireLayer(9, { name: 'Bäume', type: 'pmtiles', tile_settings: { max_zoom: 10 } });
const archive: TileArchive = {
  url: '/api/v1/layer/9/tiles.pmtiles',
  size: 20_480,
  built: '2026-11-27T10:00:00.000Z',
  min_zoom: 0,
  max_zoom: 10,
  guessed_max_zoom: false,
  tiles: 42,
  features: 400,
  dropped: 12,
  coalesced: 0,
  bounds: [6.8, 50.8, 6.99, 50.99],
  moments: [{ depot: 3, moment: 5 }],
};

async function boot(build: () => unknown): Promise<BootedWorkbench> {
  const plugins = [await browserPlugin('types'), { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser }];
  return bootWorkbench(plugins, {
    path: '/layers/edit/9',
    config: testConfig({ plugins: ['types', 'layers'] }),
    api: new RecordingApiClient({
      'GET /api/v1/layer/9/': stored,
      'PATCH /api/v1/layer/9/': (c) => ({ ...stored, ...(c.body as object) }),
      'GET /api/v2/backend/layer-attributes': { objects: [] },
      'POST /api/v1/layer/9/build_tiles/': build,
    }),
  });
}

const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((x) => x.textContent === name);
const change = (el: HTMLSelectElement | HTMLInputElement, value?: string) => {
  if (value !== undefined) el.value = value;
  const Ev = (el.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
  el.dispatchEvent(new Ev('change', { bubbles: true }));
};

describe('layers: the Tiles tab of pmtiles layers (browser kernel in jsdom, decision 0062)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('edits the tile settings, saves only what differs from the defaults, and builds the archive', async () => {
    booted = await boot(() => ({ status: 'ok', tile_archive: archive }));
    await booted.waitFor(() => !!tab('Tiles'));
    tab('Tiles')!.click();
    await booted.waitFor(() => !!byTestId('layer-tiles'));
    assert.equal(document.querySelector<HTMLSelectElement>('#tiles-max_zoom')!.value, '10');
    assert.ok(text().includes('No tile archive has been built yet.'));
    change(document.querySelector<HTMLSelectElement>('#tiles-strategy')!, 'drop_densest_as_needed');
    change(document.querySelector<HTMLSelectElement>('#tiles-max_zoom')!, '14');
    await booted.waitFor(() => text().includes('Unsaved changes of the settings'));
    byTestId('layer-save')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'PATCH'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'PATCH')!.body, {
      tile_settings: { drop_densest_as_needed: true },
    });
    byTestId('tiles-build')!.click();
    await booted.waitFor(() => !!byTestId('tiles-result'));
    assert.match(byTestId('tiles-result')!.textContent!, /Tile archive built: 42 tiles, zoom 0 to 10, 20 KB\./);
    assert.match(byTestId('tiles-archive')!.textContent!, /400 features/);
    assert.ok(text().includes('12 left out'));
    assert.equal(byTestId<HTMLAnchorElement>('tiles-download')!.getAttribute('href'), archive.url);
  });

  it('shows why settings cannot be kept, and the server’s reason when a build fails, in German', async () => {
    booted = await boot(() => {
      throw new Error('Kachel 0/0/0 enthält 400 Features, mehr als die erlaubten 50.');
    });
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!tab('Kacheln'));
    tab('Kacheln')!.click();
    await booted.waitFor(() => !!byTestId('layer-tiles'));
    change(document.querySelector<HTMLSelectElement>('#tiles-min_zoom')!, '12');
    await booted.waitFor(() => !!byTestId('tiles-problem'));
    assert.match(byTestId('tiles-problem')!.textContent!, /minimale Zoomstufe der Kacheln/);
    byTestId('tiles-build')!.click();
    await booted.waitFor(() => !!byTestId('tiles-result'));
    assert.match(byTestId('tiles-result')!.textContent!, /Kachel 0\/0\/0 enthält 400 Features/);
  });
});
