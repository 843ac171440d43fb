import { RecordingApiClient } from '@werkbank/testing/browser';
import assert from 'node:assert/strict';
import { TypeRegistry } from '@werkbank/sdk';
import type { ApiClient } from '@werkbank/sdk/browser';
import { execution, workflow } from './workflow-fixtures';
import { WorkflowRunStore } from './workflow-run-store';

const macrotasks = (n: number) =>
  Array.from({ length: n }).reduce<Promise<void>>((p) => p.then(() => new Promise((r) => setTimeout(r, 0))), Promise.resolve());

/** The type registries the tests made: they end with each test, as the workbench's ends with it. */
const registries: TypeRegistry[] = [];

function store(routes: Record<string, unknown>): { store: WorkflowRunStore; api: RecordingApiClient } {
  const api = new RecordingApiClient({
    'GET /api/v1/workflow/1/': workflow(1, 'Großschreibung'),
    'POST /api/v1/workflow/1/execute/': execution('started'),
    ...routes,
  } as never);
  const types = new TypeRegistry();
  registries.push(types);
  types.add({ id: 'core.string', name: 'string', template: { value: '' } }, 'core');
  return { store: new WorkflowRunStore(api as unknown as ApiClient, types, '/api/v1/workflow/1/', 0), api };
}

describe('switchboards: workflow run store', () => {
  afterEach(() => registries.splice(0).forEach((r) => r.dispose()));

  it('stops polling when the panel closes while the execution runs', async () => {
    const { store: s, api } = store({ 'GET /api/v1/execution/77/': execution('started') });
    await s.load();
    await s.run();
    const polls = () => api.calls.filter((c) => c.path === '/api/v1/execution/77/').length;
    while (polls() < 3) await macrotasks(1);
    s.dispose();
    const after = polls();
    await macrotasks(20);
    assert.equal(polls(), after, 'no call after dispose');
    assert.equal(s.stage, 'progress');
  });

  it('drops a poll reply that arrives after Restart', async () => {
    let answer: (e: unknown) => void = () => undefined;
    const { store: s } = store({ 'GET /api/v1/execution/77/': () => new Promise((r) => (answer = r)) });
    await s.load();
    await s.run();
    await macrotasks(3);
    s.restart();
    answer(execution('success', { results: [] }));
    await macrotasks(3);
    assert.equal(s.stage, 'input');
    assert.equal(s.execution, undefined);
  });

  it('keeps polling through a lost connection and stops at a refusal', async () => {
    let n = 0;
    const { store: s, api } = store({
      'GET /api/v1/execution/77/': () => {
        n++;
        if (n === 1) throw new Error('Failed to fetch');
        if (n === 2) return execution('started');
        throw Object.assign(new Error('Not found'), { status: 404 });
      },
    });
    await s.load();
    await s.run();
    while (n < 3) await macrotasks(1);
    await macrotasks(20);
    assert.equal(n, 3, 'no poll after the refusal');
    assert.equal(s.error, 'Not found');
    assert.equal(api.calls.filter((c) => c.method === 'GET').length, 4);
  });
});
