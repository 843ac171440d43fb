import { boot, byTestId, page, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { createElement } from '@werkbank/sdk/react';
import { definePlugin, ObjectEditorHost, RouteContribution } from '@werkbank/sdk/browser';
import { switchboard, workflow } from './workflow-fixtures';

const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === name)!;
const input = (id: string) => document.querySelector<HTMLInputElement>(`#${id}`)!;

const pegelBoard = switchboard(9, 'Pegel verarbeiten', {
  input_frames: workflow(0, '').input_frames,
  output_frames: workflow(0, '').output_frames,
});

function routes(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'GET /api/v1/workflow/': page([workflow(1, 'Großschreibung', { description: 'Macht Texte groß', slug: 'gross' })]),
    'GET /api/v2/backend/tags/': page([]),
    'GET /api/v1/workflow/1/': workflow(1, 'Großschreibung', { description: 'Macht Texte groß', slug: 'gross' }),
    'GET /api/v1/switchboard/': page([pegelBoard, switchboard(12, 'Fremdes Pult', { access: ['read'] })]),
    'GET /api/v1/switchboard/9/': pegelBoard,
    'GET /api/v1/user/': page([{ id: 1, resource_uri: '/api/v1/user/1/', display_name: 'Admin', username: 'admin' }]),
    'GET /api/v1/group/': page([]),
    ...extra,
  };
}

