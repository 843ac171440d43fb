import assert from 'node:assert/strict';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { STRING_FUNCTIONS } from './string-functions';
import { fakeRunContext } from '@werkbank/testing/node';

const values = (...xs: unknown[]) => xs.map((value) => ({ value }));
const run = (id: string, inputs: FunctionInputs) => STRING_FUNCTIONS.find((f) => f.id === id)!.run(inputs, fakeRunContext());
const result = async (id: string, inputs: FunctionInputs) => (await run(id, inputs)).result.map((i) => i.value);

describe('basic functions: text (element-wise)', () => {
  it('concatenates item by item, with no separator unless one is given', async () => {
    assert.deepEqual(await result('string.concat', { a: values('a', 'b'), b: values('x', 'y') }), ['ax', 'by']);
    assert.deepEqual(await result('string.concat', { a: values('a', 'b'), b: values('!'), separator: values(' ') }), [
      'a !',
      'b !',
    ]);
  });

  it('changes case and counts characters, not UTF-16 units', async () => {
    assert.deepEqual(await result('string.upper', { value: values('Straße', 'abc') }), ['STRASSE', 'ABC']);
    assert.deepEqual(await result('string.lower', { value: values('ÄBC') }), ['äbc']);
    assert.deepEqual(await result('string.length', { value: values('', 'abc', '🗺️x') }), [0, 3, 3]);
  });

  it('replaces every literal occurrence; an empty search changes nothing', async () => {
    const value = values('a.b.c', 'abc');
    assert.deepEqual(await result('string.replace', { value, search: values('.'), replacement: values('/') }), ['a/b/c', 'abc']);
    assert.deepEqual(await result('string.replace', { value, search: values('b') }), ['a..c', 'ac']);
    assert.deepEqual(await result('string.replace', { value, search: values('') }), ['a.b.c', 'abc']);
  });

  it('fails naming the item that is not a text, and on mismatched lengths', async () => {
    await assert.rejects(
      run('string.upper', { value: values('a', 3) }),
      (e: any) => e.code === 'not_a_string' && e.params.item === 'value[1]',
    );
    await assert.rejects(run('string.concat', { a: values('a', 'b'), b: values('x', 'y', 'z') }), { code: 'length_mismatch' });
  });
});
