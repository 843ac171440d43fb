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

  it('test.wait rejects with the abort reason within 100 ms of an abort', async () => {
    const ctx = fakeRunContext();
    const reason = new Error('aborted by test');
    const waiting = run('test.wait', { ms: [{ value: 10_000 }] }, ctx);
    await new Promise((r) => setTimeout(r, 20));
    const abortedAt = Date.now();
    ctx.controller.abort(reason);
    await assert.rejects(waiting, (e) => e === reason);
    assert.ok(Date.now() - abortedAt < 100, `took ${Date.now() - abortedAt} ms`);

    const already = fakeRunContext();
    already.controller.abort(reason);
    await assert.rejects(run('test.wait', { ms: [{ value: 10_000 }] }, already), (e) => e === reason);
  });

  it('test.superuser requires a superuser and passes its value through', async () => {
    assert.equal(fn('test.superuser').superuser_required, true);
    assert.deepEqual((await run('test.superuser', { value: [{ value: 1 }] })).value, [{ value: 1 }]);
  });
});
