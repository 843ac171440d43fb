import assert from 'node:assert/strict';
import { editedLayer } from './layer-edit';
import { moved } from './pile-order';
import type { Layer } from './layers-api';

const layer = {
  id: 1,
  name: 'A',
  slug: '',
  type: 'feature',
  attr: { min_zoom: 2 },
  layerpiles: [
    { id: 5, depot: '/api/v1/depot/1/', name: 'one' },
    { id: 6, depot: '/api/v1/depot/2/', name: 'two' },
  ],
  permissions: [],
} as unknown as Layer;

describe('layer editor: what a save sends', () => {
  it('sends only changed fields, drops null zooms, and piles in their new order', () => {
    const draft = { ...layer, name: 'B', attr: { min_zoom: 2, max_zoom: null } } as unknown as Layer;
    const piles = moved(layer.layerpiles, 1, 0);
    assert.deepEqual(editedLayer(layer, draft, piles, false), {
      name: 'B',
      attr: { min_zoom: 2 },
      layerpiles: [
        { id: 6, depot: '/api/v1/depot/2/', name: 'two' },
        { id: 5, depot: '/api/v1/depot/1/', name: 'one' },
      ],
    });
  });
  it('sends nothing for no change, and permissions only for who may grant', () => {
    assert.deepEqual(editedLayer(layer, layer, layer.layerpiles, true), {});
    const draft = { ...layer, permissions: [{ user: '/api/v1/user/2/', perms: ['read'] }] } as unknown as Layer;
    assert.deepEqual(editedLayer(layer, draft, layer.layerpiles, false), {});
    assert.deepEqual(Object.keys(editedLayer(layer, draft, layer.layerpiles, true)), ['permissions']);
  });
});
