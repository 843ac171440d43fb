import assert from 'node:assert/strict';
import { TEXT_REPR_MAX, TypeRegistry } from './type-registry';

describe('TypeRegistry', () => {
  let types: TypeRegistry;

  afterEach(() => types.dispose());

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

  describe('schema, template and repr', () => {
    const textSchema = { type: 'object', properties: { value: { type: 'string' } } };

    beforeEach(() => {
      types.add(
        { id: 'core.string', name: 'string', schema: textSchema, template: { value: '' }, repr: (f) => `«${String(f.value)}»` },
        'core',
      );
      types.add({ id: 'core.label', name: 'label', base: 'string' }, 'core');
      types.add({ id: 'x.slug', name: 'slug', base: 'label', template: { value: 'new-slug' } }, 'x');
    });

    it('inherits schema, template and repr from the nearest base that has them', () => {
      assert.equal(types.schemaOf('label'), textSchema);
      assert.equal(types.schemaOf('slug'), textSchema);
      assert.deepEqual(types.templateOf('label'), { value: '' });
      assert.deepEqual(types.templateOf('slug'), { value: 'new-slug' }, 'its own template wins');
      assert.equal(types.reprOf('slug', { value: 'a' }), '«a»');
    });

    it('has no schema, an empty template and the default repr where no type of the chain has them', () => {
      assert.equal(types.schemaOf('polygon'), undefined);
      assert.equal(types.schemaOf('unknown'), undefined);
      assert.deepEqual(types.templateOf('polygon'), {});
      assert.equal(types.reprOf('polygon', { value: [1, 2] }), '[1,2]');
      assert.equal(types.reprOf('polygon', { value: 'plain' }), 'plain');
      assert.equal(types.reprOf('polygon', { hex: '#fff' }), '{"hex":"#fff"}', 'no value: the fields as JSON');
    });

    it('hands out a fresh template every time', () => {
      types.templateOf('string').value = 'changed';
      assert.deepEqual(types.templateOf('string'), { value: '' });
    });

    it('cuts a repr to its maximum and falls back to the default when a repr throws', () => {
      assert.equal(types.reprOf('geometry', { value: 'x'.repeat(500) }).length, TEXT_REPR_MAX);
      types.add(
        {
          id: 'x.broken',
          name: 'broken',
          repr: () => {
            throw new Error('bad fields');
          },
        },
        'x',
      );
      assert.equal(types.reprOf('broken', { value: 7 }), '7');
    });
  });
});
