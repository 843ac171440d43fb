import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
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
    // Fractions of the time waited, growing, and 1 when it is over.
    const shown = `progress ${ctx.progresses.join(', ')}`;
    assert.ok(
      ctx.progresses.every((f, i) => f >= 0 && f <= 1 && f >= (ctx.progresses[i - 1] ?? 0)),
      shown,
    );
    assert.ok(
      ctx.progresses.some((f) => f < 1),
      shown,
    );
    assert.deepEqual(ctx.logs, ['waiting 60 ms']);
  });

  it('test.wait stops reporting and listening once it ends or is aborted', async () => {
    // Progress comes at least every 50 ms while waiting; a timer set for twice that fires after
    // any such report that was still due.
    const laterThanATick = () => new Promise((r) => setTimeout(r, 100));
    const ended = fakeRunContext();
    const listeners = getEventListeners(ended.signal, 'abort').length;
    await run('test.wait', { ms: [{ value: 20 }] }, ended);
    const reported = ended.progresses.length;
    await laterThanATick();
    assert.equal(ended.progresses.length, reported);
    assert.equal(getEventListeners(ended.signal, 'abort').length, listeners);

    const aborted = fakeRunContext();
    const waiting = run('test.wait', { ms: [{ value: 3_600_000 }] }, aborted);
    await new Promise((r) => setImmediate(r));
    aborted.controller.abort(new Error('stopped'));
    await assert.rejects(waiting, /stopped/);
    const reportedBeforeAbort = aborted.progresses.length;
    await laterThanATick();
    assert.equal(aborted.progresses.length, reportedBeforeAbort);
  });

  it('test.wait passes its value on at once without ms, and refuses a negative or non-numeric ms', async () => {
    assert.deepEqual((await run('test.wait', { value: [{ value: 'now' }] })).value, [{ value: 'now' }]);
    for (const ms of [-1, 'soon']) {
      await assert.rejects(run('test.wait', { ms: [{ value: ms }] }), (e: any) => {
        assert.equal(e.code, 'not_a_number');
        assert.deepEqual(e.params, { item: 'ms[0]' });
        return true;
      });
    }
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
