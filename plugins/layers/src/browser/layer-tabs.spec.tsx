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

const stored = wireLayer(7, {
  name: 'Bäume',
  selection_fields: [{ key: 'name', displayName: 'Name', type: 'title', visible: true }],
});

const attributes = {
  objects: [
    { name: 'name', type: 'string' },
    { name: 'tree_id', type: 'integer' },
    { name: 'art', type: 'string' },
  ],
};

async function boot(components: Record<string, boolean>): Promise<BootedWorkbench> {
  const plugins = [await browserPlugin('types'), { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser }];
  const config = testConfig({ plugins: ['types', 'layers'], components });
  return bootWorkbench(plugins, {
    path: '/layers/edit/7',
    config,
    api: new RecordingApiClient({
      'GET /api/v1/layer/7/': stored,
      'PATCH /api/v1/layer/7/': (c) => ({ ...stored, ...(c.body as object) }),
      'GET /api/v2/backend/layer-attributes': attributes,
      'GET /api/v2/backend/layer-attribute-values': { objects: ['Eiche', 'Buche', null] },
      'GET /api/v1/metadatagroup/': {
        meta: { offset: 0, limit: 500, total_count: 1 },
        objects: [{ id: 1, resource_uri: '/api/v1/metadatagroup/1/', name: 'Allgemein', position: 0 }],
      },
      'GET /api/v1/metadataattributetype/': {
        meta: { offset: 0, limit: 500, total_count: 2 },
        objects: [
          {
            id: 1,
            resource_uri: '/api/v1/metadataattributetype/1/',
            display_name: 'Lizenz',
            description: '',
            group: '/api/v1/metadatagroup/1/',
            display: true,
            datatype: 'select',
            options: ['CC-BY 4.0', 'DL-DE/Zero 2.0'],
            iso: '',
            position: 0,
          },
          {
            id: 2,
            resource_uri: '/api/v1/metadataattributetype/2/',
            display_name: 'Quelle',
            description: 'Wer die Daten erhebt',
            group: null,
            display: true,
            datatype: 'text',
            options: [],
            iso: 'organisation',
            position: 1,
          },
        ],
      },
      'GET /api/v1/event/': {
        meta: { offset: 0, limit: 50, total_count: 1 },
        objects: [{ id: 3, key: 'update', user_name: 'Ada', content_repr: 'Bäume', created: '2026-11-27T08:00:00Z' }],
      },
    }),
  });
}

const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((x) => x.textContent === name)!;
const patchBody = (b: BootedWorkbench) => b.api.calls.find((c) => c.method === 'PATCH')?.body as Record<string, unknown>;

