import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';

const VIEWS = '/api/v1/view/';
const LAYERS = '/api/v1/layer/';

/** The view resource (spec 002 §3–§5, §9; decision 0086): fields, trees with defaults, permissions, bad input. */
describe('views: the view resource', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let layer: { id: number; resource_uri: string };
  let secret: { id: number; resource_uri: string };

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'tags', 'layers', 'views'] });
    admin = await t.admin();
    layer = expectStatus(
      await admin.post(LAYERS, { name: 'Bäume', time_min: '2020-01-01T00:00:00Z', time_max: '2021-01-01T00:00:00Z' }),
      201,
    );
    secret = expectStatus(await admin.post(LAYERS, { name: 'Intern' }), 201);
  });
  after(() => t?.close());

  const tree = (layers: unknown[], groups: unknown[] = []) => ({ layers, layergroups: groups });

  it('creates, reads, lists, searches, changes and deletes a view with every field of spec 002 §3', async () => {
    const view = expectStatus(
      await admin.post(VIEWS, {
        name: 'Stadtgrün',
        subline: 'Bäume und Parks',
        description: 'Alle Bäume der Stadt',
        slug: 'stadtgruen',
        image: 'https://example.org/gruen.png',
        home: { lon: 6.95, lat: 50.94, height: 1500 },
        layergroup: tree([{ layer: layer.resource_uri, queryable: true }], [{ name: 'Parks', layers: [] }]),
        poigroup: { pois: [{ lat: 50.94, lon: 6.96, name: 'Dom' }], poigroups: [{ name: 'Rundgang', is_tour: true }] },
        config: { viewer: { start_state: '' }, tools: { measure: true } },
      }),
      201,
    );
    for (const f of [
      'id',
      'name',
      'subline',
      'description',
      'slug',
      'public',
      'image',
      'home',
      'layergroup',
      'poigroup',
      'permissions',
      'user',
      'tags',
      'config',
      'resource_uri',
    ])
      assert.ok(f in view, `field ${f}`);
    assert.equal(view.public, false, 'a new view is internal');
    assert.match(view.user, /^\/api\/v1\/user\/\d+\/$/);
    // The trees come back complete with the defaults of spec 002 §9.
    const [entry] = view.layergroup.layers;
    assert.deepEqual(entry, {
      id: 'l1',
      layer: layer.resource_uri,
      name: '',
      type: 'feature',
      visible: true,
      init_visible: true,
      single: false,
      queryable: true,
      exportable: false,
      layer_description_visible: true,
      layer_revision_modified_visible: false,
      layer_zoom_to_extent_visible: true,
      viewer_state_visibility: true,
      opacity_editable: false,
      opacity: 1,
      time_min: null,
      time_max: null,
      layer_time_min: '2020-01-01T00:00:00.000Z',
      layer_time_max: '2021-01-01T00:00:00.000Z',
    });
    assert.deepEqual(view.layergroup.layergroups[0], {
      name: 'Parks',
      visible: true,
      init_visible: true,
      init_expanded: true,
      group_display: 'folder',
      layers: [],
      layergroups: [],
    });
    assert.equal(view.poigroup.pois[0].name, 'Dom');
    assert.equal(view.poigroup.pois[0].visible, true);
    assert.deepEqual(
      { ...view.poigroup.poigroups[0], pois: undefined },
      { name: 'Rundgang', visible: true, init_expanded: false, is_tour: true, pois: undefined, poigroups: [] },
    );
    assert.deepEqual(view.home, { lon: 6.95, lat: 50.94, height: 1500, heading: 0, pitch: -90, roll: 0 });
    assert.deepEqual(view.config, { viewer: { start_state: '' }, tools: { measure: true } });

    const again = expectStatus(await admin.get(view.resource_uri), 200);
    assert.deepEqual(again.layergroup, view.layergroup);
    const found = expectStatus(await admin.get(`${VIEWS}?q=grün`), 200);
    assert.deepEqual(
      found.objects.map((v: { id: number }) => v.id),
      [view.id],
    );
    const bySlug = expectStatus(await admin.get(`${VIEWS}?slug=stadtgruen`), 200);
    assert.equal(bySlug.meta.total_count, 1);

    // 'Automatic' again: no home; a POI switching the layer entry by its id.
    const changed = expectStatus(
      await admin.patch(view.resource_uri, {
        home: null,
        poigroup: { pois: [{ lat: 50.9, lon: 6.9, layers: [{ id: 'l1', visible: false }] }] },
      }),
      200,
    );
    assert.equal(changed.home, null);
    assert.deepEqual(changed.poigroup.pois[0].layers, [{ id: 'l1', visible: false }]);
    assert.equal(changed.poigroup.pois[0].name, 'POI');
    assert.deepEqual(changed.layergroup, view.layergroup, 'the layer tree stays');
    expectStatus(await admin.delete(view.resource_uri), 204);
    assertError(await admin.get(view.resource_uri), 404, 'not_found');
  });

  it('lets only holders of publish_view switch a view between PUBLIC and INTERNAL ONLY', async () => {
    const author = await t.user();
    const publisher = await t.user();
    expectStatus(await admin.patch(`/api/v1/user/${publisher.id}/`, { user_permissions: ['publish_view'] }), 200);
    const de = { headers: { 'accept-language': 'de' } };
    const refused = await author.client.post(VIEWS, { name: 'Sofort öffentlich', public: true }, de);
    assertError(refused, 403, 'permission_required');
    assert.match(refused.body.reason, /Ansichten veröffentlichen/);
    const view = expectStatus(await author.client.post(VIEWS, { name: 'Entwurf' }), 201);
    assertError(await author.client.patch(view.resource_uri, { public: true }), 403, 'permission_required');
    // Other fields and an unchanged switch are fine without it.
    expectStatus(await author.client.patch(view.resource_uri, { public: false, subline: 'noch intern' }), 200);
    // The author lets the publisher write the view; the publisher publishes it.
    expectStatus(
      await author.client.patch(view.resource_uri, {
        permissions: [{ user: `/api/v1/user/${publisher.id}/`, perms: ['read', 'write'] }],
      }),
      200,
    );
    const published = expectStatus(await publisher.client.patch(view.resource_uri, { public: true }), 200);
    assert.equal(published.public, true);
    // A public view is readable by every signed-in user, writable only with the permission to write.
    const other = await t.user();
    expectStatus(await other.client.get(view.resource_uri), 200);
    assertError(await other.client.patch(view.resource_uri, { name: 'Meins' }), 403, 'permission_denied');
    assertError(await author.client.patch(view.resource_uri, { public: false }), 403, 'permission_required');
    expectStatus(await admin.patch(view.resource_uri, { public: false }), 200);
    assertError(await other.client.get(view.resource_uri), 404, 'not_found');
  });

  it('refuses layers the author may not read, and keeps short names unique', async () => {
    const author = await t.user();
    const unknown = await author.client.post(VIEWS, { name: 'X', layergroup: tree([{ layer: secret.resource_uri }]) });
    assertError(unknown, 400, 'invalid_field');
    assert.equal(unknown.body.field, 'layergroup');
    assertError(await admin.post(VIEWS, { name: 'Y', layergroup: tree([{ layer: `${LAYERS}999999/` }]) }), 400, 'invalid_field');
    expectStatus(await admin.post(VIEWS, { name: 'Eins', slug: 'eins' }), 201);
    const taken = await admin.post(VIEWS, { name: 'Zwei', slug: 'eins' }, { headers: { 'accept-language': 'de' } });
    assertError(taken, 400, 'slug_taken');
    assert.match(taken.body.reason, /„eins“ wird schon von einer anderen Ansicht verwendet/);
    assertError(await admin.post(VIEWS, { name: 'Drei', slug: 'mit leerzeichen' }), 400, 'invalid_field', /letters, digits/);
  });

  it('answers bad trees with the field and a message in the caller’s language, and stores nothing', async () => {
    const before = expectStatus(await admin.get(VIEWS), 200).meta.total_count;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ layergroup: tree([{ layer: 'Bäume' }]) }, 'layergroup.layers[0].layer', /address of a layer/],
      [{ layergroup: tree([{ layer: layer.resource_uri, opacity: 2 }]) }, 'layergroup.layers[0].opacity', /between 0 and 1/],
      [
        {
          layergroup: tree([
            { layer: layer.resource_uri, id: 'a' },
            { layer: layer.resource_uri, id: 'a' },
          ]),
        },
        'layergroup.layers[1].id',
        /“a”/,
      ],
      [{ layergroup: tree([], [{ group_display: 'grid' }]) }, 'layergroup.layergroups[0].group_display', /folder, layer/],
      [
        { layergroup: tree([{ layer: layer.resource_uri, time_min: '2021-01-01', time_max: '2020-01-01' }]) },
        'layergroup.layers[0].time_max',
        /not be before/,
      ],
      [{ poigroup: { pois: [{ lat: 95, lon: 7 }] } }, 'poigroup.pois[0].lat', /between -90 and 90/],
      [{ poigroup: { pois: [{ lon: 7 }] } }, 'poigroup.pois[0].lat', /must be a number/],
      [
        { poigroup: { pois: [{ lat: 50, lon: 7, ground_ref: 'sea' }] } },
        'poigroup.pois[0].ground_ref',
        /absolute, relative, none/,
      ],
      [{ poigroup: { pois: [{ lat: 50, lon: 7, layers: [{ id: 'l9' }] }] } }, 'poigroup.pois[0].layers[0].id', /does not hold/],
      [{ poigroup: { pois: 'Dom' } }, 'poigroup.pois', /must be a list/],
      [{ home: { lon: 7 } }, 'home.lat', /must be a number/],
      [{ config: { viewer: 'auto' } }, 'config.viewer', /must be an object/],
    ];
    for (const [fields, field, message] of cases) {
      const res = await admin.post(VIEWS, { name: 'Falsch', ...fields });
      assertError(res, 400, 'invalid_field');
      assert.equal(res.body.field, field, JSON.stringify(fields));
      assert.match(res.body.reason, message, JSON.stringify(fields));
    }
    // Nested deeper than 10 levels.
    let deep: Record<string, unknown> = { name: 'g' };
    for (let i = 0; i < 11; i++) deep = { name: `g${i}`, layergroups: [deep] };
    const tooDeep = await admin.post(
      VIEWS,
      { name: 'Tief', layergroup: tree([], [deep]) },
      { headers: { 'accept-language': 'de' } },
    );
    assertError(tooDeep, 400, 'invalid_field');
    assert.match(tooDeep.body.reason, /höchstens 10 Ebenen/);
    assert.equal(expectStatus(await admin.get(VIEWS), 200).meta.total_count, before);
  });

  it('lists views by name unless asked otherwise', async () => {
    const lister = await t.user();
    for (const name of ['Zeder', 'Ahorn', 'Buche']) expectStatus(await lister.client.post(VIEWS, { name }), 201);
    const names = expectStatus(await lister.client.get(VIEWS), 200).objects.map((v: { name: string }) => v.name);
    assert.deepEqual(
      names.filter((n: string) => ['Ahorn', 'Buche', 'Zeder'].includes(n)),
      ['Ahorn', 'Buche', 'Zeder'],
    );
  });

  it('names the object permissions of views and frozen views for the user and group editors, in both languages', async () => {
    const { client } = await t.user();
    const expected: Record<string, Record<string, string>> = {
      en: {
        read_view: 'View: read',
        write_view: 'View: edit',
        read_finalview: 'Frozen view: read',
        write_finalview: 'Frozen view: edit',
      },
      de: {
        read_view: 'Ansicht: lesen',
        write_view: 'Ansicht: bearbeiten',
        read_finalview: 'Eingefrorene Ansicht: lesen',
        write_finalview: 'Eingefrorene Ansicht: bearbeiten',
      },
    };
    for (const [lang, labels] of Object.entries(expected)) {
      const { objects } = expectStatus(
        await client.get('/api/v2/backend/permissions', { headers: { 'accept-language': lang } }),
        200,
      );
      const got = Object.fromEntries(objects.map((p: { name: string; label: string }) => [p.name, p.label]));
      for (const [name, label] of Object.entries(labels)) assert.equal(got[name], label, `${lang} ${name}`);
    }
  });
});
