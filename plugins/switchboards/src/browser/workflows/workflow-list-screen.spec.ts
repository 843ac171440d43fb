import { boot, byTestId, clickText, lastMenu, page, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { definePlugin, MenuContribution } from '@werkbank/sdk/browser';
import { workflow } from './workflow-fixtures';
import { WORKFLOW_MENU } from './workflow-ids';

/** Opens the menu of workflow `id` once every other workflow menu has closed; resolves with its entries. */
async function openMenu(booted: BootedWorkbench, id: number): Promise<string[]> {
  await booted.waitFor(() => !byTestId('workflow-favor'));
  byTestId(`workflow-menu-${id}`)!.click();
  await booted.waitFor(() => !!byTestId('workflow-favor'));
  return lastMenu().filter(Boolean); // without the dividers
}

const list = (...objects: unknown[]) => ({
  'GET /api/v1/workflow/': page(objects),
  'GET /api/v2/backend/tags/': page([
    { id: 5, name: 'Hydrologie', intent: 'user', color: '#2d72d2', icon: 'tag', counts: { workflow: 1 } },
  ]),
});

describe('switchboards: workflow list (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
    localStorage.clear();
  });

  it('lists the workflows with their inputs and results, and is the main menu’s Workflows entry', async () => {
    booted = await boot(
      '/workflows/',
      list(workflow(1, 'Pegel umwandeln'), workflow(2, 'Leer', { switchboard: null, steps: [] })),
    );
    await booted.waitFor(() => !!byTestId('card-1') && !!byTestId('card-2'));
    assert.ok(byTestId('card-1')!.textContent!.includes('Inputs: text · Results: Großbuchstaben'));
    assert.ok(byTestId('card-2')!.textContent!.includes('No switchboard chosen yet'));
    const entry = byTestId('menu-switchboards.workflows')!;
    assert.equal(entry.textContent, 'Workflows');
    assert.ok(entry.classList.contains('bp6-active'), 'the Workflows entry is live and active');
    const first = booted.api.calls.find((c) => c.path === '/api/v1/workflow/')!;
    assert.deepEqual(first.query, { order_by: 'name', offset: 0, limit: 40 });
  });

  it('offers Run, Edit, favourite and Delete by what the caller may do, plus other plugins’ entries', async () => {
    const targets: unknown[] = [];
    const menus: MenuContribution = {
      registerMenus: (r) =>
        r.add({
          id: 'probe.publish',
          menu: WORKFLOW_MENU,
          label: 'Publish',
          run: (w) => targets.push((w as { id: number }).id),
        }),
    };
    const probe = definePlugin((ctx) => ctx.contribute(MenuContribution, menus));
    booted = await boot(
      '/workflows/',
      list(
        workflow(1, 'Mein Workflow'),
        workflow(2, 'Nur ansehen', { access: ['read'] }),
        workflow(3, 'Ausführen', { access: ['read', 'execute'] }),
      ),
      [{ id: 'probe', module: probe }],
    );
    await booted.waitFor(() => !!byTestId('workflow-menu-3'));
    const open = async (id: number) => {
      const items = await openMenu(booted!, id);
      byTestId(`workflow-menu-${id}`)!.click();
      return items;
    };
    assert.deepEqual(await open(1), ['Run', 'Edit', 'Favourite', 'Delete', 'Publish']);
    assert.deepEqual(await open(2), ['Favourite', 'Publish'], 'a reader may neither run nor change it');
    assert.deepEqual(await open(3), ['Run', 'Favourite', 'Publish']);
    await openMenu(booted, 3);
    byTestId('menu-probe.publish')!.click();
    assert.deepEqual(targets, [3]);
  });

  it('favours a workflow and deletes one after the confirmation', async () => {
    booted = await boot('/workflows/', {
      ...list(workflow(1, 'Pegel'), workflow(2, 'Alt')),
      'POST /api/v1/workflow/1/favor/': { status: 'ok', favored: true },
      'DELETE /api/v1/workflow/2/': null,
    });
    await booted.waitFor(() => !!byTestId('workflow-menu-2'));
    await openMenu(booted, 1);
    byTestId('workflow-favor')!.click();
    await booted.waitFor(() => text().includes('Added to favourites'));
    assert.ok(byTestId('card-1')!.querySelector('[aria-label="Favourites only"]'), 'the card shows the favourite mark');

    await openMenu(booted, 2);
    byTestId('workflow-delete')!.click();
    await booted.waitFor(() => text().includes('Delete the workflow “Alt”? Its switchboard stays.'));
    clickText('Delete', '.bp6-alert-footer button');
    await booted.waitFor(() => text().includes('Object was deleted') && !byTestId('card-2'));
    assert.ok(booted.api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/workflow/2/'));
  });

  it('searches, shows favourites only and filters by a tag of the realm workflow', async () => {
    booted = await boot('/workflows/', list(workflow(1, 'Pegel')));
    await booted.waitFor(() => !!byTestId('card-1') && text().includes('Hydrologie'));
    const lastQuery = () => booted!.api.calls.filter((c) => c.path === '/api/v1/workflow/').at(-1)!.query;

    byTestId('favorites-toggle')!.click();
    await booted.waitFor(() => lastQuery()?.filter === 'favorites');

    clickText('Hydrologie1', 'a');
    await booted.waitFor(() => lastQuery()?.tag === '5');
    assert.equal(lastQuery()?.filter, 'favorites', 'the filters add up');
    const tagCall = booted.api.calls.find((c) => c.path === '/api/v2/backend/tags/')!;
    assert.equal(tagCall.query?.realm, 'workflow');

    const input = byTestId<HTMLInputElement>('search-input')!;
    typeInto(input, 'pegel');
    input.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await booted.waitFor(() => lastQuery()?.q === 'pegel');
  });

  it('opens a workflow’s run panel when it is selected, and the editor from New workflow', async () => {
    booted = await boot('/workflows/', {
      ...list(workflow(1, 'Pegel umwandeln')),
      'GET /api/v1/workflow/1/': workflow(1, 'Pegel umwandeln'),
    });
    await booted.waitFor(() => !!byTestId('card-1'));
    byTestId('card-1')!.click();
    await booted.waitFor(() => text().includes('Run “Pegel umwandeln”') && !!byTestId('run-inputs'));
    clickText('Close', '.bp6-dialog-footer button');
    await booted.waitFor(() => !byTestId('run-inputs'));

    byTestId('new-workflow')!.click();
    await booted.waitFor(() => !!document.querySelector('#workflow-name'));
    assert.ok(text().includes('New workflow'));
    assert.deepEqual(
      [...document.querySelectorAll('[role="tab"]')].map((t) => t.textContent),
      ['Settings', 'Switchboard', 'Permissions'],
    );
  });

  it('offers no tagging and no tag filter while the tags component is off', async () => {
    localStorage.setItem('werkbank.navigation', JSON.stringify({ active_tags: { workflow: [5] } }));
    booted = await boot('/workflows/', list(workflow(1, 'Pegel')), [], { tags: false });
    await booted.waitFor(() => !!byTestId('card-1'));
    assert.equal(byTestId('realm-tags-workflow'), null);
    assert.equal(byTestId('selection-menu'), null);
    const call = booted.api.calls.find((c) => c.path === '/api/v1/workflow/')!;
    assert.equal(call.query?.tag, undefined, 'a tag chosen earlier is not sent while tags are off');
  });
});
