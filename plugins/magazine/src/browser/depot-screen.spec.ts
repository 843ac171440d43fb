import {
  boot,
  byTestId,
  clickText,
  depot,
  failure,
  moment,
  page,
  text,
  typeInto,
  type BootedWorkbench,
} from './magazine-test-kit';
import assert from 'node:assert/strict';

const head = moment(12, 'open');
const moments = [head, moment(11, 'final'), moment(10, 'approved')];

/** The calls of the depot screen for depot 1 whose head is moment 12; `extra` adds or replaces routes. */
function depotRoutes(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'GET /api/v1/depot/1/': depot(1, 'Pegel', { current_moment: head, size: 2 }),
    'GET /api/v1/moment/': page(moments),
    'GET /api/v1/depotfoldertree/': { objects: [] },
    'GET /api/v1/datum/by-depot/1/': page([]),
    'GET /api/v1/datum/by-moment/10/': page([]),
    ...extra,
  };
}

async function openMomentMenu(booted: BootedWorkbench, id: number, item: string) {
  await booted.waitFor(() => !!byTestId(`moment-menu-${id}`));
  byTestId(`moment-menu-${id}`)!.click();
  await booted.waitFor(() => text().includes(item));
  clickText(item, 'a');
}

/** The depot as a reader gets it: `access` without write. */
const readable = depot(1, 'Pegel', { current_moment: head, size: 2, access: ['read'] });

/** The routes the depot editor calls besides the depot itself. */
const editorRoutes = {
  'GET /api/v1/type/': page([{ name: 'string', base: null, base_chain: ['string'], resource_uri: '/api/v1/type/string/' }]),
  'GET /api/v1/depot/by-type/style/': page([]),
};

const occurrences = (needle: string) => text().split(needle).length - 1;

describe('magazine: one depot and its moments (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('offers a writer edit, delete and the moment menu, without the read-only notice', async () => {
    booted = await boot('/depot/1/', depotRoutes());
    await booted.waitFor(() => !!byTestId('moment-12') && !!byTestId('datum-section'));
    assert.ok(byTestId('depot-edit') && byTestId('depot-delete'));
    assert.ok(byTestId('moment-menu-12') && byTestId('moment-menu-10'));
    assert.ok(!byTestId('depot-read-only') && !byTestId('depot-show'));
  });

  it('offers a reader nothing that would be refused: no edit, delete or moment menu, one notice', async () => {
    booted = await boot('/depot/1/moment/10', depotRoutes({ 'GET /api/v1/depot/1/': readable }));
    await booted.waitFor(() => byTestId('moment-10')?.getAttribute('aria-selected') === 'true' && !!byTestId('datum-section'));
    assert.ok(!byTestId('depot-edit') && !byTestId('depot-delete'), 'no edit or delete of the depot');
    assert.equal(document.querySelectorAll('[data-testid^="moment-menu-"]').length, 0, 'no moment menu at all');
    assert.equal(occurrences('You may read this depot but not change it.'), 1, 'the notice, once');
    assert.ok(!byTestId('datum-read-only'), 'no second notice about the earlier moment (it speaks of restoring)');
  });

  it('shows a reader the depot in a read-only editor: fields disabled, no Save, the notice', async () => {
    booted = await boot('/depot/1/', depotRoutes({ 'GET /api/v1/depot/1/': readable, ...editorRoutes }));
    await booted.waitFor(() => !!byTestId('depot-show'));
    byTestId('depot-show')!.click();
    await booted.waitFor(() => !!byTestId('depot-editor-read-only') && !!document.querySelector('#depot-name'));
    assert.equal(document.querySelector<HTMLInputElement>('#depot-name')!.disabled, true);
    assert.equal(document.querySelector<HTMLTextAreaElement>('#depot-description')!.disabled, true);
    assert.equal(byTestId<HTMLSelectElement>('depot-folder-select')!.disabled, true);
    assert.ok(!byTestId('depot-save'), 'nothing to save');
    clickText('Close', '.bp6-dialog-footer button');
    await booted.waitFor(() => !byTestId('depot-editor-read-only'));
    assert.ok(!booted.api.calls.some((c) => c.method !== 'GET'), 'no write was sent');
  });

  it('says that approving failed in the words of spec 000 §8', async () => {
    booted = await boot('/depot/1/', depotRoutes({ 'POST /api/v1/moment/11/approve/': failure(500, 'boom') }));
    await openMomentMenu(booted, 11, 'Approve');
    await booted.waitFor(() => text().includes('An error occurred while approving the moment.'));
    assert.ok(!text().includes('boom'));
    assert.equal(location.pathname, '/depot/1/');
  });

  it('says that restoring failed, in German too', async () => {
    booted = await boot('/depot/1/', depotRoutes({ 'POST /api/v1/moment/11/restore/': failure(500, 'kaputt') }));
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await openMomentMenu(booted, 11, 'Wiederherstellen');
    await booted.waitFor(() => !!byTestId('restore-confirm'));
    clickText('Wiederherstellen', '[data-testid="restore-confirm"]');
    await booted.waitFor(() => text().includes('Beim Wiederherstellen des Moments ist ein Fehler aufgetreten.'));
  });

  it('restores a selected moment with a message, then clears the selection and reloads the depot', async () => {
    booted = await boot('/depot/1/moment/10', depotRoutes({ 'POST /api/v1/moment/10/restore/': moment(13, 'open') }));
    const api = booted.api;
    await booted.waitFor(() => byTestId('moment-10')?.getAttribute('aria-selected') === 'true' && !!byTestId('datum-read-only'));
    assert.ok(
      api.calls.some((c) => c.path === '/api/v1/datum/by-moment/10/'),
      'an older moment shows its own datums',
    );
    await openMomentMenu(booted, 10, 'Restore');
    await booted.waitFor(() => !!byTestId('restore-message'));
    typeInto(byTestId<HTMLTextAreaElement>('restore-message')!, 'back to Monday');
    byTestId('restore-confirm')!.click();
    await booted.waitFor(() => location.pathname === '/depot/1/' && !byTestId('datum-read-only'));
    const restore = api.calls.find((c) => c.method === 'POST');
    assert.deepEqual([restore?.path, restore?.body], ['/api/v1/moment/10/restore/', { message: 'back to Monday' }]);
    await booted.waitFor(() => api.calls.filter((c) => c.path === '/api/v1/depot/1/').length === 2);
    await booted.waitFor(() => api.calls.some((c) => c.path === '/api/v1/datum/by-depot/1/'));
    assert.ok(!document.querySelector('[aria-selected="true"]'), 'no moment stays selected');
    assert.ok(text().includes('Moment was restored'));
  });

  it('selects the new moment that finalize returns', async () => {
    let finalized = false;
    booted = await boot(
      '/depot/1/',
      depotRoutes({
        'POST /api/v1/moment/12/finalize/': () => ((finalized = true), moment(13, 'open')),
        'GET /api/v1/moment/': () => page(finalized ? [moment(13, 'open'), moment(12, 'final'), ...moments.slice(1)] : moments),
        'GET /api/v1/depot/1/': () => depot(1, 'Pegel', { current_moment: finalized ? moment(13, 'open') : head }),
      }),
    );
    await openMomentMenu(booted, 12, 'Finalize');
    await booted.waitFor(() => location.pathname === '/depot/1/moment/13');
    await booted.waitFor(() => byTestId('moment-13')?.getAttribute('aria-selected') === 'true');
    assert.ok(!byTestId('datum-read-only'), 'the new open head takes edits');
  });
});
