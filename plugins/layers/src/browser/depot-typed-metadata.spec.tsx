import assert from 'node:assert/strict';
import {
  bootPlugins,
  browserPlugin,
  byTestId,
  cancelHreflessLinkClicks,
  text,
  typeInto,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import layersBrowser from './layers-browser-module';

cancelHreflessLinkClicks();

const page = (objects: unknown[]) => ({ meta: { offset: 0, limit: 500, total_count: objects.length }, objects });
const LICENCE = '/api/v1/metadataattributetype/1/';
const SOURCE = '/api/v1/metadataattributetype/2/';

const pegel = {
  id: 1,
  resource_uri: '/api/v1/depot/1/',
  name: 'Pegel',
  description: '',
  content_type: '/api/v1/type/string/',
  folder: null,
  metadata: { Quelle: 'WSV', values: [{ attributetype: LICENCE, value: 'CC-BY 4.0' }] },
  style_depot: null,
  owner: '/api/v1/user/1/',
  permissions: [],
  favored: false,
  size: 0,
  access: ['read', 'write'],
  current_moment: null,
};

const attributeType = (id: number, display_name: string, datatype: string, options: string[] = []) => ({
  id,
  resource_uri: `/api/v1/metadataattributetype/${id}/`,
  display_name,
  description: '',
  group: null,
  display: true,
  datatype,
  options,
  iso: '',
  position: id,
});

const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === name)!;

/** The depot editor's Metadata tab with the layers plugin: typed values beside the depot's other metadata (decision 0063). */
describe('layers: typed metadata in the depot editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('edits the typed values, keeps the depot’s other metadata, and links the ISO export', async () => {
    const plugins = [
      await browserPlugin('types'),
      await browserPlugin('magazine'),
      { manifest: { id: 'layers', requires: ['types', 'magazine'] }, module: layersBrowser },
    ];
    booted = await bootPlugins(
      plugins,
      '/depot/1/',
      {
        'GET /api/v1/depot/1/': pegel,
        'GET /api/v1/moment/': page([]),
        'GET /api/v1/depotfoldertree/': { objects: [] },
        'GET /api/v1/datum/by-depot/1/': page([]),
        'GET /api/v1/type/': page([{ name: 'string', base: null, base_chain: ['string'], resource_uri: '/api/v1/type/string/' }]),
        'GET /api/v1/depot/by-type/style/': page([]),
        'GET /api/v1/metadatagroup/': page([]),
        'GET /api/v1/metadataattributetype/': page([
          attributeType(1, 'Lizenz', 'select', ['CC-BY 4.0']),
          attributeType(2, 'Quelle', 'text'),
        ]),
        'PATCH /api/v1/depot/1/': pegel,
      },
      [],
      { magazine: true, metadata: true },
    );
    await booted.waitFor(() => !!byTestId('depot-edit'));
    byTestId('depot-edit')!.click();
    await booted.waitFor(() => !!tab('Metadata'));
    tab('Metadata').click();
    await booted.waitFor(() => !!byTestId('depot-typed-metadata'));
    assert.equal(byTestId('metadata-editor'), null, 'the key/value editor is replaced');
    assert.equal(document.querySelector<HTMLSelectElement>('#depot-metadata-1')!.value, 'CC-BY 4.0');
    assert.equal(
      byTestId<HTMLAnchorElement>('depot-typed-metadata-export')!.getAttribute('href'),
      '/api/v1/depot/1/download.xml',
    );
    typeInto(document.querySelector<HTMLInputElement>('#depot-metadata-2')!, 'Wasserstraßenamt');
    byTestId('depot-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, {
      metadata: {
        Quelle: 'WSV',
        values: [
          { attributetype: LICENCE, value: 'CC-BY 4.0' },
          { attributetype: SOURCE, value: 'Wasserstraßenamt' },
        ],
      },
    });
  });
});
