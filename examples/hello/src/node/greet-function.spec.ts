import assert from 'node:assert/strict';
import { Disposable, type FunctionDescriptor, type Translator } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { GreetFunction } from './greet-function';

/** The descriptor the contribution registers, with a translator that shows what it was asked. */
function greet(): FunctionDescriptor {
  const translator: Translator = { translate: (lang, key, params) => `${lang}|${key}|${String(params?.name)}` };
  let found: FunctionDescriptor | undefined;
  Object.assign(new GreetFunction(), { translator }).registerFunctions({
    add: (f) => {
      found = f;
      return Disposable.NULL;
    },
  });
  return found!;
}

describe('hello example: the hello.greet function', () => {
  it('declares typed ports: a string name, an optional int count, a string output', () => {
    const f = greet();
    assert.equal(f.id, 'hello.greet');
    assert.deepEqual(
      f.inputs.map((p) => [p.name, p.content_type, !!p.is_optional]),
      [
        ['name', 'string', false],
        ['count', 'int', true],
      ],
    );
    assert.deepEqual(f.outputs, [{ name: 'greetings', content_type: 'string' }]);
  });

  it('writes count greetings in the caller’s language and reports progress up to 1', async () => {
    const ctx = fakeRunContext();
    ctx.lang = 'de';
    const out = await greet().run({ name: [{ value: 'Anna' }], count: [{ value: 3 }] }, ctx);
    assert.deepEqual(out.greetings, Array(3).fill({ value: 'de|hello:greet.text|Anna' }));
    assert.deepEqual(ctx.progresses, [1 / 3, 2 / 3, 1]);
    assert.deepEqual(ctx.logs, ['greeted Anna 3 times']);
  });

  it('greets once when count is unset, and refuses a count out of range with a translated reason', async () => {
    assert.equal((await greet().run({ name: [{ value: 'Ben' }] }, fakeRunContext())).greetings.length, 1);
    await assert.rejects(greet().run({ name: [{ value: 'Ben' }], count: [{ value: -1 }] }, fakeRunContext()), {
      code: 'count_range',
      key: 'hello:errors.count_range',
    });
  });
});
