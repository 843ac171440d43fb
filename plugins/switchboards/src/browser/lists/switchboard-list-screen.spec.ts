import {
  boot,
  byTestId,
  clickText,
  failure,
  lastMenu,
  page,
  text,
  typeInto,
  type BootedWorkbench,
} from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import type { RecordedCall } from '@werkbank/testing/browser';
import { sbFolder, storedNavigation, switchboard } from './lists-test-fixtures';

const FOLDERS = 'GET /api/v1/switchboardfolder/';
const LIST = 'GET /api/v1/switchboard/';

/** The root holds 'Wetter', folder 3 'Pegel' holds 'Elbe'; anything else (searches) both. */
function byFolder(call: RecordedCall) {
  const q = call.query ?? {};
  if (q.in_folder === 'root') return page([switchboard(1, 'Wetter')]);
  if (q.in_folder === '3') return page([switchboard(2, 'Elbe', { folder: '/api/v1/switchboardfolder/3/' })]);
  return page([switchboard(1, 'Wetter'), switchboard(2, 'Elbe')]);
}

const listCalls = (booted: BootedWorkbench) =>
  booted.api.calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/switchboard/');

describe('switchboards: the switchboard list (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
    localStorage.clear();
  });

  it('shows the folders and the switchboards outside them, opens a folder, remembers it and goes back to the root', async () => {
    booted = await boot('/switchboards/', { [FOLDERS]: page([sbFolder(3, 'Pegel')]), [LIST]: byFolder });
    await booted.waitFor(() => text().includes('Wetter') && !!byTestId('folder-3'));
    assert.equal(listCalls(booted).at(-1)!.query?.in_folder, 'root');

    byTestId('folder-3')!.click();
    await booted.waitFor(() => text().includes('Elbe') && !text().includes('Wetter'));
    assert.ok(!byTestId('folder-3'), 'inside a folder no folders are listed');
    assert.equal(storedNavigation().switchboard_folder, '/api/v1/switchboardfolder/3/');
    const crumbs = [...byTestId('switchboard-breadcrumb')!.querySelectorAll('li')].map((li) => li.textContent);
    assert.deepEqual(crumbs, ['Switchboards', 'Pegel']);
    assert.ok(byTestId('edit-folder') && byTestId('delete-folder'), 'the owner may edit and delete the folder');

    // A reload opens the remembered folder (spec 000 §9 switchboard_folder).
    await booted.unmount();
    booted = await boot('/switchboards/', { [FOLDERS]: page([sbFolder(3, 'Pegel')]), [LIST]: byFolder });
    await booted.waitFor(() => text().includes('Elbe'));
    assert.deepEqual(
      listCalls(booted).map((c) => c.query?.in_folder),
      ['3'],
      'waits for the folders instead of loading the root first',
    );

    clickText('Switchboards', '.bp6-breadcrumb');
    await booted.waitFor(() => text().includes('Wetter') && !!byTestId('folder-3'));
    assert.equal(storedNavigation().switchboard_folder, null);
  });

  it('searches every folder, keeps the search text, and shows favourites only', async () => {
    booted = await boot('/switchboards/', { [FOLDERS]: page([sbFolder(3, 'Pegel')]), [LIST]: byFolder });
    await booted.waitFor(() => text().includes('Wetter'));
    const input = byTestId<HTMLInputElement>('search-input')!;
    typeInto(input, 'el');
    input.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await booted.waitFor(() => listCalls(booted!).at(-1)!.query?.q === 'el' && text().includes('Elbe'));
    assert.equal(listCalls(booted).at(-1)!.query?.in_folder, undefined, 'a search covers every folder');
    assert.ok(byTestId('searching-all') && !byTestId('folder-3'));
    assert.equal(storedNavigation().switchboard_filter, 'el');

    byTestId('favorites-toggle')!.click();
    await booted.waitFor(() => listCalls(booted!).at(-1)!.query?.filter === 'favorites');
    assert.equal(listCalls(booted).at(-1)!.query?.q, 'el', 'the filters add up');

    await booted.unmount();
    booted = await boot('/switchboards/', { [FOLDERS]: page([]), [LIST]: byFolder });
    await booted.waitFor(() => listCalls(booted!).length > 0);
    assert.equal(listCalls(booted)[0].query?.q, 'el', 'the search text survives a reload');
    assert.equal(byTestId<HTMLInputElement>('search-input')!.value, 'el');
  });

  it('filters by the active tags of the realm switchboard and hides system tags on cards until asked', async () => {
    const tags = [
      { id: 5, name: 'Hydrologie', color: '#2d72d2', icon: 'tag', intent: 'user', counts: { switchboard: 1 } },
      { id: 6, name: 'Import', color: '#2d72d2', icon: 'tag', intent: 'system', counts: { switchboard: 1 } },
    ];
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([]),
      [LIST]: page([switchboard(1, 'Wetter', { tags: tags.map(({ counts: _c, ...tag }) => tag as never) })]),
      'GET /api/v2/backend/tags/': page(tags),
    });
    await booted.waitFor(() => !!byTestId('card-1') && text().includes('Hydrologie1'));
    assert.equal(booted.api.calls.find((c) => c.path === '/api/v2/backend/tags/')!.query?.realm, 'switchboard');
    const card = () => byTestId('card-1')!;
    assert.ok(card().querySelector('[data-testid="tag-chip-Hydrologie"]'));
    assert.ok(!card().querySelector('[data-testid="tag-chip-Import"]'), 'a system tag only with “Show system tags”');

    document.querySelector<HTMLButtonElement>('button[aria-label="Show system tags"]')!.click();
    await booted.waitFor(() => !!card().querySelector('[data-testid="tag-chip-Import"]'));
    assert.equal(storedNavigation().show_system_tags, true);

    clickText('Hydrologie1', 'a');
    await booted.waitFor(() => listCalls(booted!).at(-1)!.query?.tag === '5');
    assert.equal(listCalls(booted).at(-1)!.query?.in_folder, undefined, 'a tag filter covers every folder');
  });

  it('shows status, progress and schedule on cards (spec 002 §4) and the columns of the table', async () => {
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([]),
      [LIST]: page([
        switchboard(1, 'Neu'),
        switchboard(2, 'Läuft', { status: 'started', progress: { total: 45.46 } }),
        switchboard(3, 'Gut', { status: 'success', progress: { total: 100 }, automatic: true }),
        switchboard(4, 'Kaputt', {
          status: 'failure',
          progress: { total: 50 },
          periodic_execution: true,
          next_run: '2026-12-07T05:00:00Z',
        }),
      ]),
    });
    await booted.waitFor(() => !!byTestId('card-4'));
    const cardText = (id: number) => byTestId(`card-${id}`)!.textContent;
    assert.match(cardText(1)!, /Created/);
    assert.ok(!byTestId('card-1')!.querySelector('[data-testid="switchboard-progress"]'), 'no progress before a first run');
    assert.match(cardText(2)!, /Running.*45\.5 %/);
    assert.match(cardText(3)!, /Executed successfully.*100\.0 %.*Automatic/);
    assert.match(cardText(4)!, /Failed.*50\.0 %.*Periodic, next 2026-12-07 06:00/);

    byTestId('presentation-table')!.click();
    await booted.waitFor(() => !!byTestId('object-table'));
    const headers = [...document.querySelectorAll('.bp6-table-column-name-text')].map((h) => h.textContent);
    // Blueprint's table renders the columns in view (and repeats them for its frozen quadrants).
    for (const h of ['Name', 'Status', 'Progress']) assert.ok(headers.includes(h), `column ${h}`);
    assert.equal(storedNavigation().switchboard_presentation, 'table');
  });

  it('lists the two most recently used switchboards and records a visit (spec 000 §9)', async () => {
    const older = [
      { id: 4, name: 'Alt 4' },
      { id: 3, name: 'Alt 3' },
    ];
    localStorage.setItem('werkbank.navigation', JSON.stringify({ switchboard_mru: { '/api/v1/user/1/': older } }));
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([]),
      [LIST]: page([switchboard(9, 'Neu')]),
      'GET /api/v1/switchboard/9/reload/': { switchboard: switchboard(9, 'Neu'), nodes: [], frames: [], links: [], notes: [] },
    });
    await booted.waitFor(() => !!byTestId('recent-switchboards') && !!byTestId('card-9'));
    const shown = () => [...byTestId('recent-switchboards')!.querySelectorAll('button')].map((b) => b.textContent);
    assert.deepEqual(shown(), ['Alt 4', 'Alt 3']);

    byTestId('card-9')!.click();
    await booted.waitFor(() => location.pathname === '/switchboard/9');
    const stored = (storedNavigation().switchboard_mru as Record<string, unknown[]>)['/api/v1/user/1/'];
    assert.deepEqual(stored, [
      { id: 9, name: 'Neu' },
      { id: 4, name: 'Alt 4' },
    ]);
  });

  it('deletes a switchboard after asking, and shows why a running one cannot be deleted', async () => {
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([]),
      [LIST]: page([
        switchboard(1, 'Wetter'),
        switchboard(2, 'Läuft', { status: 'started' }),
        switchboard(3, 'Fremd', { access: ['read'] }),
      ]),
      'DELETE /api/v1/switchboard/1/': null,
      'DELETE /api/v1/switchboard/2/': failure(409, 'A running switchboard cannot be deleted. Stop it first.'),
    });
    await booted.waitFor(() => !!byTestId('card-3'));
    byTestId('switchboard-menu-3')!.click();
    await booted.waitFor(() => lastMenu().includes('Open'));
    assert.deepEqual(lastMenu(), ['Open', 'Settings', 'Duplicate', 'Save as file', 'Favourite'], 'a reader may not delete');
    byTestId('switchboard-menu-3')!.click();

    byTestId('switchboard-menu-2')!.click();
    await booted.waitFor(() => lastMenu().includes('Delete'));
    clickText('Delete', 'a');
    await booted.waitFor(() => text().includes('Delete the switchboard “Läuft” with its nodes, data and notes?'));
    clickText('Delete', '.bp6-alert-footer button');
    await booted.waitFor(() => text().includes('A running switchboard cannot be deleted. Stop it first.'));
    assert.ok(byTestId('card-2'), 'it stays in the list');

    byTestId('switchboard-menu-1')!.click();
    await booted.waitFor(() => lastMenu().includes('Delete'));
    clickText('Delete', 'a');
    await booted.waitFor(() => text().includes('Delete the switchboard “Wetter”'));
    clickText('Delete', '.bp6-alert-footer button');
    await booted.waitFor(() => text().includes('Object was deleted') && !byTestId('card-1'));
  });

  it('duplicates a switchboard and saves it as a file', async () => {
    const exported = { format: 'werkbank-switchboard', version: 1, switchboard: { name: 'Wetter Süd' }, nodes: [] };
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([]),
      [LIST]: page([switchboard(1, 'Wetter Süd')]),
      'POST /api/v1/switchboard/1/duplicate/': switchboard(2, 'Copy of Wetter Süd'),
      'GET /api/v1/switchboard/1/export/': exported,
    });
    await booted.waitFor(() => !!byTestId('card-1'));
    byTestId('switchboard-menu-1')!.click();
    await booted.waitFor(() => lastMenu().includes('Duplicate'));
    clickText('Duplicate', 'a');
    await booted.waitFor(() => text().includes('Cloned as “Copy of Wetter Süd”'));
    assert.equal(listCalls(booted).length, 2, 'the list reloads to show the copy');

    const saved: Array<{ name: string; href: string }> = [];
    const onClick = (e: Event) => {
      const a = (e.target as Element).closest?.('a[download]') as HTMLAnchorElement | null;
      if (!a) return;
      e.preventDefault();
      saved.push({ name: a.download, href: a.href });
    };
    document.addEventListener('click', onClick, true);
    try {
      byTestId('switchboard-menu-1')!.click();
      await booted.waitFor(() => lastMenu().includes('Save as file'));
      clickText('Save as file', 'a');
      await booted.waitFor(() => saved.length === 1);
    } finally {
      document.removeEventListener('click', onClick, true);
    }
    assert.equal(saved[0].name, 'Wetter_Süd.switchboard.json');
    assert.match(saved[0].href, /^blob:/);
  });

  it('imports a file into the open folder and shows the server’s refusal (unknown_function)', async () => {
    let answer: (call: RecordedCall) => unknown = failure(400, 'The file uses functions that are not installed: geo.buffer.');
    localStorage.setItem('werkbank.navigation', JSON.stringify({ switchboard_folder: '/api/v1/switchboardfolder/3/' }));
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([sbFolder(3, 'Pegel')]),
      [LIST]: byFolder,
      'POST /api/v1/switchboard/import/': (call: RecordedCall) => answer(call),
    });
    await booted.waitFor(() => text().includes('Elbe'));
    const choose = (content: string) => {
      const input = byTestId<HTMLInputElement>('import-file')!;
      Object.defineProperty(input, 'files', { value: [new File([content], 'pegel.switchboard.json')], configurable: true });
      input.dispatchEvent(new window.Event('change', { bubbles: true }));
    };
    const file = { format: 'werkbank-switchboard', version: 1, switchboard: { name: 'Pegel' }, nodes: [{ func: 'geo.buffer' }] };
    choose(JSON.stringify(file));
    await booted.waitFor(() =>
      text().includes('The file could not be imported: The file uses functions that are not installed: geo.buffer.'),
    );
    const post = booted.api.calls.find((c) => c.method === 'POST')!;
    assert.deepEqual(post.body, { file, folder: '/api/v1/switchboardfolder/3/' });

    choose('not json');
    await booted.waitFor(() => text().includes('“pegel.switchboard.json” is not a switchboard file (it is not JSON).'));
    assert.equal(booted.api.calls.filter((c) => c.method === 'POST').length, 1, 'nothing sent');

    answer = () => switchboard(8, 'Pegel');
    const before = listCalls(booted).length;
    choose(JSON.stringify(file));
    await booted.waitFor(() => text().includes('Switchboard “Pegel” was imported') && listCalls(booted!).length > before);
  });

  it('creates and deletes folders; a folder with switchboards is refused with the reason', async () => {
    booted = await boot('/switchboards/', {
      [FOLDERS]: page([sbFolder(3, 'Pegel'), sbFolder(4, 'Fremd', ['read'])]),
      [LIST]: byFolder,
      'POST /api/v1/switchboardfolder/': sbFolder(5, 'Neu'),
      'DELETE /api/v1/switchboardfolder/3/': failure(
        409,
        "The folder 'Pegel' still contains switchboards. Move or delete them first.",
      ),
    });
    await booted.waitFor(() => !!byTestId('folder-4'));
    byTestId('folder-menu-4')!.click();
    await booted.waitFor(() => lastMenu().includes('Open'));
    assert.deepEqual(lastMenu(), ['Open'], 'no edit or delete of someone else’s folder');
    byTestId('folder-menu-4')!.click();

    byTestId('folder-menu-3')!.click();
    await booted.waitFor(() => lastMenu().includes('Delete'));
    clickText('Delete', 'a');
    await booted.waitFor(() => text().includes('Delete the folder “Pegel”?'));
    clickText('Delete', '.bp6-alert-footer button');
    await booted.waitFor(() => text().includes("The folder 'Pegel' still contains switchboards."));

    byTestId('new-folder')!.click();
    await booted.waitFor(() => !!document.querySelector('#switchboard-folder-name'));
    typeInto(document.querySelector<HTMLInputElement>('#switchboard-folder-name')!, ' Neu ');
    byTestId('folder-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'POST')!.body, { name: 'Neu' });
  });
});
