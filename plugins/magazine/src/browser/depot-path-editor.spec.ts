import { boot, byTestId, depot, folderTree, page, typeInto, type BootedWorkbench } from './magazine-test-kit';
import assert from 'node:assert/strict';
import { createElement, useState } from '@werkbank/sdk/react';
import { DatumEditorHost, definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';

const values: unknown[] = [];
let initial: unknown = '';

function Probe() {
  const [value, setValue] = useState<unknown>(initial);
  return createElement(DatumEditorHost, {
    contentType: '/api/v1/type/depot/',
    value,
    onChange: (v) => (values.push(v), setValue(v)),
  });
}
const routes: RC = { registerRoutes: (r) => r.add({ id: 'probe.path', path: '/probe/', component: Probe }) };

describe('magazine: depot path editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  const tree = (extra: Record<string, unknown> = {}) => ({
    'GET /api/v1/depotfoldertree/': { objects: folderTree() },
    'GET /api/v1/depot/by-folder/?folder=': page([]),
    'GET /api/v1/depot/by-folder/?folder=4': page([
      depot(8, 'Pegel', { folder: '/api/v1/depotfolder/4/' }),
      depot(9, 'Wetter', { folder: '/api/v1/depotfolder/4/' }),
    ]),
    ...extra,
  });
  const probe = [{ id: 'probe', module: definePlugin((ctx) => ctx.contribute(RouteContribution, routes)) }];
  const text = () => byTestId<HTMLInputElement>('depot-path-text')!;
  const folder = () => byTestId<HTMLSelectElement>('depot-path-folder')!;
  const name = () => byTestId<HTMLSelectElement>('depot-path-name')!;
  beforeEach(() => ((values.length = 0), (initial = '')));

  it('is the datum editor of type depot: a typed path, split at the last slash, writes the address of its depot (issue 14 item 12)', async () => {
    booted = await boot('/probe/', tree(), probe);
    await booted.waitFor(() => !!byTestId('depot-path-text'));
    typeInto(text(), 'Projekte/Hamburg/Pegel');
    await booted.waitFor(() => name().options.length === 3);
    assert.equal(folder().value, 'Projekte/Hamburg');
    assert.equal(name().value, 'Pegel');
    await booted.waitFor(() => values.length === 1);
    assert.deepEqual(values, ['/api/v1/depot/8/']);

    name().value = 'Wetter';
    name().dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => text().value === 'Projekte/Hamburg/Wetter');
    await booted.waitFor(() => values.length === 2);
    assert.deepEqual(values, ['/api/v1/depot/8/', '/api/v1/depot/9/']);

    // A path that names no depot changes nothing and says so.
    typeInto(text(), 'Projekte/Hamburg/Nirgends');
    await booted.waitFor(() => document.body.textContent!.includes('No depot is at “Projekte/Hamburg/Nirgends”'));
    assert.equal(values.length, 2);
  });

  it('shows the depot an address names as its folder, name and path', async () => {
    initial = '/api/v1/depot/9/';
    booted = await boot(
      '/probe/',
      tree({ 'GET /api/v1/depot/9/': depot(9, 'Wetter', { folder: '/api/v1/depotfolder/4/' }) }),
      probe,
    );
    await booted.waitFor(() => byTestId<HTMLInputElement>('depot-path-text')?.value === 'Projekte/Hamburg/Wetter');
    await booted.waitFor(() => name().value === 'Wetter');
    assert.equal(folder().value, 'Projekte/Hamburg');
    assert.deepEqual(values, [], 'showing is no change');
  });
});
