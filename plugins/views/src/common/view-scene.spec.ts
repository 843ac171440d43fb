import assert from 'node:assert/strict';
import { firstPlace, fullExtent, startExtent, translated, viewerAddress, type SceneLayerGroup } from './view-scene';
import { newLayerGroup, newPoi, newPoiGroup, newViewLayer } from './view-tree';

describe('view scenes', () => {
  it('reads a text in the visitor’s language, else as the author wrote it', () => {
    const scene = { translations: { Bäume: { en: 'Trees', fr: '' } } };
    assert.equal(translated(scene, 'Bäume', 'en'), 'Trees');
    assert.equal(translated(scene, 'Bäume', 'fr'), 'Bäume');
    assert.equal(translated(scene, 'Wald', 'en'), 'Wald');
  });

  it('builds viewer addresses with the short name, or the id when there is none', () => {
    assert.equal(viewerAddress('/viewer/{slug}/', { id: 4, slug: 'stadt grün' }), '/viewer/stadt%20gr%C3%BCn/');
    assert.equal(viewerAddress('/viewer/{slug}/', { id: 4, slug: '' }), '/viewer/4/');
    assert.equal(viewerAddress('https://v.example/{id}', { id: 4, slug: 'x' }), 'https://v.example/4');
  });

  it('starts at the union of the extents of the layers shown at start', () => {
    const layer = (id: string, bbox: [number, number, number, number], init_visible = true) => ({
      ...newViewLayer(`/api/v1/layer/${id}/`, id),
      init_visible,
      source: { bbox } as never,
    });
    const root: SceneLayerGroup = {
      ...newLayerGroup(''),
      layers: [layer('a', [6, 50, 7, 51]), layer('b', [0, 0, 1, 1], false)],
      layergroups: [
        { ...newLayerGroup('an'), layers: [layer('c', [7, 51, 8, 52])], layergroups: [] },
        { ...newLayerGroup('aus'), init_visible: false, layers: [layer('d', [-10, -10, -9, -9])], layergroups: [] },
      ],
    };
    assert.deepEqual(startExtent(root), [6, 50, 8, 52]);
    assert.equal(startExtent({ ...newLayerGroup(''), layers: [], layergroups: [] }), null);
  });

  it('knows the extent of every layer (start mode all_layers) and the first visible place (first_place)', () => {
    const layer = (id: string, bbox: [number, number, number, number] | null) => ({
      ...newViewLayer(`/api/v1/layer/${id}/`, id),
      init_visible: false,
      source: { bbox } as never,
    });
    const root: SceneLayerGroup = {
      ...newLayerGroup(''),
      layers: [layer('a', [6, 50, 7, 51]), layer('b', null)],
      layergroups: [{ ...newLayerGroup('aus'), init_visible: false, layers: [layer('d', [-10, -10, -9, -9])], layergroups: [] }],
    };
    assert.deepEqual(fullExtent(root), [-10, -10, 7, 51]);
    assert.equal(fullExtent({ ...newLayerGroup(''), layers: [], layergroups: [] }), null);
    const hidden = { ...newPoi(1, 1, 'versteckt'), visible: false };
    const places = {
      ...newPoiGroup(''),
      pois: [hidden],
      poigroups: [
        { ...newPoiGroup('zu'), visible: false, pois: [newPoi(2, 2, 'in verborgener Gruppe')] },
        { ...newPoiGroup('Tour'), pois: [newPoi(6.95, 50.94, 'Dom')] },
      ],
    };
    assert.equal(firstPlace(places)?.name, 'Dom');
    assert.equal(firstPlace({ ...newPoiGroup(''), pois: [hidden] }), null);
  });
});

describe('view scenes: extents the camera can fit', () => {
  it('grows a point to a small area around it and keeps real areas', async () => {
    const { fittableExtent } = await import('./view-scene');
    assert.deepEqual(fittableExtent([7, 51, 7, 51]), [6.995, 50.995, 7.005, 51.005]);
    assert.deepEqual(fittableExtent([6, 50, 7, 51]), [6, 50, 7, 51]);
    assert.deepEqual(fittableExtent([180, 90, 180, 90]), [179.995, 89.995, 180, 90]);
  });
});
