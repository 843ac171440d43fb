import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { newDepot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '../src/common/layers-api';
import { featureDepot, LAYERS, newLayer, layersServer } from './layers-support';

/** The layer resource (spec 001 §3.1, §5.1): fields, revision, permissions, public, bad input. */
describe('layers: the layer resource', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  it('creates, reads, lists, searches, changes and deletes a layer with every field of spec 001 §3.1', async () => {
    const depot = await featureDepot(admin, [{ name: 'A' }]);
    const layer = await newLayer(admin, {
      name: 'Bäume',
      slug: 'trees_2024',
      attr: { min_zoom: 3, max_zoom: 18, max_load_level: null },
      layerpiles: [{ depot: depot.resource_uri }],
      description_title: 'Titel',
      description: 'Stadtbäume',
      selection_fields: [{ key: 'name', displayName: 'Name', type: 'title', visible: true }],
      attribute_filters: [
        { attribute_key: 'name', filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: ['A'] } } },
      ],
      time_min: '2020-01-01T00:00:00Z',
      time_max: '2020-12-31T00:00:00Z',
      bbox: [6, 50, 8, 52],
    });
    for (const f of [
      'id',
      'revision',
      'name',
      'slug',
      'type',
      'tags',
      'attr',
      'layerpiles',
      'permissions',
      'legend',
      'description_title',
      'description',
      'public',
      'selection_title',
      'selection_contact',
      'selection_image',
      'selection_fields',
      'attribute_filters',
      'time_min',
      'time_max',
      'metadata',
      'bbox',
      'persistent_size',
      'persistent_size_modified',
      'user',
      'resource_uri',
    ])
      assert.ok(f in layer, `field ${f}`);
    assert.equal(layer.type, 'feature');
    assert.equal(layer.revision, 1);
    assert.deepEqual(layer.attr, { min_zoom: 3, max_zoom: 18 }, 'nulls are removed (spec 001 §5.1)');
    assert.equal(layer.user, layer.owner);
    assert.equal(layer.layerpiles.length, 1);
    const pile = layer.layerpiles[0];
    assert.equal(pile.depot, depot.resource_uri);
    assert.equal(pile.content_type, '/api/v1/type/feature/');
    assert.equal(pile.size, 1);
    assert.equal(pile.active, false, 'no approved moment yet');
    assert.equal(pile.switchboard, null);
    assert.deepEqual(expectStatus(await admin.get(pile.resource_uri), 200), pile);

    const list = expectStatus<{ objects: Layer[] }>(await admin.get(`${LAYERS}?q=bäu`), 200);
    assert.deepEqual(
      list.objects.map((l) => l.id),
      [layer.id],
    );
    const changed = expectStatus<Layer>(await admin.patch(layer.resource_uri, { description: 'neu' }), 200);
    assert.equal(changed.description, 'neu');
    expectStatus(await admin.delete(layer.resource_uri), 204);
    assertError(await admin.get(layer.resource_uri), 404, 'not_found');
    const feed = expectStatus<{ objects: Array<{ key: string; content_object: unknown }> }>(
      await admin.get('/api/v1/event/?limit=50'),
      200,
    );
    assert.ok(feed.objects.some((e) => e.key === 'create'));
    assert.ok(feed.objects.some((e) => e.key === 'delete'));
  });

  it('counts the revision up on every change: fields, piles, permissions', async () => {
    const bob = await t.user();
    const a = await featureDepot(admin, [{ x: 1 }]);
    const b = await featureDepot(admin, [{ y: 2 }]);
    const layer = await newLayer(admin, { layerpiles: [a.resource_uri] });
    const r2 = expectStatus<Layer>(await admin.patch(layer.resource_uri, { name: 'zwei' }), 200);
    assert.equal(r2.revision, 2);
    const r3 = expectStatus<Layer>(
      await admin.patch(layer.resource_uri, { layerpiles: [b.resource_uri, ...r2.layerpiles] }),
      200,
    );
    assert.equal(r3.revision, 3);
    assert.deepEqual(
      r3.layerpiles.map((p) => p.depot),
      [b.resource_uri, a.resource_uri],
      'piles keep the order given',
    );
    assert.equal(r3.layerpiles[1].id, r2.layerpiles[0].id, 'a pile sent back keeps its id');
    const r4 = expectStatus<Layer>(
      await admin.patch(layer.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read'] }] }),
      200,
    );
    assert.equal(r4.revision, 4);
  });

  it('lets the owner, grantees and superusers in; public layers are readable by everyone signed in', async () => {
    const owner = await t.user();
    const reader = await t.user();
    const writer = await t.user();
    const other = await t.user();
    const layer = await newLayer(owner.client, {
      permissions: [
        { user: `/api/v1/user/${reader.id}/`, perms: ['read'] },
        { user: `/api/v1/user/${writer.id}/`, perms: ['read', 'write'] },
      ],
    });
    assert.deepEqual(layer.access, ['read', 'write']);
    assertError(await other.client.get(layer.resource_uri), 404, 'not_found');
    assert.deepEqual(expectStatus<Layer>(await reader.client.get(layer.resource_uri), 200).access, ['read']);
    assertError(await reader.client.patch(layer.resource_uri, { name: 'x' }), 403, 'permission_denied');
    expectStatus(await writer.client.patch(layer.resource_uri, { name: 'by writer' }), 200);
    assertError(await writer.client.patch(layer.resource_uri, { permissions: [] }), 403, 'permission_denied');
    expectStatus(await admin.patch(layer.resource_uri, { description: 'admin' }), 200);
    assertError(
      await owner.client.patch(layer.resource_uri, {
        permissions: [{ user: `/api/v1/user/${reader.id}/`, group: '/api/v1/group/1/', perms: ['read'] }],
      }),
      400,
      'invalid_field',
    );

    expectStatus(await owner.client.patch(layer.resource_uri, { public: true }), 200);
    const seen = expectStatus<Layer>(await other.client.get(layer.resource_uri), 200);
    assert.deepEqual(seen.access, ['read'], 'public grants reading only');
    const listed = expectStatus<{ objects: Layer[] }>(await other.client.get(`${LAYERS}?limit=1000`), 200);
    assert.ok(listed.objects.some((l) => l.id === layer.id));
    assertError(await other.client.patch(layer.resource_uri, { name: 'x' }), 403, 'permission_denied');
    assertError(await other.client.delete(layer.resource_uri), 403, 'permission_denied');
  });

  it('refuses bad input: short name, type, zooms, piles of unknown or unreadable depots and of the wrong type', async () => {
    const bad = async (body: Record<string, unknown>, code: string, field: string) => {
      const res = await admin.post(LAYERS, { name: 'bad', ...body });
      assertError(res, 400, code);
      assert.equal(res.body.field, field);
    };
    await bad({ slug: 'mit leer zeichen' }, 'invalid_field', 'slug');
    await bad({ slug: 'ümlaut' }, 'invalid_field', 'slug');
    await bad({ type: 'raster' }, 'invalid_field', 'type');
    await bad({ attr: { min_zoom: 25 } }, 'invalid_field', 'attr.min_zoom');
    await bad({ attr: { max_zoom: -1 } }, 'invalid_field', 'attr.max_zoom');
    await bad({ attr: { min_zoom: 2.5 } }, 'invalid_field', 'attr.min_zoom');
    await bad({ attr: { min_zoom: 10, max_zoom: 4 } }, 'invalid_field', 'attr.min_zoom');
    await bad({ selection_fields: [{ key: 'a', displayName: 'A', type: 'movie' }] }, 'invalid_field', 'selection_fields[0].type');
    await bad(
      {
        attribute_filters: [
          { attribute_key: 'a', filter: { filter_type: 'min-max-value', filter_arguments: { min_value: 'x' } } },
        ],
      },
      'invalid_field',
      'attribute_filters[0].filter.filter_arguments',
    );
    await bad({ time_min: '2021-01-01T00:00:00Z', time_max: '2020-01-01T00:00:00Z' }, 'invalid_field', 'time_min');
    await bad({ bbox: [1, 2, 3] }, 'invalid_field', 'bbox');
    await bad({ layerpiles: [{ depot: '/api/v1/depot/999999/' }] }, 'unknown_pile_depot', 'layerpiles[0].depot');
    await bad({ layerpiles: ['nonsense'] }, 'invalid_field', 'layerpiles[0].depot');
    const strings = await newDepot(admin, 'string');
    await bad({ layerpiles: [strings.resource_uri] }, 'pile_type', 'layerpiles[0].depot');
    const wms = await newDepot(admin, 'wms');
    await bad({ layerpiles: [wms.resource_uri] }, 'pile_type', 'layerpiles[0].depot');
    expectStatus(await admin.post(LAYERS, { name: 'map', type: 'external_map', layerpiles: [wms.resource_uri] }), 201);

    const alice = await t.user();
    const hidden = await featureDepot(admin, [{ a: 1 }]);
    const res = await alice.client.post(LAYERS, { name: 'x', layerpiles: [hidden.resource_uri] });
    assertError(res, 400, 'unknown_pile_depot');

    await newLayer(admin, { slug: 'taken' });
    await bad({ slug: 'taken' }, 'slug_taken', 'slug');
    const feature = await newLayer(admin, { layerpiles: [(await featureDepot(admin, [{ a: 1 }])).resource_uri] });
    assertError(await admin.patch(feature.resource_uri, { type: 'external_map' }), 400, 'pile_type');
    const refused = await admin.post(LAYERS, { name: 'de', slug: 'a b' }, { headers: { 'Accept-Language': 'de' } });
    assert.match(refused.body.reason, /Kurzname/);
  });

  it('offers a new layer template with create_layer', async () => {
    const tpl = expectStatus<Record<string, unknown>>(await admin.get(`${LAYERS}create_layer/?layertype=wfs`), 200);
    assert.equal(tpl.type, 'wfs');
    assert.deepEqual(tpl.layerpiles, []);
    assert.equal(tpl.public, false);
    assertError(await admin.get(`${LAYERS}create_layer/?layertype=raster`), 400, 'invalid_parameter');
  });
});
