import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { addDatum, headOf, newDepot } from '@werkbank/plugin-magazine/testing';
import { featureDepot, newLayer, layersServer } from './layers-support';

type NewDatum = Record<string, unknown> & { content_type: string; depot: string; moment_id: number | null; pile?: string };

/** spec 000 §7: GET create-in-depot and create-in-pile with optional moment_id and template (decision 0064). */
describe('layers: create-in-pile and the template of create-in-depot', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  it('answers the fields of a new datum for the depot of a pile, at the head or at moment_id', async () => {
    const depot = await featureDepot(admin, [{ name: 'Eiche' }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri] });
    const pile = layer.layerpiles[0];
    const head = await headOf(admin, depot);
    const fresh = expectStatus<NewDatum>(await admin.get(`/api/v1/datum/create-in-pile/${pile.id}/`), 200);
    assert.equal(fresh.depot, depot.resource_uri);
    assert.equal(fresh.pile, pile.resource_uri);
    assert.equal(fresh.content_type, '/api/v1/type/feature/');
    assert.equal(fresh.moment_id, head.id);
    assert.deepEqual(fresh.feature, { type: 'Feature', geometry: null, properties: {} }, "the feature type's template");
    const atMoment = expectStatus<NewDatum>(
      await admin.get(`/api/v1/datum/create-in-pile/${pile.id}/?moment_id=${head.id}`),
      200,
    );
    assert.equal(atMoment.moment_id, head.id);
    const other = await featureDepot(admin, [{ name: 'Buche' }]);
    const foreign = await headOf(admin, other);
    assertError(
      await admin.get(`/api/v1/datum/create-in-pile/${pile.id}/?moment_id=${foreign.id}`, {
        headers: { 'Accept-Language': 'de' },
      }),
      404,
      'unknown_moment',
      /gehört nicht zu diesem Depot/,
    );
    assertError(await admin.get(`/api/v1/datum/create-in-pile/${pile.id}/?moment_id=x`), 400, 'invalid_parameter');
  });

  it('is only for readers of the layer, and 404 for an unknown pile', async () => {
    const depot = await featureDepot(admin, [{ name: 'Eiche' }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri] });
    const bob = await t.user();
    assertError(await bob.client.get(`/api/v1/datum/create-in-pile/${layer.layerpiles[0].id}/`), 404, 'not_found');
    assertError(await admin.get('/api/v1/datum/create-in-pile/999999/'), 404, 'not_found');
    assertError(await admin.get('/api/v1/datum/create-in-pile/abc/'), 404, 'not_found');
  });

  it('starts from a template datum of a fitting type; an unknown or unfitting template is refused with its reason', async () => {
    const depot = await featureDepot(admin, [{ name: 'Eiche', height: 12 }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri] });
    const [datum] = expectStatus<{ objects: Array<{ resource_uri: string }> }>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/`),
      200,
    ).objects;
    const fromTemplate = expectStatus<NewDatum>(
      await admin.get(
        `/api/v1/datum/create-in-pile/${layer.layerpiles[0].id}/?template=${encodeURIComponent(datum.resource_uri)}`,
      ),
      200,
    );
    assert.deepEqual((fromTemplate.feature as { properties: unknown }).properties, { name: 'Eiche', height: 12 });
    const viaDepot = expectStatus<NewDatum>(
      await admin.get(`/api/v1/datum/create-in-depot/${depot.id}/?template=${encodeURIComponent(datum.resource_uri)}`),
      200,
    );
    assert.deepEqual(viaDepot.feature, fromTemplate.feature);

    const strings = await newDepot(admin, 'string');
    const word = await addDatum(admin, strings, { value: 'Wort' });
    const wrongType = await admin.get(
      `/api/v1/datum/create-in-depot/${depot.id}/?template=${encodeURIComponent(word.resource_uri)}`,
    );
    assertError(wrongType, 400, 'template_type', /string/);
    assertError(
      await admin.get(`/api/v1/datum/create-in-depot/${depot.id}/?template=/api/v1/datum/999999/`),
      404,
      'unknown_template',
    );
    assertError(
      await admin.get(`/api/v1/datum/create-in-depot/${depot.id}/?template=nonsense`, { headers: { 'Accept-Language': 'en' } }),
      400,
      'invalid_parameter',
      /datum address/,
    );
    // A datum the caller may not read is as unknown as a missing one.
    const bob = await t.user();
    const own = await featureDepot(bob.client, [{ name: 'Bob' }]);
    assertError(
      await bob.client.get(`/api/v1/datum/create-in-depot/${own.id}/?template=${encodeURIComponent(datum.resource_uri)}`),
      404,
      'unknown_template',
    );
  });
});
