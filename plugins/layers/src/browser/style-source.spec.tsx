import assert from 'node:assert/strict';
import {
  bootWorkbench,
  browserPlugin,
  byTestId,
  RecordingApiClient,
  testConfig,
  text,
  typeInto,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import layersBrowser from './layers-browser-module';
import { wireLayer } from './layers-test-kit';
import type { LayerStyle } from '../common/style-model';

const OWN: LayerStyle = { rules: [{ name: 'Eigen', symbol: { symbol_type: 'style', fill: '#0000ff' } }] };
const LINKED: LayerStyle = { rules: [{ name: 'Eichen', symbol: { symbol_type: 'style', fill: '#00ff00' } }] };
const stored = wireLayer(7, { revision: 3, name: 'Schulen', style: OWN });
const depot = {
  id: 5,
  resource_uri: '/api/v1/depot/5/',
  name: 'Stile',
  description: '',
  content_type: '/api/v1/type/style/',
  folder: null,
  style_depot: null,
  size: 1,
  access: ['read', 'write'],
  permissions: [],
};
const datum = {
  id: 11,
  index: 11,
  resource_uri: '/api/v1/datum/11@20/',
  moment_id: 20,
  version: '31',
  depot: '/api/v1/depot/5/',
  content_type: '/api/v1/type/style/',
  text_repr: 'Bäume',
  value: { name: 'Bäume', ...LINKED },
};

async function boot(): Promise<BootedWorkbench> {
  const plugins = [await browserPlugin('types'), { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser }];
  return bootWorkbench(plugins, {
    path: '/layers/edit/7',
    config: testConfig({ plugins: ['types', 'layers'] }),
    api: new RecordingApiClient({
      'GET /api/v1/layer/7/': stored,
      'GET /api/v2/backend/layer-attributes': { objects: [{ name: 'art', type: 'string' }] },
      'GET /api/v1/depot/by-type/style/': { objects: [depot], meta: { offset: 0, limit: 1000, total_count: 1 } },
      'GET /api/v1/datum/by-depot/5/': { objects: [datum], meta: { offset: 0, limit: 1000, total_count: 1, next_after: null } },
      'GET /api/v1/datum/11/': datum,
      'GET /api/v1/depot/5/': depot,
      'GET /api/v1/datum/12/': {
        ...datum,
        id: 12,
        index: 12,
        resource_uri: '/api/v1/datum/12@21/',
        value: { name: 'Schulen blau', ...OWN },
      },
      'POST /api/v1/layer/7/save_style/': (c) => {
        const body = c.body as { link?: boolean };
        return body.link
          ? {
              datum: '/api/v1/datum/12/',
              depot: depot.resource_uri,
              moment_id: 21,
              layer: { ...stored, style_datum: '/api/v1/datum/12/', revision: 4 },
            }
          : { datum: '/api/v1/datum/11/', depot: depot.resource_uri, moment_id: 21 };
      },
      'PATCH /api/v1/layer/7/': (c) => ({ ...stored, ...(c.body as object), revision: 4 }),
    }),
  });
}

const tab = (label: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === label)!;
const select = (id: string, value: string) => {
  const el = document.querySelector<HTMLSelectElement>(`#${id}`)!;
  const Ev = (el.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
  el.value = value;
  el.dispatchEvent(new Ev('change', { bubbles: true }));
};
const ruleNames = () => [...document.querySelectorAll('[data-testid="style-rule"]')].map((li) => li.textContent);

describe('layers: the style source of the Presentation tab (style depots, jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('links a style datum of a style depot, edits it and saves it into the depot before linking it', async () => {
    booted = await boot();
    await booted.waitFor(() => !!document.querySelector('[role="tab"]'));
    tab('Presentation').click();
    await booted.waitFor(() => !!byTestId('style-source'));
    assert.deepEqual(ruleNames(), ['Eigen']);
    const radio = byTestId<HTMLElement>('style-source-datum')!;
    (radio.tagName === 'INPUT' ? radio : radio.querySelector('input')!).click();
    await booted.waitFor(() => !!document.querySelector('#style-source-depot'));
    select('style-source-depot', '/api/v1/depot/5/');
    await booted.waitFor(() => !!document.querySelector('#style-source-datum-select option[value="/api/v1/datum/11/"]'));
    select('style-source-datum-select', '/api/v1/datum/11/');
    // The linked style replaces the own one in the editor, with a note on where edits go.
    await booted.waitFor(() => ruleNames().join() === 'Eichen');
    await booted.waitFor(() => text().includes('as a new version of “Bäume” in the style depot “Stile”'));
    typeInto(document.querySelector<HTMLInputElement>('#style-rule-name')!, 'Alte Eichen');

    byTestId('layer-save')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'PATCH'));
    const writes = booted.api.calls.filter((c) => c.method !== 'GET');
    assert.deepEqual(
      writes.map((c) => [c.method, c.path]),
      [
        ['POST', '/api/v1/layer/7/save_style/'],
        ['PATCH', '/api/v1/layer/7/'],
      ],
    );
    assert.deepEqual(writes[0].body, {
      datum: '/api/v1/datum/11/',
      version: '31',
      style: { rules: [{ ...LINKED.rules[0], name: 'Alte Eichen' }] },
    });
    assert.deepEqual(writes[1].body, { style_datum: '/api/v1/datum/11/' }, 'the own style is untouched');
  });

  it('saves the own style as a new style datum and links it, in German', async () => {
    booted = await boot();
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!document.querySelector('[role="tab"]'));
    tab('Darstellung').click();
    await booted.waitFor(() => !!byTestId('style-save-as'));
    assert.ok(text().includes('Herkunft des Stils') && text().includes('Eigener Stil dieses Layers'));
    byTestId('style-save-as')!.click();
    await booted.waitFor(() => !!document.querySelector('#style-save-as-name'));
    assert.equal(document.querySelector<HTMLInputElement>('#style-save-as-name')!.value, 'Schulen');
    typeInto(document.querySelector<HTMLInputElement>('#style-save-as-name')!, 'Schulen blau');
    byTestId('style-save-as-submit')!.click();
    await booted.waitFor(() => text().includes('Der Stil wurde als „Schulen blau“ im Stil-Depot gespeichert.'));
    const post = booted.api.calls.find((c) => c.method === 'POST')!;
    assert.deepEqual(post.body, { depot: '/api/v1/depot/5/', name: 'Schulen blau', style: OWN, link: true });
  });
});
