import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { adminWithDepotAccess, newDepot } from '@werkbank/plugin-magazine/testing';
import type { ViewScene } from '../src/common/view-scene';

/** What the viewer opens (decision 0088): a view or a frozen view with its layers' sources, for visitors as their rights allow. */
describe('views: scenes for the viewer', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let open: { id: number; resource_uri: string };
  let internal: { id: number; resource_uri: string };
  let view: { id: number; resource_uri: string };

  before(async () => {
    // hello: the example plugin adds a start mode through the views plugin's API.
    t = await startTestServer({ plugins: ['types', 'magazine', 'layers', 'views', 'events', 'hello'] });
    ({ admin } = await adminWithDepotAccess(t));
    const depot = await newDepot(admin, 'feature');
    open = expectStatus(
      await admin.post('/api/v1/layer/', { name: 'Bäume', slug: 'baeume', public: true, layerpiles: [depot.resource_uri] }),
      201,
    );
    internal = expectStatus(await admin.post('/api/v1/layer/', { name: 'Leitungen', layerpiles: [depot.resource_uri] }), 201);
    view = expectStatus(
      await admin.post('/api/v1/view/', {
        name: 'Stadtgrün',
        subline: 'Bäume der Stadt',
        slug: 'stadtgruen',
        public: true,
        layergroup: {
          layers: [{ layer: open.resource_uri, queryable: true }],
          layergroups: [{ name: 'Technik', layers: [{ layer: internal.resource_uri }] }],
        },
        poigroup: { pois: [{ name: 'Dom', lon: 6.958, lat: 50.941 }] },
      }),
      201,
    );
    expectStatus(
      await admin.post(`/api/v2/presenting/view/${view.id}/translations`, [
        { key: 'Stadtgrün', values: { en: 'Urban green', fr: 'Verdure' } },
      ]),
      200,
    );
  });
  after(() => t?.close());

  it('gives a signed-out visitor a public view by its short name, with the sources of the public layers only', async () => {
    const scene = expectStatus(await t.client().get('/api/v2/presenting/view/stadtgruen/scene'), 200) as ViewScene;
    assert.equal(scene.kind, 'view');
    assert.equal(scene.name, 'Stadtgrün');
    assert.equal(scene.subline, 'Bäume der Stadt');
    assert.equal(scene.finalview, null);
    assert.deepEqual(scene.translations, { Stadtgrün: { en: 'Urban green', fr: 'Verdure' } });
    const [tree] = scene.layergroup.layers;
    assert.equal(tree.queryable, true);
    assert.deepEqual(tree.source?.wms, { url: '/services/wms/baeume', layers: 'baeume' });
    assert.equal(tree.source?.name, 'Bäume');
    assert.equal(tree.source?.geojson, '/services/geojson/baeume/');
    assert.deepEqual(tree.source?.wmts, { url: '/services/wmts/baeume', layer: 'baeume', tileMatrixSet: 'WebMercatorQuad' });
    // No approved data and no bbox: where the layer lies is unknown.
    assert.equal(tree.source?.bbox, null);
    // The internal layer stays in the tree, without its source: the viewer shows it as unavailable.
    const hidden = scene.layergroup.layergroups[0].layers[0];
    assert.equal(hidden.layer, internal.resource_uri);
    assert.equal(hidden.source, undefined);
    assert.equal(scene.poigroup.pois[0].name, 'Dom');
    assert.equal(scene.poigroup.pois[0].fly_duration, 3);
    // By id too.
    assert.equal(
      (expectStatus(await t.client().get(`/api/v2/presenting/view/${view.id}/scene`), 200) as ViewScene).slug,
      'stadtgruen',
    );
  });

  it('gives a signed-in reader every layer it may read; an internal view is not found for visitors and strangers', async () => {
    expectStatus(await admin.patch(internal.resource_uri, { bbox: [6.8, 50.8, 7.1, 51.1] }), 200);
    const scene = expectStatus(await admin.get('/api/v2/presenting/view/stadtgruen/scene'), 200) as ViewScene;
    assert.equal(scene.layergroup.layergroups[0].layers[0].source?.wms.layers, String(internal.id));
    assert.deepEqual(scene.layergroup.layergroups[0].layers[0].source?.bbox, [6.8, 50.8, 7.1, 51.1]);
    const hidden = expectStatus(await admin.post('/api/v1/view/', { name: 'Intern', slug: 'intern' }), 201);
    assertError(await t.client().get('/api/v2/presenting/view/intern/scene'), 404, 'not_found');
    assertError(await t.client().get(`/api/v2/presenting/view/${hidden.id}/scene`), 404, 'not_found');
    const stranger = await t.user();
    assertError(await stranger.client.get('/api/v2/presenting/view/intern/scene'), 404, 'not_found');
    expectStatus(await admin.get('/api/v2/presenting/view/intern/scene'), 200);
    assertError(await t.client().get('/api/v2/presenting/view/gibt_es_nicht/scene'), 404, 'not_found');
  });

  it('opens a frozen view by its short name with its copy, and names it for the services', async () => {
    const frozen = expectStatus(await admin.get(`/switchboard/create-finalview/?slug=gruen_2026&view=${view.id}`), 200);
    expectStatus(await admin.patch(view.resource_uri, { name: 'Stadtgrün neu', layergroup: { layers: [] } }), 200);
    const scene = expectStatus(await admin.get('/api/v2/presenting/finalview/gruen_2026/scene'), 200) as ViewScene;
    assert.equal(scene.kind, 'finalview');
    assert.equal(scene.id, frozen.id);
    assert.equal(scene.name, 'Stadtgrün');
    assert.equal(scene.finalview, 'gruen_2026');
    assert.equal(scene.layergroup.layers[0].source?.wms.layers, 'baeume');
    assert.deepEqual(scene.translations.Stadtgrün, { en: 'Urban green', fr: 'Verdure' });
    // It was frozen from a public view, so visitors open it too; a frozen internal view they do not.
    expectStatus(await t.client().get('/api/v2/presenting/finalview/gruen_2026/scene'), 200);
    const intern = expectStatus(await admin.get('/api/v1/view/?slug=intern'), 200).objects[0];
    expectStatus(await admin.get(`/switchboard/create-finalview/?slug=intern_2026&view=${intern.id}`), 200);
    assertError(await t.client().get('/api/v2/presenting/finalview/intern_2026/scene'), 404, 'not_found');
  });

  it('previews unsaved changes for the editor: the draft’s trees with their layers’ sources, checked as a save checks them', async () => {
    const draft = {
      name: 'Entwurf',
      layergroup: { layers: [{ layer: internal.resource_uri, init_visible: false }] },
    };
    const scene = expectStatus(await admin.post(`/api/v2/presenting/view/${view.id}/preview`, draft), 200) as ViewScene;
    assert.equal(scene.name, 'Entwurf');
    assert.equal(scene.layergroup.layers[0].init_visible, false);
    assert.equal(scene.layergroup.layers[0].source?.name, 'Leitungen');
    // Nothing was saved.
    assert.notEqual(expectStatus(await admin.get(view.resource_uri), 200).name, 'Entwurf');
    const bad = await admin.post(`/api/v2/presenting/view/${view.id}/preview`, {
      layergroup: { layers: [{ layer: 'kein Layer' }] },
    });
    assertError(bad, 400, 'invalid_field');
    assert.equal(bad.body.field, 'layergroup.layers[0].layer');
    assertError(await admin.post(`/api/v2/presenting/view/${view.id}/preview`, [1]), 400, 'invalid_body');
    // Signed-in callers only; views they may not read are not found.
    assertError(await t.client().post(`/api/v2/presenting/view/${view.id}/preview`, draft), 401, 'not_authenticated');
    const stranger = await t.user();
    const hidden = expectStatus(await admin.post('/api/v1/view/', { name: 'Geheim' }), 201);
    assertError(await stranger.client.post(`/api/v2/presenting/view/${hidden.id}/preview`, draft), 404, 'not_found');
  });

  it('lists a view’s events by view_id (the editor’s Events tab), for those who may see them', async () => {
    const made = expectStatus(await admin.post('/api/v1/view/', { name: 'Mit Ereignissen' }), 201);
    expectStatus(await admin.patch(made.resource_uri, { subline: 'geändert' }), 200);
    const feed = expectStatus(await admin.get(`/api/v1/event/?view_id=${made.id}`), 200) as {
      objects: Array<{ key: string; content_object: string }>;
    };
    assert.deepEqual(
      feed.objects.map((e) => e.key),
      ['update', 'create'],
    );
    assert.ok(feed.objects.every((e) => e.content_object === made.resource_uri));
    const stranger = await t.user();
    assert.deepEqual(expectStatus(await stranger.client.get(`/api/v1/event/?view_id=${made.id}`), 200).objects, []);
    assertError(await admin.get(`/api/v1/view/?view_id=${made.id}`), 400, 'unknown_filter');
  });

  it('offers the start modes of plug-ins, and starts a view where its mode says unless it has an explicit start position', async () => {
    assert.deepEqual(
      expectStatus(await admin.get('/api/v2/presenting/start-modes', { headers: { 'Accept-Language': 'de' } }), 200),
      [
        { name: 'all_layers', label: 'Alle Ebenen (auch die beim Start ausgeblendeten)' },
        { name: 'first_place', label: 'Der erste Ort (POI)' },
        { name: 'hello.germany', label: 'Ganz Deutschland (Beispiel)' },
      ],
    );
    expectStatus(await admin.patch(open.resource_uri, { bbox: [6.9, 50.9, 7.0, 51.0] }), 200);
    expectStatus(await admin.patch(internal.resource_uri, { bbox: [6.8, 50.8, 7.1, 51.1] }), 200);
    expectStatus(
      await admin.patch(view.resource_uri, {
        layergroup: {
          layers: [{ layer: open.resource_uri }],
          layergroups: [{ name: 'Technik', init_visible: false, layers: [{ layer: internal.resource_uri }] }],
        },
      }),
      200,
    );
    const startOf = async (start_state: string, home: unknown = null) => {
      expectStatus(await admin.patch(view.resource_uri, { config: { viewer: { start_state } }, home }), 200);
      return (expectStatus(await admin.get('/api/v2/presenting/view/stadtgruen/scene'), 200) as ViewScene).start;
    };
    // Every layer the caller may read, also those hidden at start.
    assert.deepEqual(await startOf('all_layers'), { kind: 'extent', bbox: [6.8, 50.8, 7.1, 51.1] });
    const place = await startOf('first_place');
    assert.equal(place?.kind === 'place' && place.poi.name, 'Dom');
    assert.deepEqual(await startOf('hello.germany'), { kind: 'extent', bbox: [5.87, 47.27, 15.04, 55.06] });
    // 'Automatic', a mode no plug-in offers (any more), and an explicit start position: no start mode.
    assert.equal(await startOf(''), null);
    assert.equal(await startOf('gone.mode'), null);
    assert.equal(await startOf('first_place', { lon: 7, lat: 51, height: 1000, heading: 0, pitch: -90, roll: 0 }), null);
    expectStatus(await admin.patch(view.resource_uri, { config: { viewer: { start_state: '' } }, home: null }), 200);
  });
});
