import assert from 'node:assert/strict';
import { ApiError, WorkerPool } from '@werkbank/sdk/node';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus } from './api-test-support';

const TASKS = new URL('./fixtures/pool-tasks.ts', import.meta.url).href;

describe('the worker pool: CPU-heavy work leaves the server answering (issue 14 item 4)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let pool: WorkerPool;
  before(async () => {
    t = await startTestServer({ plugins: ['tags'], config: { workerThreads: 1 } });
    pool = t.server.kernel.container.get<WorkerPool>(WorkerPool);
  });
  after(async () => t?.close());

  it('answers API calls while a computation keeps a thread busy, and hands back its result', async () => {
    const flag = new SharedArrayBuffer(8);
    let settled = false;
    const running = pool
      .run<{ flag: SharedArrayBuffer }, number>({ module: TASKS, name: 'spin' }, { flag })
      .finally(() => (settled = true));
    // Waits (on the flag, no sleep) until the task runs in its thread.
    const started = Atomics.waitAsync(new Int32Array(flag), 1, 0);
    if (started.async) await started.value;
    const admin = await t.admin();
    for (let i = 0; i < 5; i++) expectStatus(await admin.get('/api/v2/backend/config'), 200);
    expectStatus(await admin.get('/api/v2/backend/tags/'), 200);
    assert.equal(settled, false, 'the computation is still running while the API answered six calls');
    Atomics.store(new Int32Array(flag), 0, 1);
    assert.ok((await running) > 0);
  });

  it('stops a task past its time limit with a reason in the caller’s words, and the pool goes on', async () => {
    const flag = new SharedArrayBuffer(8);
    await assert.rejects(
      pool.run({ module: TASKS, name: 'spin' }, { flag }, { timeLimitMs: 300 }),
      (e: unknown) => e instanceof ApiError && e.status === 408 && e.code === 'time_limit',
    );
    assert.equal(await pool.run({ module: TASKS, name: 'double' }, { value: 21 }), 42);
  });

  it('stops a task when its run is aborted', async () => {
    const flag = new SharedArrayBuffer(8);
    const abort = new AbortController();
    const running = pool.run({ module: TASKS, name: 'spin' }, { flag }, { signal: abort.signal });
    abort.abort(new Error('run stopped by the user'));
    await assert.rejects(running, /run stopped by the user/);
  });

  it('hands on an ApiError the task throws, with its reason and field', async () => {
    await assert.rejects(
      pool.run({ module: TASKS, name: 'refuse' }, { value: 7 }),
      (e: unknown) => e instanceof ApiError && e.code === 'not_a_degree' && e.field === 'value' && e.params.value === 7,
    );
  });
});
