import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import type { Layer } from '../src/common/layers-api';
import { featureDepot, LAYERS, newLayer, layersServer } from './layers-support';

/**
 * The editor's Selection window, Filter and Events tabs against the server (spec 001 §2.2, §3.1,
 * §7): selection fields and attribute filters kept as sent and refused when malformed, suggested
 * values for readers of the layer only, and the layer's events by `layer_id`.
 */
describe('layers: selection window, filters, attribute values and layer events', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  it('keeps the selection window and filters in their order and refuses bad types', async () => {
    const selection_fields = [
      { key: 'tree_id', displayName: 'Tree ID', type: 'integer', visible: true },
      { key: 'name', displayName: 'Name', type: 'title', visible: false, unit: null },
      { key: 'height', displayName: 'Höhe', type: 'float_one_decimal', visible: true, unit: 'm' },
    ];
    const attribute_filters = [
      {
        attribute_key: 'name',
        display_name: 'Name',
        visible: true,
        filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: ['Eiche', 3] } },
      },
      {
        attribute_key: 'height',
        filter: { filter_type: 'min-max-value', filter_arguments: { min_value: 1.5, max_value: null } },
      },
      {
        attribute_key: 'planted',
        filter: { filter_type: 'temporal-bounds', filter_arguments: { time_min: '2020-01-01T00:00:00.000Z', time_max: null } },
      },
    ];
    const layer = await newLayer(admin, {
      selection_title: 'Baum',
      selection_contact: 'gruen@example.org',
      selection_image: 'https://example.org/baum.png',
      selection_fields,
      attribute_filters,
    });
    const back = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
    assert.deepEqual(back.selection_fields, selection_fields);
    assert.deepEqual(back.attribute_filters, attribute_filters);
    assert.equal(back.selection_title, 'Baum');
    const reordered = [selection_fields[2], selection_fields[0], selection_fields[1]];
    const patched = expectStatus<Layer>(await admin.patch(layer.resource_uri, { selection_fields: reordered }), 200);
    assert.deepEqual(
      patched.selection_fields.map((f) => f.key),
      ['height', 'tree_id', 'name'],
    );
    assertError(
      await admin.patch(layer.resource_uri, { selection_fields: [{ key: 'a', displayName: 'A', type: 'hologram' }] }),
      400,
      'invalid_field',
    );
    assertError(
      await admin.patch(layer.resource_uri, {
        attribute_filters: [
          { attribute_key: 'a', filter: { filter_type: 'min-max-value', filter_arguments: { min_value: 'viel' } } },
        ],
      }),
      400,
      'invalid_field',
    );
    assertError(
      await admin.patch(layer.resource_uri, {
        attribute_filters: [{ attribute_key: 'a', filter: { filter_type: 'regex', filter_arguments: {} } }],
      }),
      400,
      'invalid_field',
    );
  });

  it('suggests each value once, or every value, to readers of the layer', async () => {
    const depot = await featureDepot(admin, [{ art: 'Eiche' }, { art: 'Buche' }, { art: 'Eiche' }, { hoehe: 3 }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri] });
    const path = `/api/v2/backend/layer-attribute-values?layer=${layer.id}&attribute=art`;
    assert.deepEqual(expectStatus<{ objects: unknown[] }>(await admin.get(`${path}&unique=true`), 200).objects, [
      'Eiche',
      'Buche',
    ]);
    assert.deepEqual(expectStatus<{ objects: unknown[] }>(await admin.get(path), 200).objects, ['Eiche', 'Buche', 'Eiche']);
    assert.deepEqual(
      expectStatus<{ objects: unknown[] }>(await admin.get(`${path.replace('=art', '=fehlt')}&unique=true`), 200).objects,
      [],
    );
    const bob = await t.user();
    assertError(await bob.client.get(`${path}&unique=true`), 404, 'not_found');
    assertError(await t.client().get(`${path}&unique=true`), 401, 'not_authenticated');
    // A read grant on the layer (and on its depot, whose data the values are) opens the suggestions.
    await admin.patch(layer.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read'] }] });
    await admin.patch(depot.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read'] }] });
    assert.deepEqual(expectStatus<{ objects: unknown[] }>(await bob.client.get(`${path}&unique=true`), 200).objects, [
      'Eiche',
      'Buche',
    ]);
  });

  it("lists a layer's events by layer_id, for those who may see them", async () => {
    const a = await newLayer(admin, { name: 'Ereignisse A' });
    const b = await newLayer(admin, { name: 'Ereignisse B' });
    await admin.patch(a.resource_uri, { name: 'Ereignisse A2' });
    const feed = expectStatus<{ objects: Array<{ key: string; content_object: string }> }>(
      await admin.get(`/api/v1/event/?layer_id=${a.id}`),
      200,
    );
    assert.deepEqual(
      feed.objects.map((e) => e.key),
      ['update', 'create'],
    );
    assert.ok(feed.objects.every((e) => e.content_object === a.resource_uri));
    const ofB = expectStatus<{ objects: Array<{ content_object: string }> }>(
      await admin.get(`/api/v1/event/?layer_id=${b.id}`),
      200,
    );
    assert.deepEqual(
      ofB.objects.map((e) => e.content_object),
      [b.resource_uri],
    );
    const bob = await t.user();
    assert.deepEqual(
      expectStatus<{ objects: unknown[] }>(await bob.client.get(`/api/v1/event/?layer_id=${a.id}`), 200).objects,
      [],
    );
    assert.deepEqual(expectStatus<{ objects: unknown[] }>(await admin.get(`/api/v1/event/?layer_id=abc`), 200).objects, []);
    assertError(await admin.get(`${LAYERS}?layer_id=${a.id}`), 400, 'unknown_filter');
  });
});
