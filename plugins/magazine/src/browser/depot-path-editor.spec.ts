import { boot, byTestId, depot, folderTree, page, typeInto, type BootedWorkbench } from './magazine-test-kit';
import assert from 'node:assert/strict';
import { createElement, useState } from '@werkbank/sdk/react';
import { DatumEditorHost, definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';

const values: unknown[] = [];

function Probe() {
  const [value, setValue] = useState<unknown>('');
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

  it('is the datum editor of type depot and splits a typed path at the last slash', async () => {
    booted = await boot(
      '/probe/',
      {
        'GET /api/v1/depotfoldertree/': { objects: folderTree() },
        'GET /api/v1/depot/by-folder/?folder=': page([]),
        'GET /api/v1/depot/by-folder/?folder=4': page([depot(8, 'Pegel'), depot(9, 'Wetter')]),
      },
      [{ id: 'probe', module: definePlugin((ctx) => ctx.contribute(RouteContribution, routes)) }],
    );
    await booted.waitFor(() => !!byTestId('depot-path-text'));
    typeInto(byTestId<HTMLInputElement>('depot-path-text')!, 'Projekte/Hamburg/Pegel');
    const folder = () => byTestId<HTMLSelectElement>('depot-path-folder')!;
    const name = () => byTestId<HTMLSelectElement>('depot-path-name')!;
    await booted.waitFor(() => name().options.length === 3);
    assert.equal(folder().value, 'Projekte/Hamburg');
    assert.equal(name().value, 'Pegel');
    assert.deepEqual(values, ['Projekte/Hamburg/Pegel']);

    name().value = 'Wetter';
    name().dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => byTestId<HTMLInputElement>('depot-path-text')!.value === 'Projekte/Hamburg/Wetter');
  });
});
