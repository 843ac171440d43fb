import assert from 'node:assert/strict';
import { serviceUrls } from './service-urls';

describe('layer service addresses (spec 001 §2.2, §5.1)', () => {
  const templates = { wms: '/services/wms/{name}?SERVICE=WMS', wfs: 'https://maps.example/wfs/{name}' };
  it('substitutes a valid short name', () => {
    assert.deepEqual(serviceUrls({ id: 7, slug: 'trees_2024' }, templates, 'http://wb'), [
      { kind: 'wfs', url: 'https://maps.example/wfs/trees_2024' },
      { kind: 'wms', url: 'http://wb/services/wms/trees_2024?SERVICE=WMS' },
    ]);
  });
  it('uses the id when the short name is empty or not valid', () => {
    assert.equal(serviceUrls({ id: 7, slug: '' }, templates, '')[0].url, 'https://maps.example/wfs/7');
    assert.equal(serviceUrls({ id: 7, slug: 'a b' }, templates, '')[0].url, 'https://maps.example/wfs/7');
  });
});