describe('layers: selection window, filter and events tabs (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('adds all attributes title-cased, reorders by keyboard, and saves the selection window', async () => {
    booted = await boot({ tags: true, events: true, filter_editor: true });
    await booted.waitFor(() => !!tab('Selection window'));
    tab('Selection window').click();
    await booted.waitFor(() => !!byTestId('layer-selection'));
    typeInto(document.querySelector<HTMLInputElement>('#layer-selection-title')!, 'Baum');
    await booted.waitFor(() => !byTestId<HTMLButtonElement>('selection-add-all')!.disabled);
    byTestId('selection-add')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="selection-field"]').length === 2);
    byTestId('selection-add-all')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="selection-field"]').length === 3);
    const names = () =>
      [...document.querySelectorAll<HTMLInputElement>('[data-testid="selection-field-name"]')].map((i) => i.value);
    assert.deepEqual(names(), ['Name', 'Tree ID', 'Art']);
    // Keyboard reorder: Alt+ArrowUp on the third row's handle moves it up.
    const handle = document.querySelector<HTMLElement>('#selection-field-handle-2')!;
    const KeyboardEvent = (handle.ownerDocument.defaultView as unknown as { KeyboardEvent: typeof globalThis.KeyboardEvent })
      .KeyboardEvent;
    handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', altKey: true, bubbles: true }));
    await booted.waitFor(() => names()[1] === 'Art');
    const select = document.querySelectorAll<HTMLSelectElement>('[data-testid="selection-field-type"]')[1];
    assert.equal(select.options.length, 15);
    byTestId('layer-save')!.click();
    await booted.waitFor(() => !!patchBody(booted!));
    assert.deepEqual(patchBody(booted), {
      selection_title: 'Baum',
      selection_fields: [
        { key: 'name', displayName: 'Name', type: 'title', visible: true },
        { key: 'art', displayName: 'Art', type: 'text', visible: true },
        { key: 'tree_id', displayName: 'Tree ID', type: 'text', visible: true },
      ],
    });
  });

  it('adds a filter on the first attribute, suggests values, resets arguments on a type change', async () => {
    booted = await boot({ tags: true, events: true, filter_editor: true });
    await booted.waitFor(() => !!tab('Filter'));
    tab('Filter').click();
    await booted.waitFor(() => !!byTestId('filter-add'));
    await booted.waitFor(() => booted!.api.calls.some((c) => c.path.startsWith('/api/v2/backend/layer-attributes')));
    byTestId('filter-add')!.click();
    await booted.waitFor(() => !!byTestId('attribute-filter'));
    assert.equal(document.querySelector<HTMLSelectElement>('#layer-filter-0-attribute')!.value, 'name');
    assert.equal(document.querySelector<HTMLSelectElement>('#layer-filter-0-type')!.value, 'allowed-values');
    assert.ok(text().includes('No values assigned'));
    byTestId('filter-suggest')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="filter-suggestion"]').length === 2);
    const call = booted.api.calls.find((c) => c.path.startsWith('/api/v2/backend/layer-attribute-values'))!;
    assert.deepEqual(call.query, { layer: 7, attribute: 'name', unique: 'true' });
    document.querySelector<HTMLElement>('[data-testid="filter-suggestion"]')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="filter-value"]').length === 1);
    assert.ok(!text().includes('No values assigned'));
    byTestId('layer-save')!.click();
    await booted.waitFor(() => !!patchBody(booted!));
    assert.deepEqual(patchBody(booted).attribute_filters, [
      {
        attribute_key: 'name',
        display_name: 'Name',
        visible: true,
        filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: ['Eiche'] } },
      },
    ]);
    const type = document.querySelector<HTMLSelectElement>('#layer-filter-0-type')!;
    type.value = 'min-max-value';
    const Ev = (type.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
    type.dispatchEvent(new Ev('change', { bubbles: true }));
    await booted.waitFor(() => !!document.querySelector('#layer-filter-0-min'));
    assert.equal(document.querySelector<HTMLInputElement>('#layer-filter-0-min')!.value, '');
  });

  it('shows the layer events, and the licence notice for gated tabs, in German', async () => {
    booted = await boot({ tags: true, events: true });
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!tab('Ereignisse'));
    tab('Ereignisse').click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="layer-event"]').length === 1);
    assert.ok(text().includes('Geändert') && text().includes('Ada'));
    assert.deepEqual(booted.api.calls.find((c) => c.path === '/api/v1/event/')!.query, { layer_id: 7, limit: 50 });
    tab('Filter').click();
    await booted.waitFor(() => !!byTestId('addon-notice-filter_editor'));
    assert.ok(text().includes('Weitere Informationen anfordern'));
  });

  it('edits metadata by attribute type, drops emptied values, and links the ISO export', async () => {
    booted = await boot({ tags: true, events: true, metadata: true });
    await booted.waitFor(() => !!tab('Metadata'));
    tab('Metadata').click();
    await booted.waitFor(() => !!document.querySelector('#layer-metadata-1'));
    assert.equal(byTestId<HTMLAnchorElement>('layer-metadata-export')!.getAttribute('href'), '/api/v1/layer/7/download.xml');
    assert.ok(text().includes('Allgemein') && text().includes('Wer die Daten erhebt'));
    const select = document.querySelector<HTMLSelectElement>('#layer-metadata-1')!;
    select.value = 'CC-BY 4.0';
    const Ev = (select.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
    select.dispatchEvent(new Ev('change', { bubbles: true }));
    typeInto(document.querySelector<HTMLInputElement>('#layer-metadata-2')!, 'Amt');
    await booted.waitFor(() => document.querySelector<HTMLInputElement>('#layer-metadata-2')!.value === 'Amt');
    typeInto(document.querySelector<HTMLInputElement>('#layer-metadata-2')!, '');
    byTestId('layer-save')!.click();
    await booted.waitFor(() => !!patchBody(booted!));
    assert.deepEqual(patchBody(booted), {
      metadata: { values: [{ attributetype: '/api/v1/metadataattributetype/1/', value: 'CC-BY 4.0' }] },
    });
  });

  it('shows tags in Settings only when the tags component is on', async () => {
    booted = await boot({ tags: false, events: true });
    await booted.waitFor(() => !!document.querySelector('#layer-name'));
    assert.ok(!text().includes('Tags'));
    await booted.unmount();
    booted = await boot({ tags: true, events: true });
    await booted.waitFor(() => !!document.querySelector('#layer-name'));
    assert.ok(text().includes('No tags assigned'));
  });
});
