import { boot, byTestId, folderTree, page, text, type BootedWorkbench } from './magazine-test-kit';
import assert from 'node:assert/strict';

describe('magazine: depot folder editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('offers every folder but the folder itself and its descendants as parent, and saves the move', async () => {
    booted = await boot('/depotfolder/4', {
      'GET /api/v1/depotfoldertree/': { objects: folderTree() },
      'GET /api/v1/depot/by-folder/?folder=4': page([]),
      'GET /api/v1/depotfolder/4/': {
        id: 4,
        resource_uri: '/api/v1/depotfolder/4/',
        name: 'Hamburg',
        parent: '/api/v1/depotfolder/3/',
        owner: '/api/v1/user/1/',
        permissions: [],
        access: ['read', 'write'],
      },
      'PATCH /api/v1/depotfolder/4/': (call: { body?: unknown }) => ({ ...(call.body as object), id: 4 }),
    });
    await booted.waitFor(() => !!byTestId('edit-folder'));
    byTestId('edit-folder')!.click();
    const select = () => byTestId<HTMLSelectElement>('depot-folder-select');
    await booted.waitFor(() => (select()?.options.length ?? 0) > 1);
    const choices = [...select()!.options].map((o) => o.textContent!.trim());
    assert.deepEqual(choices, ['No folder', 'Projekte', 'Archiv'], 'Hamburg and Altona below it are not offered');
    assert.equal(select()!.value, '/api/v1/depotfolder/3/');

    select()!.value = '/api/v1/depotfolder/5/';
    select()!.dispatchEvent(new window.Event('change', { bubbles: true }));
    byTestId('depotfolder-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, { name: 'Hamburg', parent: '/api/v1/depotfolder/5/', permissions: [] });
  });
});
