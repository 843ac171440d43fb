import assert from 'node:assert/strict';
import type { FunctionInputs, FunctionOutputs } from '@werkbank/sdk/node';
import { NUMBER_FUNCTIONS, roundTo } from './number-functions';
import { BOOL_FUNCTIONS } from './bool-functions';
import { fakeRunContext } from '@werkbank/testing/node';
import { CHUNK } from './frame-items';

const fn = (id: string) => [...NUMBER_FUNCTIONS, ...BOOL_FUNCTIONS].find((f) => f.id === id)!;
const values = (...xs: unknown[]) => xs.map((value) => ({ value }));
const run = (id: string, inputs: FunctionInputs, ctx = fakeRunContext()): Promise<FunctionOutputs> => fn(id).run(inputs, ctx);
const result = async (id: string, inputs: FunctionInputs) => (await run(id, inputs)).result.map((i) => i.value);

describe('basic functions: numbers and booleans (element-wise)', () => {
  it('adds, subtracts, multiplies and divides item by item', async () => {
    const inputs = { a: values(6, 8, 10), b: values(3, 2, 5) };
    assert.deepEqual(await result('number.add', inputs), [9, 10, 15]);
    assert.deepEqual(await result('number.subtract', inputs), [3, 6, 5]);
    assert.deepEqual(await result('number.multiply', inputs), [18, 16, 50]);
    assert.deepEqual(await result('number.divide', inputs), [2, 4, 2]);
  });

  it('uses a one-item input with every item of the other (broadcasting), in either order', async () => {
    assert.deepEqual(await result('number.multiply', { a: values(1, 2, 3), b: values(10) }), [10, 20, 30]);
    assert.deepEqual(await result('number.subtract', { a: values(10), b: values(1, 2, 3) }), [9, 8, 7]);
    assert.deepEqual(await result('number.add', { a: values(1), b: values(2) }), [3]);
    assert.deepEqual(await result('number.add', { a: values(), b: values(2) }), [], 'an empty frame with one item gives none');
  });

  it('fails with the item counts when lengths differ and neither has one item', async () => {
    await assert.rejects(run('number.add', { a: values(1, 2, 3), b: values(1, 2) }), (e: any) => {
      assert.equal(e.code, 'length_mismatch');
      assert.equal(e.key, 'basic-functions:errors.length_mismatch');
      assert.equal(e.params.counts, 'a: 3, b: 2');
      return true;
    });
    await assert.rejects(run('bool.and', { a: values(true, false), b: values() }), { code: 'length_mismatch' });
  });

  it('fails clearly on division by zero and on items that are not numbers, naming the item', async () => {
    await assert.rejects(run('number.divide', { a: values(1, 2), b: values(1, 0) }), (e: any) => {
      assert.equal(e.code, 'division_by_zero');
      assert.equal(e.params.item, 'b[1]');
      return true;
    });
    await assert.rejects(
      run('number.add', { a: values(1, '2'), b: values(1) }),
      (e: any) => e.code === 'not_a_number' && e.params.item === 'a[1]',
    );
    await assert.rejects(run('number.multiply', { a: values(1, 1e308), b: values(10) }), (e: any) => {
      assert.equal(e.code, 'not_finite');
      assert.deepEqual(e.params, { item: 'result[1]' });
      return true;
    });
  });

  it('rounds halves away from zero at the given decimal places', async () => {
    assert.deepEqual(await result('number.round', { value: values(1.5, -1.5, 2.4, 1.005) }), [2, -2, 2, 1]);
    assert.deepEqual(await result('number.round', { value: values(1.005, 3.14159), digits: values(2) }), [1.01, 3.14]);
    assert.equal(roundTo(-2.675, 2), -2.68);
    await assert.rejects(run('number.round', { value: values(1), digits: values(1.5) }), { code: 'invalid_digits' });
    // 0 to 15 decimal places.
    assert.deepEqual(await result('number.round', { value: values(0.1 + 0.2), digits: values(15) }), [0.3]);
    for (const digits of [-1, 16]) {
      await assert.rejects(
        run('number.round', { value: values(1), digits: values(digits) }),
        { code: 'invalid_digits' },
        `${digits}`,
      );
    }
  });

  it('sums all items into one, 0 for none', async () => {
    assert.deepEqual(await result('number.sum', { values: values(1, 2, 3.5) }), [6.5]);
    assert.deepEqual(await result('number.sum', { values: [] }), [0]);
    await assert.rejects(run('number.sum', { values: values(1, 'zwei') }), (e: any) => {
      assert.equal(e.code, 'not_a_number');
      assert.deepEqual(e.params, { item: 'values[1]' });
      return true;
    });
  });

  it('compares with an operator (default ==), refusing unknown operators', async () => {
    assert.deepEqual(await result('number.compare', { a: values(1, 2, 3), b: values(2) }), [false, true, false]);
    assert.deepEqual(await result('number.compare', { a: values(1, 2, 3), b: values(2), operator: values('>=') }), [
      false,
      true,
      true,
    ]);
    await assert.rejects(run('number.compare', { a: values(1), b: values(2), operator: values('constructor') }), {
      code: 'invalid_operator',
    });
  });

  it('knows every operator it offers, with spaces around it as typed', async () => {
    const a = values(1, 2, 3);
    const b = values(2);
    const expected: Record<string, boolean[]> = {
      '<': [true, false, false],
      '<=': [true, true, false],
      '==': [false, true, false],
      '!=': [true, false, true],
      '>=': [false, true, true],
      '>': [false, false, true],
    };
    for (const [operator, want] of Object.entries(expected)) {
      assert.deepEqual(await result('number.compare', { a, b, operator: values(` ${operator} `) }), want, operator);
    }
    await assert.rejects(run('number.compare', { a, b, operator: values('=>') }), (e: any) => {
      assert.equal(e.code, 'invalid_operator');
      assert.deepEqual(e.params, { operator: '=>' });
      return true;
    });
  });

  it('gives no items when an input has none or is not linked', async () => {
    assert.deepEqual(await result('bool.and', { a: values(true) }), []);
  });

  it('refuses numbers JSON cannot carry as input items', async () => {
    for (const x of [NaN, Infinity]) {
      await assert.rejects(run('number.add', { a: values(1, x), b: values(1) }), (e: any) => {
        assert.equal(e.code, 'not_a_number');
        assert.deepEqual(e.params, { item: 'a[1]' });
        return true;
      });
    }
  });

  it('combines booleans item by item', async () => {
    assert.deepEqual(await result('bool.and', { a: values(true, true, false), b: values(true, false, false) }), [
      true,
      false,
      false,
    ]);
    assert.deepEqual(await result('bool.or', { a: values(true, false), b: values(false) }), [true, false]);
    assert.deepEqual(await result('bool.not', { value: values(true, false) }), [false, true]);
    await assert.rejects(run('bool.not', { value: values('yes') }), { code: 'not_a_bool' });
  });

  it('reports progress on long inputs and stops with the signal’s reason when aborted', async () => {
    const many = values(...Array.from({ length: 5 * CHUNK }, (_, i) => i));
    const ctx = fakeRunContext();
    assert.equal((await run('number.add', { a: many, b: values(1) }, ctx)).result.length, 5 * CHUNK);
    // Once per chunk of items, then 1 when done.
    assert.deepEqual(ctx.progresses, [0, 0.2, 0.4, 0.6, 0.8, 1]);
    // Up to a chunk of items, no progress at all: it would only flicker.
    for (const n of [10, CHUNK]) {
      const short = fakeRunContext();
      await run('number.add', { a: values(...Array.from({ length: n }, (_, i) => i)), b: values(1) }, short);
      assert.deepEqual(short.progresses, [], `${n} items`);
    }

    const aborted = fakeRunContext();
    const reason = new Error('stopped by the user');
    const running = run('number.add', { a: many, b: values(1) }, aborted);
    aborted.controller.abort(reason);
    await assert.rejects(running, (e) => e === reason);
  });
});
