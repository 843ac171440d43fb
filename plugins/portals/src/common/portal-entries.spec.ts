import assert from 'node:assert/strict';
import { checkPortalLayers, checkPortalViews, MAX_PORTAL_ENTRIES } from './portal-entries';

describe('portals: the entries of a portal', () => {
  it('takes ids and addresses, keeps a given name of an external view, and only true flags', () => {
    assert.deepEqual(
      checkPortalLayers([7, { layer: '/api/v1/layer/8/', attr: { queryable: 'yes', exportable: true, image: 'a.png' } }]),
      {
        layers: [
          { name: '', layer: '/api/v1/layer/7/', order: 0, attr: {} },
          { name: '', layer: '/api/v1/layer/8/', order: 1, attr: { exportable: true, image: 'a.png' } },
        ],
        problem: undefined,
      },
    );
    assert.deepEqual(checkPortalViews([{ name: 'Atlas', attr: { external_url: 'http://atlas.example.org' } }, '3']).views, [
      { view: null, name: 'Atlas', order: 0, attr: { external_url: 'http://atlas.example.org' } },
      { view: '/api/v1/view/3/', name: '', order: 1, attr: {} },
    ]);
  });

  it('reports the first problem with its place and limits the number of entries', () => {
    assert.deepEqual(checkPortalViews([{ view: 1 }, { view: 1, attr: { subline: 5 } }, { attr: {} }]).problem, {
      key: 'errors.attr_text',
      field: 'views[1].attr.subline',
    });
    const many = Array.from({ length: MAX_PORTAL_ENTRIES + 1 }, (_, i) => i + 1);
    assert.equal(checkPortalLayers(many).problem?.key, 'errors.too_many');
    assert.equal(checkPortalLayers(many.slice(1)).problem, undefined);
  });
});
