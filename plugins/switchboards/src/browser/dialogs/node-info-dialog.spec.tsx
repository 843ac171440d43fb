import { boot, byTestId, failure, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import { node, port, press, probe, run } from './dialogs-test-kit';
import assert from 'node:assert/strict';
import { I18nService } from '@werkbank/sdk/browser';
import { useState } from '@werkbank/sdk/react';
import { NodeInfoDialog, type NodeInfoDialogProps } from './node-info-dialog';
import type { SbNode } from '../../common/switchboard-types';

let props: Omit<NodeInfoDialogProps, 'onClose'> = { node: node() };
let writable = false;
let closed = 0;

/** Gives the open dialog a changed node, as the canvas does on live updates. */
let setNode: (n: SbNode) => void = () => undefined;

function Probe() {
  const [n, set] = useState(props.node);
  setNode = set;
  return (
    <NodeInfoDialog
      node={n}
      initialTab={props.initialTab}
      linked={props.linked}
      onChanged={props.onChanged ? set : undefined}
      onClose={() => closed++}
    />
  );
}

const RUNS = '/api/v2/switchboard/nodes/7/runs/';
const tabTitles = () => [...document.body.querySelectorAll('[role="tab"]')].map((t) => t.textContent);
const openTab = (title: string) =>
  [...document.body.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === title)!.click();

async function open(
  n: SbNode,
  routes: Record<string, unknown> = {},
  opts: { initialTab?: 'info' | 'runs'; nodeRuns?: boolean } = {},
): Promise<BootedWorkbench> {
  props = { node: n, initialTab: opts.initialTab, ...(writable ? { onChanged: () => undefined, linked: ['frame'] } : {}) };
  const booted = await boot('/probe/', routes, [probe(Probe)], { node_runs: opts.nodeRuns ?? true });
  await booted.waitFor(() => !!byTestId('node-info-dialog'));
  return booted;
}

describe('switchboards: node information dialog (jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  beforeEach(() => ((closed = 0), (writable = false)));
  afterEach(async () => booted?.unmount());

  it('has no Runs tab without the node_runs component, even when asked to open it', async () => {
    booted = await open(node(), {}, { initialTab: 'runs', nodeRuns: false });
    assert.deepEqual(tabTitles(), ['Information']);
    assert.ok(byTestId('node-info'));
    assert.equal(booted.api.calls.filter((c) => c.path === RUNS).length, 0);
  });

  it('shows the function, its doc, the status text, the ports with their types and the last run', async () => {
    const n = node({ last_run: '/api/v1/noderun/5/' });
    booted = await open(n, { 'GET /api/v1/noderun/5/': run(5, 'success') });
    assert.deepEqual(tabTitles(), ['Information', 'Runs']);
    assert.match(text(), /Upper case/);
    assert.match(text(), /string\.upper/);
    assert.match(text(), /Turns text into upper case\./);
    assert.equal(byTestId('node-status')!.textContent, 'Executed successfully');
    const ports = byTestId('node-ports')!.textContent!;
    assert.match(ports, /valueInputstringabc/);
    assert.match(ports, /resultOutputstring/);
    await booted.waitFor(() => !!byTestId('node-last-run'));
    assert.match(byTestId('node-last-run')!.textContent!, /\(2\.5 s\)/);
  });

  it('lets the author edit an unlinked input’s value with its type’s editor; a linked input takes its frame (issue 14 item 13)', async () => {
    writable = true;
    const base = node({
      access: ['read', 'write'],
      ports: [
        port('value', 'string', true, { default_value: { value: 'abc' } }),
        port('frame', 'any', true),
        port('result', 'string', false),
      ],
    });
    const saved = {
      ...base,
      ports: [port('value', 'string', true, { default_value: { value: 'xyz' } }), ...base.ports.slice(1)],
    };
    booted = await open(base, { 'PATCH /api/v1/node/7/': saved });
    const cell = (name: string) => document.querySelector<HTMLElement>(`[data-testid="node-ports"] [data-port="${name}"]`);
    assert.match(byTestId('node-ports')!.textContent!, /from the linked frame/);
    cell('value')!.querySelector<HTMLElement>('[data-testid="port-value-edit"]')!.click();
    await booted.waitFor(() => !!byTestId('datum-editor-string'));
    assert.equal(byTestId<HTMLInputElement>('datum-editor-string')!.value, 'abc');
    typeInto(byTestId<HTMLInputElement>('datum-editor-string')!, 'xyz');
    byTestId('port-value-save')!.click();
    await booted.waitFor(() => !byTestId('port-value-editor'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'PATCH')!.body, {
      ports: [{ name: 'value', default_value: { value: 'xyz' } }],
    });
    await booted.waitFor(() => cell('value')?.textContent?.startsWith('xyz') === true);
  });

  it('shows why the server refused a value and keeps the editor open', async () => {
    writable = true;
    booted = await open(node({ access: ['read', 'write'] }), {
      'PATCH /api/v1/node/7/': failure(400, 'The value of value does not fit the data type string.'),
    });
    byTestId('port-value-edit')!.click();
    await booted.waitFor(() => !!byTestId('port-value-save'));
    byTestId('port-value-save')!.click();
    await booted.waitFor(() => !!byTestId('port-value-error'));
    assert.match(byTestId('port-value-error')!.textContent!, /does not fit/);
    assert.ok(byTestId('port-value-editor'));
  });

  it('names the statuses as spec 002 §4 does and shows the exception of a failed node', async () => {
    for (const [status, label] of [
      ['initialized', 'Created'],
      ['waiting', 'Running'],
      ['started', 'Running'],
    ] as const) {
      booted = await open(node({ status }));
      assert.equal(byTestId('node-status')!.textContent, label);
      await booted.unmount();
    }
    booted = await open(node({ status: 'failure', runinfo: { progress: 0, count: 0, exception: 'Input value is missing' } }));
    assert.equal(byTestId('node-status')!.textContent, 'Failed');
    assert.match(byTestId('node-exception')!.textContent!, /Input value is missing/);
  });

  it('shows a failed load of the runs as a red callout headed Error', async () => {
    booted = await open(node(), { [`GET ${RUNS}`]: failure(500, 'The database is not reachable.') }, { initialTab: 'runs' });
    await booted.waitFor(() => !!byTestId('runs-error'));
    const callout = byTestId('runs-error')!;
    assert.ok(callout.className.includes('intent-danger'));
    assert.match(callout.textContent!, /^Error/);
    assert.match(callout.textContent!, /The database is not reachable\./);
  });

  it('says that no run data is available, in English and German', async () => {
    booted = await open(node(), { [`GET ${RUNS}`]: { items: [] } });
    openTab('Runs');
    await booted.waitFor(() => !!byTestId('runs-empty'));
    assert.equal(byTestId('runs-empty')!.textContent, 'No run data is available for this node.');
    await booted.workbench.kernel.container.get<I18nService>(I18nService).i18n.changeLanguage('de');
    await booted.waitFor(() => byTestId('runs-empty')?.textContent === 'Für diesen Knoten sind keine Laufdaten vorhanden.');
  });

  it('loads the runs again when the node has run', async () => {
    let items: unknown[] = [];
    booted = await open(node({ status: 'initialized' }), { [`GET ${RUNS}`]: () => ({ items }) }, { initialTab: 'runs' });
    await booted.waitFor(() => !!byTestId('runs-empty'));
    items = [run(13, 'success')];
    setNode(node({ status: 'success', last_run: '/api/v1/noderun/13/' }));
    await booted.waitFor(() => !!byTestId('run-row-13'));
    assert.equal(byTestId('runs-empty'), null);
  });

  it('lists the runs and opens one with its stacktrace, log, parameters and moments; Replay repeats it', async () => {
    const failed = run(12, 'failure', {
      log: '2026-11-20T10:00:01Z reading depot 3',
      parameters: { value: { value: 'abc' } },
      moments_read: [{ depot_id: 3, moment_id: 40 }],
      moments_written: [],
    });
    booted = await open(
      node({ status: 'failure' }),
      {
        [`GET ${RUNS}`]: { items: [run(12, 'failure'), run(11, 'success')] },
        'GET /api/v1/noderun/12/': failed,
        'POST /api/v1/noderun/12/replay/': { id: 3, status: 'started' },
      },
      { initialTab: 'runs' },
    );
    await booted.waitFor(() => !!byTestId('run-row-12'));
    assert.match(byTestId('run-row-12')!.textContent!, /Failed.*alice2\.5 s/);
    assert.match(byTestId('run-row-11')!.textContent!, /Succeeded/);
    press(byTestId('run-row-12')!, 'Enter');
    await booted.waitFor(() => !!byTestId('run-stacktrace'));
    const trace = byTestId('run-stacktrace')!;
    assert.equal(trace.tagName, 'PRE');
    assert.equal(trace.style.overflow, 'auto');
    assert.match(trace.textContent!, /Error: boom\n {4}at run/);
    assert.match(byTestId('run-exception')!.textContent!, /boom/);
    assert.match(byTestId('run-log')!.textContent!, /reading depot 3/);
    assert.match(byTestId('run-parameters')!.textContent!, /value\{"value":"abc"\}/);
    assert.match(byTestId('run-details')!.textContent!, /Depot 3, moment 40/);
    byTestId('run-replay')!.click();
    await booted.waitFor(() => text().includes('The run is being repeated with the same inputs.'));
    assert.ok(booted.api.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/noderun/12/replay/'));
  });

  it('offers a support request only for a failed run; the message is optional', async () => {
    let bodies: unknown[] = [];
    booted = await open(
      node(),
      {
        [`GET ${RUNS}`]: { items: [run(12, 'failure'), run(11, 'success', { replayable: false })] },
        'GET /api/v1/noderun/11/': run(11, 'success', { replayable: false }),
        'GET /api/v1/noderun/12/': run(12, 'failure'),
        'POST /api/v1/noderun/12/support/': (c: { body: unknown }) => (bodies.push(c.body), { status: 'sent' }),
      },
      { initialTab: 'runs' },
    );
    await booted.waitFor(() => !!byTestId('run-row-11'));
    byTestId('run-row-11')!.click();
    await booted.waitFor(() => byTestId('run-status')?.textContent === 'Succeeded');
    assert.equal(byTestId('support-request'), null, 'no support request for a successful run');
    assert.equal(byTestId('run-replay'), null, 'no replay without kept inputs');

    bodies = [];
    byTestId('run-row-12')!.click();
    await booted.waitFor(() => !!byTestId('support-send'));
    byTestId('support-send')!.click();
    await booted.waitFor(() => !!byTestId('support-sent'));
    assert.deepEqual(bodies, [{}]);
    await booted.waitFor(() => text().includes('Your support request has been sent.'));
  });

  it('sends the message of a support request and shows a refusal in the dialog', async () => {
    let calls = 0;
    const bodies: unknown[] = [];
    booted = await open(
      node(),
      {
        [`GET ${RUNS}`]: { items: [run(12, 'failure')] },
        'GET /api/v1/noderun/12/': run(12, 'failure'),
        'POST /api/v1/noderun/12/support/': (c: { body: unknown }) => {
          bodies.push(c.body);
          if (++calls === 1) return failure(429, 'You have just asked for support with this run.')();
          return { status: 'sent' };
        },
      },
      { initialTab: 'runs' },
    );
    await booted.waitFor(() => !!byTestId('run-row-12'));
    byTestId('run-row-12')!.click();
    await booted.waitFor(() => !!byTestId('support-message'));
    typeInto(byTestId<HTMLTextAreaElement>('support-message')!, '  Seit gestern schlägt der Import fehl.  ');
    await booted.waitFor(() => byTestId<HTMLTextAreaElement>('support-message')!.value.startsWith('  Seit'));
    byTestId('support-send')!.click();
    await booted.waitFor(() => !!byTestId('support-error'));
    assert.match(byTestId('support-error')!.textContent!, /You have just asked for support with this run\./);
    byTestId('support-send')!.click();
    await booted.waitFor(() => !!byTestId('support-sent'));
    assert.deepEqual(bodies, [
      { message: 'Seit gestern schlägt der Import fehl.' },
      { message: 'Seit gestern schlägt der Import fehl.' },
    ]);
  });
});