describe('switchboards: workflow editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
    localStorage.clear();
  });

  async function openEditor(r: Record<string, unknown>, which: 'new' | 'edit') {
    booted = await boot('/workflows/', r);
    await booted.waitFor(() => !!byTestId('card-1'));
    if (which === 'new') byTestId('new-workflow')!.click();
    else {
      byTestId('workflow-menu-1')!.click();
      await booted.waitFor(() => !!byTestId('workflow-edit'));
      byTestId('workflow-edit')!.click();
    }
    await booted.waitFor(
      () => !!document.querySelector('#workflow-name') && (which === 'new' || input('workflow-name').value !== ''),
    );
    return booted;
  }

  it('creates a workflow: settings with the short name’s rule, one switchboard as its step, grants labelled Show, Run, Edit', async () => {
    const b = await openEditor(routes({ 'POST /api/v1/workflow/': workflow(2, 'Pegel') }), 'new');
    const save = () => byTestId<HTMLButtonElement>('workflow-save')!;
    assert.equal(save().disabled, true, 'a name is required');
    typeInto(input('workflow-name'), 'Pegel');
    typeInto(document.querySelector<HTMLTextAreaElement>('#workflow-description')!, 'Pegelstände in Großbuchstaben');
    typeInto(input('workflow-image'), 'https://example.org/pegel.png');
    await b.waitFor(() => !!byTestId('workflow-image-preview')?.querySelector('img'));
    typeInto(input('workflow-slug'), 'Pegel Elbe');
    await b.waitFor(() => text().includes('Use only lower case letters, digits and hyphens'));
    assert.equal(save().disabled, true, 'a short name against its rule cannot be saved');
    typeInto(input('workflow-slug'), 'pegel-elbe');
    await b.waitFor(() => !save().disabled);

    tab('Switchboard').click();
    await b.waitFor(() => !!byTestId('workflow-switchboard-9'));
    assert.ok(text().includes('No switchboard chosen.'));
    const foreign = byTestId('workflow-switchboard-12')!;
    assert.ok(foreign.classList.contains('bp6-disabled') && foreign.textContent!.includes('You may not run it'));
    byTestId('workflow-switchboard-9')!.click();
    await b.waitFor(() => byTestId('workflow-switchboard-chosen')?.textContent?.includes('Pegel verarbeiten') ?? false);
    assert.ok(byTestId('workflow-switchboard-chosen')!.textContent!.includes('Inputs: text · Results: Großbuchstaben'));

    tab('Permissions').click();
    await b.waitFor(() => !!byTestId('permissions-editor'));
    assert.deepEqual(
      [...byTestId('permissions-editor')!.querySelectorAll('th')].map((th) => th.textContent),
      ['User or group', 'Show', 'Run', 'Edit', ''],
    );

    save().click();
    await b.waitFor(() => text().includes('Object was saved'));
    const post = b.api.calls.find((c) => c.method === 'POST')!;
    assert.deepEqual(post.body, {
      name: 'Pegel',
      description: 'Pegelstände in Großbuchstaben',
      image: 'https://example.org/pegel.png',
      slug: 'pegel-elbe',
      steps: [{ switchboard: '/api/v1/switchboard/9/', executor: 'default' }],
      permissions: [],
    });
    await b.waitFor(() => !document.querySelector('#workflow-name'));
  });

  it('copies the switchboard’s id, and opens the switchboard’s canvas', async () => {
    const copied: string[] = [];
    Object.defineProperty(window.navigator, 'clipboard', {
      value: { writeText: async (s: string) => void copied.push(s) },
      configurable: true,
    });
    const b = await openEditor(routes(), 'edit');
    tab('Switchboard').click();
    await b.waitFor(() => !!byTestId('workflow-switchboard-copy'));
    byTestId('workflow-switchboard-copy')!.click();
    await b.waitFor(() => text().includes('Text copied to clipboard'));
    assert.deepEqual(copied, ['9']);

    byTestId('workflow-switchboard-open')!.click();
    await b.waitFor(() => location.pathname === '/switchboard/9');
    assert.equal(document.querySelector('#workflow-name'), null, 'the editor closed');
    delete (window.navigator as { clipboard?: unknown }).clipboard;
  });

  it('saves only what changed; removing the switchboard sends no step', async () => {
    const b = await openEditor(routes({ 'PATCH /api/v1/workflow/1/': workflow(1, 'Großschreibung') }), 'edit');
    typeInto(input('workflow-slug'), 'gross-2');
    tab('Switchboard').click();
    await b.waitFor(() => !!byTestId('workflow-switchboard-remove'));
    byTestId('workflow-switchboard-remove')!.click();
    await b.waitFor(() => text().includes('No switchboard chosen.'));
    byTestId('workflow-save')!.click();
    await b.waitFor(() => text().includes('Object was saved'));
    const patch = b.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, { slug: 'gross-2', steps: [] });
  });

  it('shows the server’s refusal on the tab of its field and stays open', async () => {
    const taken = () => {
      throw Object.assign(new Error('The short name “gross” is taken.'), { status: 400, field: 'slug' });
    };
    const refused = () => {
      throw Object.assign(new Error('You may not run this switchboard.'), { status: 400, field: 'steps[0].switchboard' });
    };
    let answer: () => never = refused;
    const b = await openEditor(routes({ 'PATCH /api/v1/workflow/1/': () => answer() }), 'edit');
    typeInto(input('workflow-name'), 'Groß');
    tab('Permissions').click();
    await b.waitFor(() => !!byTestId('permissions-editor'));
    byTestId('workflow-save')!.click();
    await b.waitFor(() => byTestId('workflow-editor-error')?.textContent === 'You may not run this switchboard.');
    assert.equal(tab('Switchboard').getAttribute('aria-selected'), 'true');

    answer = taken;
    byTestId('workflow-save')!.click();
    await b.waitFor(() => byTestId('workflow-editor-error')?.textContent === 'The short name “gross” is taken.');
    assert.equal(tab('Settings').getAttribute('aria-selected'), 'true');
    assert.ok(document.querySelector('#workflow-slug'), 'the short name is in view');
  });

  it('opens read-only for who may not change the workflow: no Save, every field and the switchboard locked', async () => {
    // A probe screen opens the editor by address (the list offers Edit only to who may change it).
    const route: RouteContribution = {
      registerRoutes: (r) =>
        r.add({
          id: 'probe.editor',
          path: '/probe/',
          component: () => createElement(ObjectEditorHost, { address: '/api/v1/workflow/1/', onClose: () => undefined }),
        }),
    };
    const probe = definePlugin((ctx) => ctx.contribute(RouteContribution, route));
    const reader = workflow(1, 'Großschreibung', { access: ['read', 'execute'], owner: '/api/v1/user/7/' });
    booted = await boot('/probe/', routes({ 'GET /api/v1/workflow/1/': reader }), [{ id: 'probe', module: probe }]);
    await booted.waitFor(() => !!byTestId('workflow-editor-read-only'));
    assert.equal(byTestId('workflow-save'), null);
    assert.equal(input('workflow-name').disabled, true);
    tab('Switchboard').click();
    await booted.waitFor(() => !!byTestId('workflow-switchboard-copy'));
    assert.equal(byTestId('workflow-switchboard-remove'), null);
    assert.equal(byTestId('workflow-switchboard-search'), null);
  });
});
