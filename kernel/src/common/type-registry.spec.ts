import assert from 'node:assert/strict';
import { TypeRegistry } from './type-registry';

describe('TypeRegistry', () => {
  let types: TypeRegistry;

  beforeEach(() => {
    types = new TypeRegistry();
    types.add({ id: 'core.geometry', name: 'geometry' }, 'core');
    types.add({ id: 'core.polygon', name: 'polygon', base: 'geometry' }, 'core');
    types.add({ id: 'cadastre.building', name: 'building', base: 'polygon' }, 'cadastre');
    types.add({ id: 'core.text', name: 'text' }, 'core');
  });

  describe('baseChain', () => {
    it('lists the type and its bases, most specific first', () => {
      assert.deepEqual(types.baseChain('building'), ['building', 'polygon', 'geometry']);
      assert.deepEqual(types.baseChain('geometry'), ['geometry']);
    });

    it('stops at a base type that is not registered', () => {
      types.add({ id: 'x.orphan', name: 'orphan', base: 'missing' }, 'x');
      assert.deepEqual(types.baseChain('orphan'), ['orphan', 'missing']);
      assert.deepEqual(types.baseChain('unknown'), ['unknown']);
    });

    it('stops at a cycle of base types instead of looping', () => {
      types.add({ id: 'x.a', name: 'a', base: 'b' }, 'x');
      types.add({ id: 'x.b', name: 'b', base: 'a' }, 'x');
      assert.deepEqual(types.baseChain('a'), ['a', 'b']);
    });

    it('forgets a type once its registration is disposed', () => {
      const square = types.add({ id: 'x.square', name: 'square', base: 'polygon' }, 'x');
      assert.deepEqual(types.baseChain('square'), ['square', 'polygon', 'geometry']);
      square.dispose();
      assert.equal(types.type('square'), undefined);
      assert.deepEqual(types.baseChain('square'), ['square']);
    });
  });

  describe('isAssignable', () => {
    it('accepts a type for itself', () => {
      assert.equal(types.isAssignable('polygon', 'polygon'), true);
    });

    it('accepts a type where one of its bases is expected, however far up', () => {
      assert.equal(types.isAssignable('building', 'polygon'), true);
      assert.equal(types.isAssignable('building', 'geometry'), true);
    });

    it('refuses a base type where a derived type is expected', () => {
      assert.equal(types.isAssignable('geometry', 'building'), false);
    });

    it('refuses unrelated types', () => {
      assert.equal(types.isAssignable('text', 'geometry'), false);
      assert.equal(types.isAssignable('building', 'text'), false);
    });
  });
});
