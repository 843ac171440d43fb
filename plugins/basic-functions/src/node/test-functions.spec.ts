import assert from 'node:assert/strict';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { TEST_FUNCTIONS } from './test-functions';
import { fakeRunContext } from '@werkbank/testing/node';

const fn = (id: string) => TEST_FUNCTIONS.find((f) => f.id === id)!;
const run = (id: string, inputs: FunctionInputs, ctx = fakeRunContext()) => fn(id).run(inputs, ctx);

describe('basic functions: hidden test functions', () => {
  it('test.fail fails with the given message, or a translated one', async () => {
    assert.equal(fn('test.fail').hidden, true);
    await assert.rejects(run('test.fail', { message: [{ value: 'boom' }] }), { message: 'boom' });
    await assert.rejects(run('test.fail', {}), { code: 'test_fail' });
  });

  it('test.wait waits, reports progress and passes its value through', async () => {
    const ctx = fakeRunContext();
    const started = Date.now();
    const out = await run('test.wait', { ms: [{ value: 60 }], value: [{ value: 'a' }, { value: 'b' }] }, ctx);
    assert.ok(Date.now() - started >= 55);
    assert.deepEqual(out.value, [{ value: 'a' }, { value: 'b' }]);
    assert.equal(ctx.progresses.at(-1), 1);
    assert.ok(ctx.progresses.length >= 2, 'progress while waiting');
  });

  it('test.wait rejects with the abort reason when aborted while waiting', async () => {
    const ctx = fakeRunContext();
    const reason = new Error('aborted by test');
    // An hour: only the abort can end this wait within the test's time.
    const waiting = run('test.wait', { ms: [{ value: 3_600_000 }] }, ctx);
    await new Promise((r) => setImmediate(r));
    ctx.controller.abort(reason);
    await assert.rejects(waiting, (e) => e === reason);

    const already = fakeRunContext();
    already.controller.abort(reason);
    await assert.rejects(run('test.wait', { ms: [{ value: 10_000 }] }, already), (e) => e === reason);
  });

  it('test.superuser requires a superuser and passes its value through', async () => {
    assert.equal(fn('test.superuser').superuser_required, true);
    assert.deepEqual((await run('test.superuser', { value: [{ value: 1 }] })).value, [{ value: 1 }]);
  });
});
