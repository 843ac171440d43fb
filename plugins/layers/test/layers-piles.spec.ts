import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { headOf, newDepot } from '@werkbank/plugin-magazine/testing';
import type { Layer, LayerAttribute } from '../src/common/layers-api';
import { featureDepot, newLayer, layersServer } from './layers-support';

/** Layerpiles, the Magazine's layer calls and the attribute calls (spec 000 §7, spec 001 §7). */
describe('layers: piles, show/edit as layer, by-pile, attributes', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  it('shows a depot as a layer once, edits it as that layer, and redirects with ?redirect=1', async () => {
    const depot = await featureDepot(admin, [{ name: 'Eiche' }]);
    const shown = expectStatus<{ status: string; url: string; layer_id: number; created: boolean }>(
      await admin.get(`${depot.resource_uri}show_as_layer/`),
      200,
    );
    assert.equal(shown.status, 'ok');
    assert.equal(shown.created, true);
    assert.equal(shown.url, `/layers/edit/${shown.layer_id}`);
    const layer = expectStatus<Layer>(await admin.get(`/api/v1/layer/${shown.layer_id}/`), 200);
    assert.equal(layer.name, depot.name);
    assert.equal(layer.type, 'feature');
    assert.deepEqual(
      layer.layerpiles.map((p) => p.depot),
      [depot.resource_uri],
    );
    const again = expectStatus<{ layer_id: number; created: boolean }>(
      await admin.get(`${depot.resource_uri}edit_as_layer/`),
      200,
    );
    assert.deepEqual([again.layer_id, again.created], [shown.layer_id, false]);
    const moment = expectStatus<{ layer_id: number }>(
      await admin.get(`/api/v1/moment/${(await headOf(admin, depot)).id}/show_as_layer/`),
      200,
    );
    assert.equal(moment.layer_id, shown.layer_id);
    const redirect = await admin.get(`${depot.resource_uri}edit_as_layer/?redirect=1`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), `/layers/edit/${shown.layer_id}`);
    const datums = expectStatus<{ objects: Array<{ resource_uri: string }> }>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/`),
      200,
    );
    const byDatum = expectStatus<{ layer_id: number }>(await admin.get(`${datums.objects[0].resource_uri}edit_as_layer/`), 200);
    assert.equal(byDatum.layer_id, shown.layer_id);
  });

  it('refuses show_as_layer for a depot type no layer shows, with the reason; and unreadable depots', async () => {
    const strings = await newDepot(admin, 'string');
    const res = await admin.get(`${strings.resource_uri}show_as_layer/`);
    assertError(res, 400, 'no_layer_type');
    assert.match(res.body.reason, /string/);
    const bob = await t.user();
    assertError(await bob.client.get(`${strings.resource_uri}show_as_layer/`), 404, 'not_found');
  });

  it('lists a pile’s datums with by-pile for readers of the layer only', async () => {
    const depot = await featureDepot(admin, [{ a: 1 }, { a: 2 }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri] });
    const pile = layer.layerpiles[0];
    const page = expectStatus<{ objects: unknown[]; meta: { total_count: number } }>(
      await admin.get(`/api/v1/datum/by-pile/${pile.id}/`),
      200,
    );
    assert.equal(page.meta.total_count, 2);
    const bob = await t.user();
    assertError(await bob.client.get(`/api/v1/datum/by-pile/${pile.id}/`), 404, 'not_found');
    assertError(await bob.client.get(pile.resource_uri), 404, 'not_found');
    assertError(await admin.get('/api/v1/datum/by-pile/999999/'), 404, 'not_found');
  });

  it('answers the union of the piles’ properties with types, and their values', async () => {
    const a = await featureDepot(admin, [
      { name: 'Eiche', height: 12 },
      { name: 'Buche', height: 7.5 },
    ]);
    const b = await featureDepot(admin, [{ name: 'Eiche', open: true }]);
    const layer = await newLayer(admin, { layerpiles: [a.resource_uri, b.resource_uri] });
    const attrs = expectStatus<{ objects: LayerAttribute[] }>(
      await admin.get(`/api/v2/backend/layer-attributes?layer=${layer.id}`),
      200,
    );
    assert.deepEqual(attrs.objects, [
      { name: 'name', type: 'string' },
      { name: 'height', type: 'number' },
      { name: 'open', type: 'boolean' },
    ]);
    const values = expectStatus<{ objects: unknown[] }>(
      await admin.get(`/api/v2/backend/layer-attribute-values?layer=${layer.id}&attribute=name&unique=true`),
      200,
    );
    assert.deepEqual(values.objects, ['Eiche', 'Buche']);
    assertError(await admin.get(`/api/v2/backend/layer-attributes?layer=x`), 400, 'invalid_parameter');
    assertError(await admin.get(`/api/v2/backend/layer-attribute-values?layer=${layer.id}`), 400, 'invalid_parameter');
    const bob = await t.user();
    assertError(await bob.client.get(`/api/v2/backend/layer-attributes?layer=${layer.id}`), 404, 'not_found');
  });
});

/** Without the layers plugin the Magazine's layer calls say so (501), after checking access. */
describe('layers: the Magazine’s layer calls without the layers plugin', function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine'] });
  });
  after(() => t?.close());

  it('answers 501 layers_unavailable', async () => {
    const admin = await t.admin();
    const depot = await featureDepot(admin, [{ a: 1 }]);
    const head = await headOf(admin, depot);
    assertError(await admin.get(`/api/v1/moment/${head.id}/show_as_layer/`), 501, 'layers_unavailable');
    assertError(await admin.get(`/api/v1/moment/${head.id}/edit_as_layer/`), 501, 'layers_unavailable');
    assertError(await admin.get(`${depot.resource_uri}show_as_layer/`), 501, 'layers_unavailable');
    assertError(await admin.get(`${depot.resource_uri}edit_as_layer/`), 501, 'layers_unavailable');
    assertError(await admin.get(`/api/v1/datum/by-pile/1/`), 501, 'layers_unavailable');
    assertError(await admin.get(`/api/v1/datum/create-in-pile/1/`), 501, 'layers_unavailable');
    assertError(await admin.get('/api/v1/depot/999999/show_as_layer/'), 404, 'not_found');
  });
});
