import { boot, byTestId, failure, page, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { editorProbe, switchboard } from './lists-test-fixtures';

const TAGS = [
  { id: 5, name: 'Hydrologie', color: '#2d72d2', icon: 'tag', intent: 'user' },
  { id: 6, name: 'Pegel', color: '#2d72d2', icon: 'tag', intent: 'user' },
];

describe('switchboards: the new-switchboard form (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
    localStorage.clear();
  });

  it('creates the switchboard in the open folder with the chosen tags and opens its canvas', async () => {
    localStorage.setItem('werkbank.navigation', JSON.stringify({ switchboard_folder: '/api/v1/switchboardfolder/3/' }));
    booted = await boot('/switchboards/', {
      'GET /api/v1/switchboardfolder/': page([
        { id: 3, resource_uri: '/api/v1/switchboardfolder/3/', name: 'Pegel', access: ['read'] },
      ]),
      'GET /api/v1/switchboard/': page([]),
      'GET /api/v2/backend/tags/': page(TAGS),
      'POST /api/v2/switchboard/create/': { resource_uri: '/api/v1/switchboard/7/', switchboard_id: 7, name: 'Elbe' },
      'GET /api/v1/switchboard/7/reload/': { switchboard: switchboard(7, 'Elbe'), nodes: [], frames: [], links: [], notes: [] },
    });
    await booted.waitFor(() => text().includes('This folder holds no switchboards yet.'));
    byTestId('new-switchboard')!.click();
    await booted.waitFor(() => !!document.querySelector('#new-switchboard-name'));
    assert.equal(byTestId<HTMLButtonElement>('new-switchboard-create')!.disabled, true, 'a name is needed');
    typeInto(document.querySelector<HTMLInputElement>('#new-switchboard-name')!, ' Elbe ');

    byTestId('pick-tag')!.click();
    await booted.waitFor(() => !!byTestId('pick-tag-Pegel'));
    byTestId('pick-tag-Pegel')!.click();
    await booted.waitFor(() => !!byTestId('tag-chip-Pegel'));

    byTestId('new-switchboard-create')!.click();
    await booted.waitFor(() => location.pathname === '/switchboard/7');
    const create = booted.api.calls.find((c) => c.path === '/api/v2/switchboard/create/')!;
    assert.deepEqual(create.query, { name: 'Elbe', folder_uri: '/api/v1/switchboardfolder/3/', tags: '6' });
  });

  it('keeps the form open with the server’s reason when creating fails, and sends no tags while tags are off', async () => {
    booted = await boot(
      '/probe/',
      { 'POST /api/v2/switchboard/create/': failure(403, 'The tags add-on has not yet been licensed.') },
      [editorProbe('/api/v1/switchboard/')],
      { tags: false },
    );
    await booted.waitFor(() => !!document.querySelector('#new-switchboard-name'));
    assert.ok(!byTestId('tag-picker'), 'no tags while the component is off');
    const name = document.querySelector<HTMLInputElement>('#new-switchboard-name')!;
    typeInto(name, 'Wetter');
    name.form!.dispatchEvent(new window.Event('submit', { bubbles: true, cancelable: true }));
    await booted.waitFor(() => !!byTestId('new-switchboard-error'));
    assert.equal(byTestId('new-switchboard-error')!.textContent, 'The tags add-on has not yet been licensed.');
    assert.equal(location.pathname, '/probe/');
    assert.deepEqual(booted.api.calls.at(-1)!.query, { name: 'Wetter', folder_uri: undefined, tags: undefined });
  });
});
