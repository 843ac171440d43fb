import assert from 'node:assert/strict';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { FRAME_FUNCTIONS } from './frame-functions';
import { fakeRunContext } from '@werkbank/testing/node';

const run = (id: string, inputs: FunctionInputs) => FRAME_FUNCTIONS.find((f) => f.id === id)!.run(inputs, fakeRunContext());
const param = (value: unknown) => [{ value }];
const feature = (properties: Record<string, unknown>) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 47] }, properties },
});
const rows = [
  { value: { kind: 'house', height: 12 } },
  { value: { kind: 'tree', height: 5 } },
  { value: { kind: 'house', height: 3 } },
];

describe('basic functions: frames of any type', () => {
  it('merges the frames of a list port in slot order', async () => {
    const out = await run('frame.merge', { frames: [param('a'), [], [{ value: 'b' }, { value: 'c' }]] });
    assert.deepEqual(out.frame, [{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
    assert.deepEqual((await run('frame.merge', {})).frame, []);
    await assert.rejects(run('frame.merge', { frames: [param('a'), 'b' as never] }), (e: any) => {
      assert.equal(e.code, 'list_expected');
      assert.deepEqual(e.params, { port: 'frames' });
      return true;
    });
  });

  it('compares what a user typed with every kind of attribute value', async () => {
    const items: Record<string, unknown>[] = [
      { value: { v: true } },
      { value: { v: false } },
      { value: { v: null } },
      { value: { v: { a: 1 } } },
      { value: { v: 0 } },
      { value: { v: 'x' } },
      { value: { v: '' } },
      { value: {} },
    ];
    const matching = async (typed: string | undefined) => {
      const out = await run('frame.filter', {
        frame: items,
        attribute: param(' value . v '),
        ...(typed === undefined ? {} : { value: param(typed) }),
      });
      return out.frame.map((item) => items.indexOf(item));
    };
    assert.deepEqual(await matching(' true '), [0], 'booleans as text, spaces around ignored');
    assert.deepEqual(await matching('false'), [1]);
    assert.deepEqual(await matching('null'), [2]);
    assert.deepEqual(await matching(' {"a":1} '), [3], 'objects as JSON');
    assert.deepEqual(await matching(' 0 '), [4], 'numbers as numbers');
    assert.deepEqual(await matching('x'), [5]);
    assert.deepEqual(await matching(' x'), [], 'text exactly as typed');
    assert.deepEqual(await matching(''), [6], 'empty text matches empty text, not 0');
    assert.deepEqual(await matching(undefined), [6], 'no value is empty text');
    assert.deepEqual(await matching('undefined'), [], 'a missing attribute matches nothing');
    await assert.rejects(run('frame.filter', { frame: items, attribute: param('  '), value: param('x') }), (e: any) => {
      assert.equal(e.code, 'parameter_missing');
      assert.deepEqual(e.params, { port: 'attribute' });
      return true;
    });
  });

  it('filters features by a property path', async () => {
    const items = [feature({ kind: 'house' }), feature({ kind: 'tree' }), feature({ kind: 'house', id: 3 })];
    const out = await run('frame.filter', { frame: items, attribute: param('properties.kind'), value: param('house') });
    assert.deepEqual(out.frame, [items[0], items[2]]);
    const byFull = await run('frame.filter', { frame: items, attribute: param('feature.properties.kind'), value: param('tree') });
    assert.deepEqual(byFull.frame, [items[1]]);
  });

  it('filters rows by a value path; numbers compare as numbers, missing attributes never match', async () => {
    const houses = await run('frame.filter', { frame: rows, attribute: param('value.kind'), value: param('house') });
    assert.deepEqual(houses.frame, [rows[0], rows[2]]);
    const tall = await run('frame.filter', { frame: rows, attribute: param('value.height'), value: param('12.0') });
    assert.deepEqual(tall.frame, [rows[0]]);
    const none = await run('frame.filter', { frame: rows, attribute: param('value.colour'), value: param('') });
    assert.deepEqual(none.frame, []);
    await assert.rejects(run('frame.filter', { frame: rows, value: param('x') }), { code: 'parameter_missing' });
  });

  it('selects named fields of rows and feature properties and leaves other items alone', async () => {
    const out = await run('frame.select', {
      frame: [...rows.slice(0, 1), feature({ kind: 'tree', height: 5, age: 40 }), { value: 'x' }],
      fields: param('height, kind'),
    });
    assert.deepEqual(out.frame, [{ value: { height: 12, kind: 'house' } }, feature({ height: 5, kind: 'tree' }), { value: 'x' }]);
    assert.deepEqual(rows[0], { value: { kind: 'house', height: 12 } }, 'the input items are not changed');
    await assert.rejects(run('frame.select', { frame: rows, fields: param(' , ') }), (e: any) => {
      assert.equal(e.code, 'parameter_missing');
      assert.deepEqual(e.params, { port: 'fields' });
      return true;
    });
    // A named field an item does not have is not added to it.
    const partly = await run('frame.select', { frame: rows.slice(0, 1), fields: param('height, colour') });
    assert.deepEqual(partly.frame, [{ value: { height: 12 } }]);
  });

  it('counts items as one int item', async () => {
    assert.deepEqual((await run('frame.count', { frame: rows })).count, [{ value: 3 }]);
    assert.deepEqual((await run('frame.count', {})).count, [{ value: 0 }]);
  });
});
