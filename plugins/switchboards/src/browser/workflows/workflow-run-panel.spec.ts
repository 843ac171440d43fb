import { boot, byTestId, failure, page, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { I18nService } from '@werkbank/sdk/browser';
import type { RecordedCall } from '@werkbank/testing/browser';
import { execution, ioFrame, workflow } from './workflow-fixtures';

const results = [
  {
    frame: '/api/v1/frame/4/',
    name: 'Großbuchstaben',
    content_type: '/api/v1/type/string/',
    items: [{ value: 'HALLO WELT' }, { value: 'ZWEITER' }],
  },
];

/** The list with workflow 1 and the calls of its run; `polls` answers GET execution 77 in turn (the last one repeats). */
function routes(polls: unknown[], extra: Record<string, unknown> = {}) {
  let n = 0;
  return {
    'GET /api/v1/workflow/': page([workflow(1, 'Großschreibung')]),
    'GET /api/v2/backend/tags/': page([]),
    'GET /api/v1/workflow/1/': workflow(1, 'Großschreibung'),
    'POST /api/v1/workflow/1/execute/': execution('started', { progress: 0, done: 0 }),
    'GET /api/v1/execution/77/': () => polls[Math.min(n++, polls.length - 1)],
    ...extra,
  };
}

const stage = () => byTestId('run-stage')?.getAttribute('data-stage');
const stringInputs = () => [...document.querySelectorAll<HTMLInputElement>('[data-testid="datum-editor-string"]')];

describe('switchboards: workflow run panel (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.unmount();
    booted = undefined;
    localStorage.clear();
  });

  async function openPanel(r: Record<string, unknown>) {
    booted = await boot('/workflows/', r);
    await booted.waitFor(() => !!byTestId('card-1'));
    byTestId('card-1')!.click();
    await booted.waitFor(() => stringInputs().length === 1);
    return booted;
  }

  it('goes from the input data through the progress to the result, and Restart returns to the input', async () => {
    const b = await openPanel(routes([execution('started'), execution('success', { results })]));
    assert.equal(stage(), 'input');
    assert.ok(text().includes('Der Text, der umgewandelt wird'), 'the input frame’s description');
    typeInto(stringInputs()[0], 'hallo welt');
    byTestId('run-inputs')!.querySelector<HTMLButtonElement>('.bp6-button')!.click(); // Add value
    await b.waitFor(() => stringInputs().length === 2);
    typeInto(stringInputs()[1], 'zweiter');

    byTestId('run-start')!.click();
    await b.waitFor(() => stage() === 'progress');
    const post = b.api.calls.find((c) => c.method === 'POST')!;
    assert.deepEqual(post.body, { inputs: { text: [{ value: 'hallo welt' }, { value: 'zweiter' }] } });
    assert.ok(byTestId('run-stop'), 'Stop is offered while it runs');
    assert.equal(byTestId('run-start'), null);
    await b.waitFor(() => byTestId('run-percent')?.textContent === '42.5 %');
    assert.ok(byTestId('run-progress')!.textContent!.includes('Running'));
    assert.ok(byTestId('run-progress')!.textContent!.includes('1 of 2 steps done'));

    await b.waitFor(() => stage() === 'result');
    assert.ok(text().includes('The execution finished successfully.'));
    const items = [...document.querySelectorAll('[data-testid="run-result-item"]')].map((td) => td.textContent);
    assert.deepEqual(items, ['HALLO WELT', 'ZWEITER']);
    assert.ok(byTestId('run-result-Großbuchstaben')!.textContent!.includes('2 items'));
    const polls = b.api.calls.filter((c) => c.path === '/api/v1/execution/77/').length;
    assert.equal(polls, 2, 'polling ends with the result');

    byTestId('run-restart')!.click();
    await b.waitFor(() => stage() === 'input');
    assert.deepEqual(
      stringInputs().map((i) => i.value),
      ['hallo welt', 'zweiter'],
      'the values entered stay for the next run',
    );
    assert.ok(byTestId('run-start'));
  });

  it('says that the execution failed and the provider should be contacted, with the server’s message', async () => {
    const failed = execution('failure', {
      runs: [
        { id: 1, node: '/api/v1/node/5/', func: 'string.upper', status: 'failure', skipped: false, exception: 'Eingabe leer' },
      ],
    });
    const b = await openPanel(routes([failed]));
    byTestId('run-start')!.click();
    await b.waitFor(() => stage() === 'result');
    assert.equal(byTestId('run-failed')!.textContent, 'The execution failed. Please contact the provider.Eingabe leer');
    assert.ok(byTestId('run-restart'), 'Restart is offered after a failure');

    const i18n = b.workbench.kernel.container.get<I18nService>(I18nService);
    await i18n.setLanguage('de', { persist: false });
    await b.waitFor(() => text().includes('Die Ausführung ist fehlgeschlagen. Bitte wenden Sie sich an den Anbieter.'));
    await i18n.setLanguage('en', { persist: false });

    byTestId('run-restart')!.click();
    await b.waitFor(() => stage() === 'input');
  });

  it('stops a running execution through its switchboard’s abort call', async () => {
    const stopped = execution('failure', { message: 'Stopped by admin' });
    const b = await openPanel(routes([execution('started')], { 'POST /api/v1/switchboard/9/abort/': stopped }));
    byTestId('run-start')!.click();
    await b.waitFor(() => !!byTestId('run-stop'));
    byTestId('run-stop')!.click();
    await b.waitFor(() => stage() === 'result');
    assert.ok(b.api.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/switchboard/9/abort/'));
    assert.ok(byTestId('run-failed')!.textContent!.includes('Stopped by admin'));
  });

  it('keeps the input stage with the server’s reason when the run is refused', async () => {
    const b = await openPanel(
      routes([], {
        'POST /api/v1/workflow/1/execute/': failure(409, 'The switchboard is running; try again when it has finished.'),
      }),
    );
    byTestId('run-start')!.click();
    await b.waitFor(() => !!byTestId('run-error'));
    assert.equal(byTestId('run-error')!.textContent, 'The switchboard is running; try again when it has finished.');
    assert.equal(stage(), 'input');
  });

  it('offers no Run without a switchboard or to who may not execute the workflow', async () => {
    booted = await boot('/workflows/', {
      'GET /api/v1/workflow/': page([workflow(1, 'Ohne'), workflow(2, 'Fremd', { access: ['read'] })]),
      'GET /api/v2/backend/tags/': page([]),
      'GET /api/v1/workflow/1/': workflow(1, 'Ohne', { switchboard: null, steps: [], input_frames: [], output_frames: [] }),
      'GET /api/v1/workflow/2/': workflow(2, 'Fremd', { access: ['read'] }),
    });
    await booted.waitFor(() => !!byTestId('card-1'));
    byTestId('card-1')!.click();
    await booted.waitFor(() => !!byTestId('run-no-switchboard'));
    assert.equal(byTestId<HTMLButtonElement>('run-start')!.disabled, true);
    document.querySelector<HTMLButtonElement>('.bp6-dialog-close-button')!.click();
    await booted.waitFor(() => !byTestId('run-no-switchboard'));

    byTestId('card-2')!.click();
    await booted.waitFor(() => text().includes('You may view this workflow but not run it.'));
    assert.equal(byTestId<HTMLButtonElement>('run-start')!.disabled, true);
  });

  it('starts a frame of a type the browser does not know with the template from the server', async () => {
    const pegel = workflow(1, 'Pegel', { input_frames: [ioFrame(3, 'messung', 'pegel', 1)] });
    booted = await boot('/workflows/', {
      ...routes([execution('success', { results: [] })]),
      'GET /api/v1/workflow/1/': pegel,
      'GET /api/v1/type/pegel/': { name: 'pegel', template: { station: '', level: 0 } },
    });
    await booted.waitFor(() => !!byTestId('card-1'));
    byTestId('card-1')!.click();
    await booted.waitFor(() => !!byTestId('datum-editor-generic'));
    byTestId('run-start')!.click();
    await booted.waitFor(() => text().includes('The execution wrote no results.'));
    const post = booted.api.calls.find((c: RecordedCall) => c.method === 'POST')!;
    assert.deepEqual(post.body, { inputs: { messung: [{ station: '', level: 0 }] } });
  });
});
