import assert from 'node:assert/strict';
import { drawnGeometry, itemFeatures, itemImagery, switchboardAction, switchboardOfViewerPath } from './switchboard-map';

describe('switchboard map (decision 0090)', () => {
  it('turns feature items into features with their index as id, leaving out items without coordinates', () => {
    const items = [
      { feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties: { a: 1 } } },
      { feature: { type: 'Feature', geometry: null, properties: {} } },
      {
        feature: {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
              ],
            ],
          },
          properties: null,
        },
      },
      {
        feature: {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
          properties: null,
        },
      },
    ];
    assert.deepEqual(
      itemFeatures('feature', items).map((f) => [f.id, f.geometry?.type, f.properties]),
      [
        [0, 'Point', { a: 1 }],
        [3, 'LineString', {}],
      ],
    );
  });

  it('draws bbox items as their rectangle and skips malformed ones', () => {
    const [box, ...rest] = itemFeatures('bbox', [{ value: [1, 2, 3, 4] }, { value: [1, 2, 3] }, { value: 'x' }]);
    assert.equal(rest.length, 0);
    assert.deepEqual(box.geometry, {
      type: 'Polygon',
      coordinates: [
        [
          [1, 2],
          [3, 2],
          [3, 4],
          [1, 4],
          [1, 2],
        ],
      ],
    });
  });

  it('draws WMS and WMTS items as imagery (those with a usable address), and no features for them', () => {
    const wms = itemImagery('wms', [
      { tms_url: 'https://geo.example/wms?SERVICE=WMS&REQUEST=GetCapabilities', layers: 'Luftbild', bbox: [6, 50, 7, 51] },
      { tms_url: '', layers: 'x' },
    ]);
    assert.deepEqual(
      wms.map((i) => [i.kind, i.kind === 'wms' && i.layers, i.bbox]),
      [['wms', 'Luftbild', [6, 50, 7, 51]]],
    );
    assert.equal(itemImagery('wmts', [{ tms_url: 'https://geo.example/wmts/{TileMatrix}/{TileRow}/{TileCol}.png' }]).length, 1);
    assert.deepEqual(itemImagery('feature', [{ tms_url: 'https://geo.example/wms', layers: 'a' }]), []);
    assert.deepEqual(itemFeatures('wms', [{ tms_url: 'https://geo.example/wms', layers: 'a' }]), []);
  });

  it('makes a geometry of drawn points once there are enough: point, line, closed polygon', () => {
    const p: [number, number][] = [
      [0, 0],
      [1, 0],
      [1, 1],
    ];
    assert.deepEqual(drawnGeometry('Point', p), { type: 'Point', coordinates: [1, 1] });
    assert.equal(drawnGeometry('Point', []), undefined);
    assert.equal(drawnGeometry('LineString', p.slice(0, 1)), undefined);
    assert.deepEqual(drawnGeometry('LineString', p.slice(0, 2)), {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 0],
      ],
    });
    assert.equal(drawnGeometry('Polygon', p.slice(0, 2)), undefined);
    assert.deepEqual(drawnGeometry('Polygon', p), {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
  });

  it('reads switchboard_action messages as an object or a list, and nothing else', () => {
    assert.deepEqual(switchboardAction({ type: 'switchboard_action', action: 'run', args: [1] }), { action: 'run', args: [1] });
    assert.deepEqual(switchboardAction(['switchboard_action', 'reload']), { action: 'reload', args: [] });
    assert.equal(switchboardAction({ type: 'switchboard_action', action: 3 }), undefined);
    assert.equal(switchboardAction({ type: 'other', action: 'run' }), undefined);
    assert.equal(switchboardAction('switchboard_action'), undefined);
  });

  it('knows the switchboard mode addresses of the viewer', () => {
    assert.equal(switchboardOfViewerPath('/viewer/switchboard/12/'), 12);
    assert.equal(switchboardOfViewerPath('/viewer/switchboard/12'), 12);
    assert.equal(switchboardOfViewerPath('/viewer/switchboard/'), undefined);
    assert.equal(switchboardOfViewerPath('/viewer/my-view/'), undefined);
  });
});
