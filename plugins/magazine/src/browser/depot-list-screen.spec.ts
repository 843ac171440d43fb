import {
  boot,
  byTestId,
  clickText,
  depot,
  folder,
  folderTree,
  lastMenu,
  page,
  text,
  type BootedWorkbench,
} from './magazine-test-kit';

/** A folder as GET /api/v1/depotfolder/{id}/ replies to the caller. */
const folderDetail = (id: number, name: string, access: string[]) => ({
  id,
  resource_uri: `/api/v1/depotfolder/${id}/`,
  name,
  parent: null,
  owner: '/api/v1/user/2/',
  permissions: [],
  access,
});
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

  it('offers edit and delete in a depot menu only when the caller may change the depot; creating stays', async () => {
    booted = await boot('/depots/', {
      'GET /api/v1/depotfoldertree/': { objects: [] },
      'GET /api/v1/depot/by-folder/?folder=': page([depot(1, 'Wetter'), depot(2, 'Fremd', { access: ['read'] })]),
    });
    await booted.waitFor(() => !!byTestId('card-1') && !!byTestId('card-2'));
    assert.ok(byTestId('new-folder') && byTestId('new-depot'), 'any signed-in user may create');
    const button = (id: number) => byTestId(`card-${id}`)!.querySelector<HTMLButtonElement>('button[aria-label="Depot menu"]')!;
    button(2).click();
    await booted.waitFor(() => lastMenu().includes('Open'));
    assert.deepEqual(lastMenu(), ['Open', 'Favourite'], 'a reader’s depot: no edit, no delete');
    button(2).click();
    await booted.waitFor(() => !lastMenu().includes('Open'));
    button(1).click();
    await booted.waitFor(() => lastMenu().includes('Open'));
    assert.deepEqual(lastMenu(), ['Open', 'Edit', 'Favourite', 'Delete']);
  });

  it('offers a folder’s edit and delete only when the caller may change it; its editor opens read-only', async () => {
    const tree = folderTree();
    const hamburg = tree[0].children[0];
    hamburg.children[0].access = ['read'];
    // Changed since the tree was read: the tree still says write, the detail says read.
    hamburg.children.push({ ...folder(7, 'Ottensen', hamburg), access: ['read', 'write'] });
    booted = await boot('/depotfolder/4', {
      'GET /api/v1/depotfoldertree/': { objects: tree },
      'GET /api/v1/depot/by-folder/?folder=4': page([]),
      'GET /api/v1/depotfolder/4/': folderDetail(4, 'Hamburg', ['read']),
      'GET /api/v1/depotfolder/7/': folderDetail(7, 'Ottensen', ['read']),
    });
    await booted.waitFor(() => text().includes('Altona') && booted!.api.calls.some((c) => c.path === '/api/v1/depotfolder/4/'));
    assert.ok(!byTestId('edit-folder') && !byTestId('delete-folder'), 'no edit or delete of this folder');
    assert.ok(byTestId('new-folder') && byTestId('new-depot'), 'creating stays');

    const menuOf = (id: number) =>
      byTestId(`folder-${id}`)!.querySelector<HTMLButtonElement>('button[aria-label="Folder menu"]')!;
    menuOf(6).click();
    await booted.waitFor(() => lastMenu().includes('Open'));
    assert.deepEqual(lastMenu(), ['Open'], 'a sub-folder the caller may only read: no edit, no delete');
    menuOf(6).click();
    await booted.waitFor(() => !lastMenu().includes('Open'));

    menuOf(7).click();
    await booted.waitFor(() => lastMenu().includes('Edit'));
    clickText('Edit', 'a');
    await booted.waitFor(() => !!byTestId('depotfolder-read-only') && !!document.querySelector('#depotfolder-name'));
    assert.equal(document.querySelector<HTMLInputElement>('#depotfolder-name')!.disabled, true);
    assert.ok(!byTestId('depotfolder-save'), 'nothing to save');
    assert.ok(text().includes('You may read this folder but not change it.'));
    assert.ok(!byTestId('edit-folder') && !byTestId('delete-folder'), 'still none, with the detail long arrived');
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
