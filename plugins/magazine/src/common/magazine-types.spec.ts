import assert from 'node:assert/strict';
import { mayWrite } from './magazine-types';

describe('magazine: mayWrite', () => {
  it('follows the reply’s access: write is needed, read alone is not enough', () => {
    assert.equal(mayWrite({ id: 1, access: ['read', 'write'] }), true);
    assert.equal(mayWrite({ id: 1, access: ['read'] }), false);
    assert.equal(mayWrite({ id: 1, access: [] }), false);
  });

  it('counts a missing access as writable only for a new object', () => {
    assert.equal(mayWrite({}), true, 'no id yet: the caller is creating it');
    assert.equal(mayWrite({ id: 1 }), false, 'a stored object without access');
    assert.equal(mayWrite(undefined), false, 'nothing loaded yet');
    assert.equal(mayWrite(null), false);
  });
});
