import assert from 'node:assert/strict';
import { fakeRunContext } from '@werkbank/testing/node';
import { failsWith, feat, features, pt, run, values } from './geometry-test-helpers';

describe('geodata feature.filter', () => {
  const input = [pt(0, 0, { kind: 'a', n: 1 }), pt(1, 1, { kind: 'b', n: 2 }), feat(null, { kind: 'a', n: 3 })];

  it('keeps the features whose properties pass, in order; geometry may be missing', async () => {
    const out = await features('feature.filter', { features: input, expression: values("kind = 'a'") });
    assert.deepEqual(
      out.map((f) => f.properties?.n),
      [1, 3],
    );
    const none = await features('feature.filter', {
      features: [feat({ type: 'Point', coordinates: [0, 0] }, null as never)],
      expression: values('x = null'),
    });
    assert.equal(none.length, 1, 'null properties count as empty');
  });

  it('fails with the column of a syntax error, before looking at the features', async () => {
    await assert.rejects(
      run('feature.filter', { features: input, expression: values("kind = 'a' and and") }),
      failsWith('filter_expected_literal', { column: 16, found: 'and' }),
    );
    await assert.rejects(run('feature.filter', { features: input }), failsWith('parameter_missing', { port: 'expression' }));
  });

  it('names the item that is not a feature', async () => {
    await assert.rejects(
      run('feature.filter', { features: [input[0], { value: 1 }], expression: values('true') }),
      failsWith('not_a_feature', { item: 'features[1]' }),
    );
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run('feature.filter', { features: input, expression: values('true') }, ctx), /stopped/);
  });
});
