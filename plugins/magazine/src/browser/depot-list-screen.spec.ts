import { boot, byTestId, clickText, depot, folderTree, page, text, type BootedWorkbench } from './magazine-test-kit';
import assert from 'node:assert/strict';

describe('magazine: depot list and folders (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    localStorage.clear();
  });

  it('shows the top-level folders and the depots of the root, and opens a folder with its breadcrumb', async () => {
    booted = await boot('/depots/', {
      'GET /api/v1/depotfoldertree/': { objects: folderTree() },
      'GET /api/v1/depot/by-folder/?folder=': page([depot(1, 'Wetter')]),
      'GET /api/v1/depot/by-folder/?folder=3': page([depot(2, 'Pegel', { folder: '/api/v1/depotfolder/3/' })]),
    });
    await booted.waitFor(() => text().includes('Wetter') && text().includes('Projekte') && text().includes('Archiv'));
    assert.ok(!text().includes('Hamburg'), 'only the folders directly in the root');

    byTestId('folder-3')!.click();
    await booted.waitFor(() => text().includes('Pegel') && text().includes('Hamburg'));
    assert.equal(location.pathname, '/depotfolder/3');
    assert.ok(!text().includes('Wetter'));
    const crumbs = [...byTestId('folder-breadcrumb')!.querySelectorAll('li')].map((li) => li.textContent);
    assert.deepEqual(crumbs, ['Magazine', 'Projekte']);

    clickText('Magazine', '.bp6-breadcrumb');
    await booted.waitFor(() => location.pathname === '/depots/' && text().includes('Wetter'));
  });

  it('keeps the four most recently opened depots, newest first (spec 000 §9)', async () => {
    const older = [4, 3, 2, 1].map((id) => ({ id, name: `Depot ${id}` }));
    localStorage.setItem('werkbank.navigation', JSON.stringify({ depot_mru: { '/api/v1/user/1/': older } }));
    booted = await boot('/depot/9/', {
      'GET /api/v1/depot/9/': depot(9, 'Neu'),
      'GET /api/v1/moment/': page([]),
      'GET /api/v1/depotfoldertree/': { objects: [] },
      'GET /api/v1/datum/by-depot/9/': page([]),
      'GET /api/v1/depot/by-folder/?folder=': page([]),
    });
    await booted.waitFor(() => !!byTestId('depot-header'));
    clickText('Magazine', '.bp6-breadcrumb');
    await booted.waitFor(() => !!byTestId('recent-depots'));
    const shown = [...byTestId('recent-depots')!.querySelectorAll('button')].map((b) => b.textContent);
    assert.deepEqual(shown, ['Neu', 'Depot 4', 'Depot 3', 'Depot 2']);
    const stored = JSON.parse(localStorage.getItem('werkbank.navigation')!).depot_mru['/api/v1/user/1/'];
    assert.equal(stored.length, 4, 'the list survives a reload with four entries');
  });

  it('deletes a folder after asking, says so and reloads the tree after 250 ms (spec 000 §4, §8)', async () => {
    let trees = 0;
    let deletedAt = 0;
    let reloadedAt = 0;
    booted = await boot('/depots/', {
      'GET /api/v1/depotfoldertree/': () => {
        if (++trees > 1) reloadedAt = Date.now();
        return { objects: trees > 1 ? [] : folderTree() };
      },
      'GET /api/v1/depot/by-folder/?folder=': page([]),
      'DELETE /api/v1/depotfolder/5/': () => ((deletedAt = Date.now()), null),
    });
    await booted.waitFor(() => text().includes('Archiv'));
    assert.equal(trees, 1);
    byTestId('folder-5')!.querySelector<HTMLButtonElement>('button[aria-label="Folder menu"]')!.click();
    await booted.waitFor(() => text().includes('Delete'));
    clickText('Delete', 'a');
    await booted.waitFor(() => text().includes('Delete the folder “Archiv”?'));
    clickText('Delete', '.bp6-alert-footer button');
    await booted.waitFor(() => text().includes('Folder was deleted'));
    await booted.waitFor(() => trees === 2);
    assert.ok(reloadedAt - deletedAt >= 240, `the tree reloads after the delay (${reloadedAt - deletedAt} ms)`);
    await booted.waitFor(() => !text().includes('Archiv'));
  });
});
