import { boot, byTestId, page, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import { dblclick, fn, magazineStandIn, port, press, probe, reconfigure } from './dialogs-test-kit';
import assert from 'node:assert/strict';
import { InsertDialog, type InsertMode } from './insert-dialog';
import type { InsertResult } from './insert-result';

const results: InsertResult[] = [];
let closed = 0;
let mode: InsertMode = 'data';

function Probe() {
  return <InsertDialog mode={mode} onInsert={(r) => results.push(r)} onClose={() => closed++} />;
}

const depot = (id: number, name: string) => ({
  id,
  name,
  resource_uri: `/api/v1/depot/${id}/`,
  content_type: '/api/v1/type/geojson/',
});
const types = { objects: ['depot', 'geojson', 'string'].map((name) => ({ name })), meta: {} };
const tabTitles = () => [...document.body.querySelectorAll('[role="tab"]')].map((t) => t.textContent);
const selectedTab = () => document.body.querySelector('[role="tab"][aria-selected="true"]')?.textContent;
const openTab = (title: string) =>
  [...document.body.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === title)!.click();

async function open(m: InsertMode, routes: Record<string, unknown> = {}, magazine = true): Promise<BootedWorkbench> {
  mode = m;
  const booted = await boot(
    '/probe/',
    { 'GET /api/v1/type/': types, 'GET /api/v1/function/': page([fn('string.upper')]), ...routes },
    magazine ? [probe(Probe), magazineStandIn] : [probe(Probe)],
    { node_runs: true, magazine: true },
  );
  await booted.waitFor(() => !!byTestId('insert-dialog'));
  return booted;
}

describe('switchboards: insert dialog (jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  beforeEach(() => ((results.length = 0), (closed = 0)));
  afterEach(async () => booted?.unmount());

  it('opens on the tab of its mode; the fourth tab is note in note mode, function otherwise', async () => {
    booted = await open('data');
    assert.deepEqual(tabTitles(), ['Data', 'Upload', 'URL', 'Empty', 'Function']);
    assert.equal(selectedTab(), 'Data');
    await booted.unmount();
    booted = await open('function');
    assert.equal(selectedTab(), 'Function');
    await booted.waitFor(() => !!byTestId('function-browser'));
    await booted.unmount();
    booted = await open('note');
    assert.deepEqual(tabTitles(), ['Data', 'Upload', 'URL', 'Empty', 'Note']);
    assert.equal(selectedTab(), 'Note');
  });

  it('data: inserts a depot frame whose datum is the depot address, found by search', async () => {
    booted = await open('data', { 'GET /api/v1/depot/': page([depot(8, 'Pegel'), depot(9, 'Wetter')]) });
    await booted.waitFor(() => document.body.querySelectorAll('[data-testid="depot-option"]').length === 2);
    typeInto(byTestId<HTMLInputElement>('depot-search')!, 'Weg');
    await booted.waitFor(() => booted!.api.calls.some((c) => c.path === '/api/v1/depot/' && c.query?.q === 'Weg'));
    const wetter = () => document.body.querySelectorAll<HTMLElement>('[data-testid="depot-option"]')[1];
    wetter().click();
    await booted.waitFor(() => wetter().getAttribute('aria-selected') === 'true');
    byTestId('depot-insert')!.click();
    assert.deepEqual(results, [{ kind: 'frame', contentType: 'depot', name: 'Wetter', items: [{ value: '/api/v1/depot/9/' }] }]);
    assert.equal(closed, 1, 'the dialog closes after an insert');
    press(byTestId('depot-search')!, 'Enter');
    assert.equal((results[1] as { name: string }).name, 'Wetter', 'Enter inserts the selected depot');
  });

  it('data: Enter while the list still shows an earlier search inserts the best match of what was typed (issue 14 item 16)', async () => {
    const all = [depot(8, 'Pegel'), depot(9, 'Wetter')];
    booted = await open('data', {
      'GET /api/v1/depot/': (call: { query?: Record<string, unknown> }) =>
        page(all.filter((d) => d.name.toLowerCase().includes(String(call.query?.q ?? '').toLowerCase()))),
    });
    await booted.waitFor(() => document.body.querySelectorAll('[data-testid="depot-option"]').length === 2);
    typeInto(byTestId<HTMLInputElement>('depot-search')!, 'wet');
    press(byTestId('depot-search')!, 'Enter');
    await booted.waitFor(() => results.length === 1);
    assert.deepEqual(results, [{ kind: 'frame', contentType: 'depot', name: 'Wetter', items: [{ value: '/api/v1/depot/9/' }] }]);
  });

  it('data: links to the Magazine for a new depot and lists it when the user comes back to the tab', async () => {
    const all = [depot(8, 'Pegel')];
    booted = await open('data', { 'GET /api/v1/depot/': () => page([...all]) });
    await booted.waitFor(() => document.body.querySelectorAll('[data-testid="depot-option"]').length === 1);
    const link = byTestId<HTMLAnchorElement>('depot-new-in-magazine')!;
    assert.equal(link.getAttribute('href'), '/depots/');
    assert.equal(link.getAttribute('target'), '_blank');
    assert.equal(link.textContent, 'Create a new depot in the Magazine (new tab)');
    all.push(depot(9, 'Gebiete gepuffert'));
    window.dispatchEvent(new window.FocusEvent('focus'));
    await booted.waitFor(() => document.body.querySelectorAll('[data-testid="depot-option"]').length === 2);
  });

  it('data: says so when the Magazine is not installed', async () => {
    booted = await open('data', {}, false);
    assert.ok(byTestId('data-unavailable'));
    assert.match(text(), /Depots come from the Magazine, which is not installed/);
  });

  it('data: shows the add-on notice when the Magazine is installed but not licensed', async () => {
    booted = await open('data');
    reconfigure(booted, { components: { magazine: false } });
    await booted.waitFor(() => !!byTestId('addon-notice-magazine'));
    assert.equal(byTestId('depot-search'), null);
  });

  it('upload: hands the chosen files to the canvas', async () => {
    booted = await open('data');
    openTab('Upload');
    await booted.waitFor(() => !!byTestId('upload-input'));
    const input = byTestId<HTMLInputElement>('upload-input')!;
    const files = [new window.File(['a;b'], 'trees.csv'), new window.File(['{}'], 'parks.geojson')];
    Object.defineProperty(input, 'files', { value: files, configurable: true });
    input.dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => text().includes('parks.geojson') && text().includes('Upload 2 files'));
    byTestId('upload-insert')!.click();
    assert.equal(results.length, 1);
    const r = results[0] as Extract<InsertResult, { kind: 'upload' }>;
    assert.equal(r.kind, 'upload');
    assert.deepEqual(
      r.files.map((f) => f.name),
      ['trees.csv', 'parks.geojson'],
    );
  });

  it('url: names the import function for the address and inserts it with the address as parameter', async () => {
    const wfs = fn('wfs.import', {
      verbose_name: 'WFS import',
      inputs: [port('layer', 'string', true), port('url', 'string', true)],
    });
    booted = await open('data', { 'GET /api/v1/function/wfs.import/': wfs });
    openTab('URL');
    await booted.waitFor(() => !!byTestId('url-input'));
    const url = 'https://geodienste.hamburg.de/HH_WFS_Verkehr?SERVICE=WFS&REQUEST=GetCapabilities';
    typeInto(byTestId<HTMLInputElement>('url-input')!, url);
    await booted.waitFor(() => text().includes('Imported with WFS import (wfs.import).'));
    press(byTestId('url-input')!, 'Enter');
    assert.deepEqual(results, [{ kind: 'url', url, func: 'wfs.import', params: { url: { value: url } } }]);
  });

  it('url: offers a text frame when the import function is not installed', async () => {
    booted = await open('data');
    openTab('URL');
    await booted.waitFor(() => !!byTestId('url-input'));
    typeInto(byTestId<HTMLInputElement>('url-input')!, 'https://example.org/data/trees.zip');
    await booted.waitFor(() => !!byTestId('url-missing'));
    assert.match(
      byTestId('url-missing')!.textContent!,
      /The function file\.download, which imports this kind of address, is not installed/,
    );
    assert.equal(byTestId<HTMLButtonElement>('url-insert')!.disabled, true);
    byTestId('url-as-text')!.click();
    assert.deepEqual(results, [
      { kind: 'frame', contentType: 'string', items: [{ value: 'https://example.org/data/trees.zip' }] },
    ]);
  });

  it('url: imports a local path only for administrators', async () => {
    booted = await open('data', { 'GET /api/v1/function/file.import/': fn('file.import', { verbose_name: 'Import file' }) });
    openTab('URL');
    await booted.waitFor(() => !!byTestId('url-input'));
    typeInto(byTestId<HTMLInputElement>('url-input')!, '/srv/data/trees.gpkg');
    await booted.waitFor(() => byTestId('url-function')?.dataset.func === 'file.import');
    reconfigure(booted, { isSuperuser: false });
    await booted.waitFor(() => !!byTestId('url-problem'));
    assert.match(byTestId('url-problem')!.textContent!, /Only administrators may import files from the server's disk/);
    assert.equal(byTestId('url-function'), null);
  });

  it('empty: inserts an empty frame of the chosen type with its name; Enter inserts', async () => {
    booted = await open('data');
    openTab('Empty');
    const select = () => byTestId<HTMLSelectElement>('empty-type')!;
    await booted.waitFor(() => !!byTestId('empty-type') && select().options.length === 3);
    assert.equal(select().value, 'string', 'string first');
    select().value = 'geojson';
    select().dispatchEvent(new window.Event('change', { bubbles: true }));
    typeInto(byTestId<HTMLInputElement>('empty-name')!, 'Bäume');
    press(byTestId('empty-name')!, 'Enter');
    assert.deepEqual(results, [{ kind: 'frame', contentType: 'geojson', name: 'Bäume', items: [] }]);
  });

  it('note: inserts the Markdown text with Ctrl+Enter; Enter alone is a new line', async () => {
    booted = await open('note');
    await booted.waitFor(() => !!byTestId('note-text'));
    const area = byTestId<HTMLTextAreaElement>('note-text')!;
    typeInto(area, '# Hinweis\n\nDaten **täglich** prüfen');
    press(area, 'Enter');
    assert.equal(results.length, 0);
    press(area, 'Enter', { ctrlKey: true });
    assert.deepEqual(results, [{ kind: 'note', text: '# Hinweis\n\nDaten **täglich** prüfen' }]);
  });

  it('function: a double-clicked function becomes a node', async () => {
    booted = await open('function');
    await booted.waitFor(() => !!document.body.querySelector('[data-testid="function-item"]'));
    dblclick(document.body.querySelector('[data-testid="function-item"]')!);
    assert.equal(results.length, 1);
    assert.equal(results[0].kind, 'function');
    assert.equal((results[0] as { func: { name: string } }).func.name, 'string.upper');
  });

  it('closes with Escape', async () => {
    booted = await open('note');
    await booted.waitFor(() => !!byTestId('note-text'));
    press(byTestId('note-text')!, 'Escape');
    await booted.waitFor(() => closed === 1);
    assert.equal(results.length, 0);
  });
});
