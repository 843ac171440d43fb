import { boot, byTestId, depot, moment, page, text, typeInto, type BootedWorkbench } from './magazine-test-kit';
import assert from 'node:assert/strict';
import { testConfig } from '@werkbank/testing/browser';

const pegel = depot(1, 'Pegel', { current_moment: moment(12, 'open'), metadata: { Quelle: 'WSV' } });

function routes(): Record<string, unknown> {
  return {
    'GET /api/v1/depot/1/': pegel,
    'GET /api/v1/moment/': page([pegel.current_moment]),
    'GET /api/v1/depotfoldertree/': { objects: [] },
    'GET /api/v1/datum/by-depot/1/': page([]),
    'GET /api/v1/type/': page([{ name: 'string', base: null, base_chain: ['string'], resource_uri: '/api/v1/type/string/' }]),
    'GET /api/v1/depot/by-type/style/': page([depot(4, 'Gewässer-Stil', { content_type: '/api/v1/type/style/' })]),
    'PATCH /api/v1/depot/1/': pegel,
  };
}

const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === name)!;

describe('magazine: depot editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('locks the data type, offers style depots after “Default style”, and shows notices for unlicensed tabs', async () => {
    booted = await boot('/depot/1/', routes());
    booted.workbench.config.update(
      testConfig({ plugins: ['types', 'magazine'], components: { magazine: false, metadata: false } }),
    );
    await booted.waitFor(() => !!byTestId('depot-edit'));
    byTestId('depot-edit')!.click();
    await booted.waitFor(() => !!byTestId('depot-type') && !!document.querySelector('#depot-name'));
    assert.equal(byTestId<HTMLSelectElement>('depot-type')!.disabled, true, 'the data type is locked once the depot exists');
    typeInto(document.querySelector<HTMLInputElement>('#depot-name')!, 'Pegel Elbe');

    tab('Style').click();
    await booted.waitFor(() => (byTestId<HTMLSelectElement>('depot-style')?.options.length ?? 0) === 2);
    assert.deepEqual(
      [...byTestId<HTMLSelectElement>('depot-style')!.options].map((o) => o.textContent),
      ['Default style', 'Gewässer-Stil'],
    );

    tab('Permissions').click();
    await booted.waitFor(() => !!byTestId('addon-notice-magazine'));
    tab('Metadata').click();
    await booted.waitFor(() => !!byTestId('addon-notice-metadata'));
    assert.ok(text().includes('The metadata add-on has not yet been licensed.'));

    byTestId('depot-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(
      patch.body,
      { name: 'Pegel Elbe' },
      'only what changed; no metadata or grants while their components are off',
    );
  });
});
