import { boot, byTestId, failure, page, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import type { RecordedCall } from '@werkbank/testing/browser';
import { choose, editorProbe, switchboard } from './lists-test-fixtures';
import type { ListedSwitchboard } from './switchboard-entries';

const ADDRESS = '/api/v1/switchboard/1/';

function routes(sb: ListedSwitchboard, patch: unknown = (c: RecordedCall) => ({ ...sb, ...(c.body as object) })) {
  return { [`GET ${ADDRESS}`]: sb, [`PATCH ${ADDRESS}`]: patch, 'GET /api/v1/user/': page([]), 'GET /api/v1/group/': page([]) };
}

const tab = (name: string) => [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === name)!;
const input = <T extends HTMLElement = HTMLInputElement>(id: string) => byTestId<T>(id)!;
const select = (id: string) => input<HTMLSelectElement>(id);
const checked = (id: string) => input(id).checked;

async function openExecution(booted: BootedWorkbench) {
  await booted.waitFor(() => tab('Execution') !== undefined);
  tab('Execution').click();
  await booted.waitFor(() => !!byTestId('execution-periodic'));
}

describe('switchboards: the switchboard editor (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
  });

  it('shows the recurrence editor and the next run only while time-based execution is ticked, with the spec’s defaults', async () => {
    const closed: boolean[] = [];
    booted = await boot('/probe/', routes(switchboard(1, 'Pegel')), [editorProbe(ADDRESS, closed)]);
    await openExecution(booted);
    assert.ok(!byTestId('recurrence-editor') && !byTestId('next-run'), 'nothing while unticked');

    input('execution-periodic').click();
    await booted.waitFor(() => !!byTestId('recurrence-editor') && !!byTestId('next-run'));
    assert.equal(select('recurrence-freq').value, 'daily');
    assert.match(byTestId('next-run')!.textContent!, /^The next scheduled execution is \d{4}-\d\d-\d\d at 00:00$/);

    choose(select('recurrence-freq'), 'weekly');
    await booted.waitFor(() => !!byTestId('recurrence-weekday-MO'));
    assert.ok(checked('recurrence-weekday-MO'), 'weekly defaults to Monday');
    input('recurrence-weekday-MO').click();
    await booted.waitFor(() => checked('recurrence-weekday-MO'));

    choose(select('recurrence-freq'), 'monthly');
    await booted.waitFor(() => !!byTestId('recurrence-month-1'));
    assert.ok(checked('recurrence-month-1'), 'monthly defaults to January');
    assert.equal(select('recurrence-monthday').options.length, 31);
    choose(select('recurrence-monthday'), '31');

    choose(select('recurrence-freq'), 'yearly');
    await booted.waitFor(() => select('recurrence-monthday').value === '31');
    input('recurrence-month-2').click();
    await booted.waitFor(() => checked('recurrence-month-2'));
    assert.equal(select('recurrence-monthday').options.length, 28, 'February has 28 days in a yearly rule');
    assert.equal(select('recurrence-monthday').value, '28', 'the day moves into the month');
    assert.equal(select('recurrence-hour').options.length, 24);
    assert.equal(select('recurrence-minute').options.length, 60);

    choose(select('recurrence-freq'), 'weekly');
    await booted.waitFor(() => !!byTestId('recurrence-weekday-FR'));
    input('recurrence-weekday-FR').click();
    choose(select('recurrence-hour'), '6');
    choose(select('recurrence-minute'), '30');
    await booted.waitFor(() => / at 06:30$/.test(byTestId('next-run')!.textContent!));
    assert.ok(text().includes('every week'));
    typeInto(document.querySelector<HTMLInputElement>('#recurrence-interval')!, '2');
    await booted.waitFor(() => text().includes('every 2 weeks'));

    byTestId('switchboard-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, {
      periodic_execution: true,
      periodic_execution_rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;BYHOUR=6;BYMINUTE=30',
    });
    assert.deepEqual(closed, [true]);
  });

  it('says the next run in German, and hides it again when time-based execution is unticked', async () => {
    const sb = switchboard(1, 'Pegel', { periodic_execution: true, periodic_execution_rule: 'FREQ=DAILY;BYHOUR=5;BYMINUTE=15' });
    booted = await boot('/probe/', routes(sb), [editorProbe(ADDRESS)]);
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => tab('Ausführung') !== undefined);
    tab('Ausführung').click();
    await booted.waitFor(() => !!byTestId('next-run'));
    assert.match(byTestId('next-run')!.textContent!, /^Die nächste geplante Ausführung ist am \d\d\.\d\d\.\d{4} um 05:15 Uhr$/);
    input('execution-periodic').click();
    await booted.waitFor(() => !byTestId('next-run') && !byTestId('recurrence-editor'));
  });

  it('shows the server’s refusals in the dialog: 400 invalid_rule and 403 schedule_denied', async () => {
    let answer = failure(400, 'The day does not exist in the chosen month.');
    const closed: boolean[] = [];
    booted = await boot(
      '/probe/',
      routes(switchboard(1, 'Pegel'), () => answer()),
      [editorProbe(ADDRESS, closed)],
    );
    await openExecution(booted);
    input('execution-periodic').click();
    await booted.waitFor(() => !!byTestId('recurrence-editor'));
    byTestId('switchboard-save')!.click();
    await booted.waitFor(() => !!byTestId('switchboard-editor-error'));
    assert.equal(byTestId('switchboard-editor-error')!.textContent, 'The day does not exist in the chosen month.');
    assert.deepEqual(closed, [], 'the editor stays open');

    input('execution-periodic').click();
    input('execution-automatic').click();
    await booted.waitFor(() => checked('execution-automatic'));
    answer = failure(403, 'Only who may run this switchboard can let it run automatically or on a schedule.');
    byTestId('switchboard-save')!.click();
    await booted.waitFor(() => byTestId('switchboard-editor-error')?.textContent?.startsWith('Only who may run') === true);
    assert.deepEqual(booted.api.calls.filter((c) => c.method === 'PATCH').at(-1)!.body, { automatic: true });
  });

  it('offers only turning scheduling off to who may not run the switchboard', async () => {
    const sb = switchboard(1, 'Pegel', {
      access: ['read', 'write'],
      periodic_execution: true,
      periodic_execution_rule: 'FREQ=HOURLY;BYMINUTE=5',
    });
    booted = await boot('/probe/', routes(sb), [editorProbe(ADDRESS)]);
    await openExecution(booted);
    assert.ok(byTestId('schedule-needs-execute'));
    assert.equal(input('execution-automatic').disabled, true, 'automatic cannot be turned on');
    assert.equal(select('recurrence-freq').disabled, true, 'the rule cannot change');
    assert.ok(!byTestId('recurrence-hour'), 'hourly rules have no hour');
    assert.equal(input('execution-periodic').disabled, false, 'but periodic execution can be turned off');
    input('execution-periodic').click();
    await booted.waitFor(() => !byTestId('recurrence-editor'));
    assert.equal(input('execution-periodic').disabled, true, 'and not on again');
  });

  it('copies the API call address, and names a stored rule it cannot read', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (s: string) => void copied.push(s) },
      configurable: true,
    });
    const sb = switchboard(1, 'Pegel', { periodic_execution: true, periodic_execution_rule: 'FREQ=DAILY;COUNT=3' });
    booted = await boot('/probe/', routes(sb), [editorProbe(ADDRESS)]);
    await openExecution(booted);
    assert.equal(input('switchboard-api-url').value, 'http://localhost/api/v1/switchboard/1/execute/');
    byTestId('copy-api-url')!.click();
    await booted.waitFor(() => text().includes('Text copied to clipboard'));
    assert.deepEqual(copied, ['http://localhost/api/v1/switchboard/1/execute/']);
    assert.match(
      byTestId('recurrence-unreadable')!.textContent!,
      /cannot be read \(The recurrence rule uses a part this editor does not support\.\)/,
    );
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('edits name and description, labels the rights View, Run, Edit, and is read-only for a reader', async () => {
    booted = await boot('/probe/', routes(switchboard(1, 'Pegel')), [editorProbe(ADDRESS)]);
    await booted.waitFor(() => !!document.querySelector('#switchboard-name'));
    typeInto(document.querySelector<HTMLInputElement>('#switchboard-name')!, 'Pegel Elbe ');
    typeInto(document.querySelector<HTMLTextAreaElement>('#switchboard-description')!, 'Wasserstände');
    tab('Permissions').click();
    await booted.waitFor(() => !!byTestId('permissions-editor'));
    const heads = [...byTestId('permissions-editor')!.querySelectorAll('th')].map((th) => th.textContent);
    assert.deepEqual(heads, ['User or group', 'View', 'Run', 'Edit', '']);
    byTestId('switchboard-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'PATCH')!.body, {
      name: 'Pegel Elbe',
      description: 'Wasserstände',
    });
    await booted.unmount();

    booted = await boot('/probe/', routes(switchboard(1, 'Pegel', { access: ['read'], owner: '/api/v1/user/2/' })), [
      editorProbe(ADDRESS),
    ]);
    await booted.waitFor(() => !!byTestId('switchboard-read-only'));
    assert.equal(document.querySelector<HTMLInputElement>('#switchboard-name')!.disabled, true);
    assert.ok(!byTestId('switchboard-save'), 'nothing to save');
    await openExecution(booted);
    assert.equal(input('execution-periodic').disabled, true);
  });
});
