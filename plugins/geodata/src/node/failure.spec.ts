import assert from 'node:assert/strict';
import { failureOf } from './failure';

describe('geodata failures', () => {
  it('makes a refusal with the reason, its message key in the namespace and the parameters', () => {
    const failure = failureOf<'not_a_depot' | 'no_file'>('geodata-depot-import');
    const e = failure('not_a_depot', { item: 'depot[1]' });
    assert.deepEqual(
      [e.status, e.code, e.key, e.params],
      [400, 'not_a_depot', 'geodata-depot-import:errors.not_a_depot', { item: 'depot[1]' }],
    );
    assert.deepEqual(failure('no_file').params, {});
  });
});
