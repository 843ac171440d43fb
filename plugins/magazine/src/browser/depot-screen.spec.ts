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

describe('magazine: one depot and its moments (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

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
        'GET /api/v1/moment/12/finalize/': () => ((finalized = true), moment(13, 'open')),
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
