import assert from 'node:assert/strict';
import { checkAttr } from './layer-validation';
import { LAYER_TYPES, ZOOM_LAYER_TYPES } from './layer-types';

describe('layers: zoom settings of attr (spec 001 §3.1, §5.1, §9)', () => {
  it('are kept only for the types with zoom settings; every layer type is one of them', () => {
    assert.deepEqual([...LAYER_TYPES].sort(), [...ZOOM_LAYER_TYPES].sort());
    assert.deepEqual(checkAttr({ min_zoom: 3, other: 1 }, 'metalayer'), { attr: { min_zoom: 3, other: 1 } });
    assert.deepEqual(checkAttr({ min_zoom: 3 }, 'raster').problem, {
      key: 'layers:errors.zoom_type',
      field: 'attr.min_zoom',
      params: { type: 'raster' },
    });
    assert.deepEqual(
      checkAttr({ other: 1, max_zoom: null }, 'raster'),
      { attr: { other: 1 } },
      'without zoom keys any type is fine',
    );
  });

  it('removes nulls and refuses values outside 0–24, fractions, text and a minimum above its maximum', () => {
    assert.deepEqual(checkAttr({ min_zoom: null, max_zoom: 24 }, 'feature'), { attr: { max_zoom: 24 } });
    assert.deepEqual(checkAttr(null, 'feature'), { attr: {} });
    for (const v of [-1, 25, 0.5, '3', Number.NaN])
      assert.equal(checkAttr({ max_load_level: v }, 'wfs').problem?.field, 'attr.max_load_level');
    assert.equal(checkAttr({ min_load_level: 9, max_load_level: 8 }, 'wfs').problem?.key, 'layers:errors.zoom_order');
    assert.equal(checkAttr('x', 'wfs').problem?.field, 'attr');
  });
});
