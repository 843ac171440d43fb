import assert from 'node:assert/strict';
import { attributeUnion, attributeValues } from './layer-attributes';

const f = (properties: Record<string, unknown>) => ({ feature: { type: 'Feature', geometry: null, properties } });

describe('layer attributes: the union of feature properties', () => {
  it('keeps first-seen order, merges integers and numbers, marks disagreement as mixed', () => {
    const union = attributeUnion([f({ name: 'A', height: 3 }), f({ height: 2.5, open: true }), f({ name: 4, note: null })]);
    assert.deepEqual(union, [
      { name: 'name', type: 'mixed' },
      { name: 'height', type: 'number' },
      { name: 'open', type: 'boolean' },
      { name: 'note', type: 'null' },
    ]);
  });

  it('lists values, each once when unique, up to the limit', () => {
    const items = [f({ k: 'a' }), f({ k: 'b' }), f({ k: 'a' }), f({ other: 1 })];
    assert.deepEqual(attributeValues(items, 'k', false, 10), ['a', 'b', 'a']);
    assert.deepEqual(attributeValues(items, 'k', true, 10), ['a', 'b']);
    assert.deepEqual(attributeValues(items, 'k', true, 1), ['a']);
  });
});
