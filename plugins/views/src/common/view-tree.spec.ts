import assert from 'node:assert/strict';
import { checkConfig, checkHome, checkTrees, MAX_ENTRIES, viewLayers, viewPois } from './view-tree';

const L = (id: number) => `/api/v1/layer/${id}/`;

describe('views: the layer and POI trees', () => {
  it('names layer entries without an id after the free l-numbers, keeping the ids given', () => {
    const out = checkTrees(
      { layers: [{ layer: L(1) }, { layer: '2', id: 'l1' }], layergroups: [{ layers: [{ layer: L(3) }] }] },
      {},
    );
    assert.ok(!out.problem);
    if (out.problem) return;
    assert.deepEqual(
      viewLayers(out.layergroup).map((l) => [l.id, l.layer]),
      [
        ['l2', L(1)],
        ['l1', L(2)],
        ['l3', L(3)],
      ],
    );
  });

  it('lets a POI in a nested group switch a layer of a nested layer group, and no other', () => {
    const layers = { layergroups: [{ layergroups: [{ layers: [{ layer: L(5), id: 'deep' }] }] }] };
    const pois = (id: string) => ({ poigroups: [{ poigroups: [{ pois: [{ lat: 1, lon: 2, layers: [{ id }] }] }] }] });
    const ok = checkTrees(layers, pois('deep'));
    assert.ok(!ok.problem);
    if (!ok.problem) assert.deepEqual(viewPois(ok.poigroup)[0].layers, [{ id: 'deep', visible: true }]);
    const bad = checkTrees(layers, pois('other'));
    assert.deepEqual(bad.problem, {
      key: 'errors.poi_layer',
      field: 'poigroup.poigroups[0].poigroups[0].pois[0].layers[0].id',
      params: { id: 'other' },
    });
  });

  it('counts layers, POIs and groups of both trees against one limit', () => {
    const layers = Array.from({ length: MAX_ENTRIES - 1 }, (_, i) => ({ layer: L(i + 1) }));
    assert.ok(!checkTrees({ layers }, { pois: [{ lat: 0, lon: 0 }] }).problem);
    const over = checkTrees(
      { layers },
      {
        pois: [
          { lat: 0, lon: 0 },
          { lat: 0, lon: 0 },
        ],
      },
    );
    assert.deepEqual(over.problem, { key: 'errors.too_many', field: 'poigroup.pois[1]', params: { max: MAX_ENTRIES } });
  });

  it('takes numbers given as text, refuses other kinds and keeps times as UTC ISO text', () => {
    const out = checkTrees({ layers: [{ layer: L(1), opacity: '0.5', time_min: '2024-05-01T12:00:00+02:00' }] }, {});
    assert.ok(!out.problem);
    if (!out.problem) {
      assert.equal(out.layergroup.layers[0].opacity, 0.5);
      assert.equal(out.layergroup.layers[0].time_min, '2024-05-01T10:00:00.000Z');
    }
    assert.equal(checkTrees({ layers: [{ layer: L(1), visible: 'yes' }] }, {}).problem?.key, 'errors.boolean');
    assert.equal(checkTrees({ layers: [{ layer: L(1), time_max: 'soon' }] }, {}).problem?.key, 'errors.time');
    assert.equal(checkTrees([], {}).problem?.field, 'layergroup');
  });

  it('completes the home position and the configuration, and keeps the tools’ settings', () => {
    assert.deepEqual(checkHome(null), { home: null });
    assert.deepEqual(checkHome({ lon: 7, lat: 51, height: 800, pitch: -30 }), {
      home: { lon: 7, lat: 51, height: 800, heading: 0, pitch: -30, roll: 0 },
    });
    assert.equal(checkHome({ lon: 7, lat: 51, height: 800, pitch: 10 + 90 }).problem?.field, 'home.pitch');
    assert.deepEqual(checkConfig(undefined), { config: { viewer: { start_state: '' } } });
    assert.deepEqual(checkConfig({ viewer: { start_state: 'overview', x: 1 }, tools: { share: false }, theme: 'dark' }), {
      config: { viewer: { start_state: 'overview', x: 1 }, tools: { share: false }, theme: 'dark' },
    });
    assert.equal(checkConfig({ tools: [] }).problem?.field, 'config.tools');
  });
});
