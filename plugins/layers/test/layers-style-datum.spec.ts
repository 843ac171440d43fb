import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { addDatum, newDepot, type Datum, type Depot, type Moment } from '@werkbank/plugin-magazine/testing';
import { LayerReader, type EffectiveLayerStyle, type Layer } from '../src/common/layers-api';
import type { LayerStyle } from '../src/common/style-model';
import { featureDepot, layersServer, newLayer } from './layers-support';

const rule = (name: string, fill: string): LayerStyle['rules'][number] => ({
  name,
  symbol: { symbol_type: 'style', fill, fill_opacity: 1, circle_radius: 6 },
});
const OWN: LayerStyle = { rules: [rule('Eigen', '#0000ff')] };
const V1: LayerStyle = {
  rules: [rule('Eichen', '#00ff00'), { ...rule('Buchen', '#ff0000'), filter: { op: '==', attribute: 'art', value: 'Buche' } }],
};
const V2: LayerStyle = { rules: [rule('Neu', '#ffff00')] };

const userUri = (id: number) => `/api/v1/user/${id}/`;
const address = (d: { id: number }) => `/api/v1/datum/${d.id}/`;

/**
 * Layers linking style datums of style depots (decision 0068): the link is checked with the
 * caller's permissions, the effective style is the datum's version at the depot's latest approved
 * moment (the head's before the first approval), edits and "save as" write into the depot through
 * the Magazine's DepotAccess (its moments and permissions apply), and the exports draw it.
 */
describe('layers: styles from style depots', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  const styleDepot = async (c: Client, fields: Record<string, unknown> = {}) => newDepot(c, 'style', fields);
  const addStyle = (c: Client, depot: Depot, name: string, style: LayerStyle) =>
    addDatum(c, depot, { value: { name, ...style } });
  const effective = async (c: Client, layer: Layer) =>
    expectStatus<EffectiveLayerStyle>(await c.get(`${layer.resource_uri}effective_style/`), 200);
  const approveHead = async (c: Client, depot: Depot) => {
    const head = expectStatus<Depot>(await c.get(depot.resource_uri), 200).current_moment!;
    return expectStatus<Moment>(await c.post(`/api/v1/moment/${head.id}/approve/`, {}), 200);
  };

  it('shows a depot whose Style tab picked a style depot as a layer drawn with that depot’s first style', async () => {
    const styles = await styleDepot(admin);
    const first = await addStyle(admin, styles, 'Bäume', V1);
    const trees = await newDepot(admin, 'feature', { style_depot: styles.resource_uri });
    const shown = expectStatus<{ layer_id: number }>(await admin.get(`${trees.resource_uri}show_as_layer/`), 200);
    const layer = expectStatus<Layer>(await admin.get(`/api/v1/layer/${shown.layer_id}/`), 200);
    assert.equal(layer.style_datum, address(first));
    assert.deepEqual((await effective(admin, layer)).style, V1);
    // A depot without a style depot gets a layer with the default style.
    const plain = await newDepot(admin, 'feature');
    const other = expectStatus<{ layer_id: number }>(await admin.get(`${plain.resource_uri}show_as_layer/`), 200);
    assert.equal(expectStatus<Layer>(await admin.get(`/api/v1/layer/${other.layer_id}/`), 200).style_datum, null);
  });

  it('links a style datum and draws its head version until the depot approves one, then the approved version', async () => {
    const depot = await styleDepot(admin);
    const datum = await addStyle(admin, depot, 'Bäume', V1);
    const layer = await newLayer(admin, { style: OWN });
    assert.equal(layer.style_datum, null);
    assert.deepEqual(await effective(admin, layer), {
      style: OWN,
      source: 'layer',
      datum: null,
      depot: null,
      moment_id: null,
      approved: false,
    });

    const linked = expectStatus<Layer>(await admin.patch(layer.resource_uri, { style_datum: address(datum) }), 200);
    assert.equal(linked.style_datum, address(datum));
    assert.equal(linked.revision, layer.revision + 1);
    assert.deepEqual(linked.style, OWN, 'the own style is kept for unlinking');
    const head = await effective(admin, layer);
    assert.deepEqual(head.style, V1);
    assert.equal(head.source, 'datum');
    assert.equal(head.approved, false);
    assert.equal(head.name, 'Bäume');
    assert.equal(head.depot, depot.resource_uri);

    const approved = await approveHead(admin, depot);
    // An edit after the approval goes into a new open moment: maps keep the approved version.
    const saved = expectStatus<{ datum: string; moment_id: number; depot: string }>(
      await admin.post(`${layer.resource_uri}save_style/`, { datum: address(datum), style: V2 }),
      200,
    );
    assert.equal(saved.datum, address(datum));
    assert.equal(saved.depot, depot.resource_uri);
    assert.ok(saved.moment_id > approved.id, 'the new version is in a new moment');
    const atApproved = await effective(admin, layer);
    assert.deepEqual([atApproved.style, atApproved.approved, atApproved.moment_id], [V1, true, approved.id]);
    assert.match((await admin.get(`${layer.resource_uri}style.sld`)).body as string, /<se:Name>Buchen<\/se:Name>/);
    const value = expectStatus<Datum>(await admin.get(address(datum)), 200).value as { name: string; rules: unknown };
    assert.deepEqual(value, { name: 'Bäume', ...V2 }, 'the head holds the new version, its name kept');
    assert.equal(
      expectStatus<Layer>(await admin.get(layer.resource_uri), 200).revision,
      linked.revision,
      'the layer is unchanged',
    );

    await approveHead(admin, depot);
    assert.deepEqual((await effective(admin, layer)).style, V2);
    const reader = t.server.kernel.container.get<LayerReader>(LayerReader);
    const [{ id }] = (await t.server.db.dataSource.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
      t.server.config.adminUsername,
    ])) as { id: number }[];
    const viaApi = await reader.effectiveStyle((await t.server.accounts.loadAuthUser(id))!, layer.id);
    assert.deepEqual(viaApi, await effective(admin, layer), 'the typed API gives what the route gives');

    const unlinked = expectStatus<Layer>(await admin.patch(layer.resource_uri, { style_datum: null }), 200);
    assert.equal(unlinked.style_datum, null);
    assert.deepEqual((await effective(admin, layer)).style, OWN);
  });

  it('refuses links to style depots the user may not read, to other depots’ datums and to invalid styles', async () => {
    const author = await t.user();
    const layer = await newLayer(author.client);
    const hidden = await styleDepot(admin);
    const hiddenStyle = await addStyle(admin, hidden, 'Geheim', V1);
    const refused = await author.client.patch(layer.resource_uri, { style_datum: address(hiddenStyle) });
    assertError(refused, 400, 'invalid_field');
    assert.equal(refused.body.field, 'style_datum');
    assert.match(refused.body.reason, /style depot you may read/);
    const de = await author.client.patch(
      layer.resource_uri,
      { style_datum: address(hiddenStyle) },
      { headers: { 'Accept-Language': 'de' } },
    );
    assertError(de, 400, 'invalid_field');

    const features = await featureDepot(admin, [{ art: 'Eiche' }]);
    const [feature] = expectStatus<{ objects: Datum[] }>(await admin.get(`/api/v1/datum/by-depot/${features.id}/`), 200).objects;
    const own = await newLayer(admin);
    assertError(await admin.patch(own.resource_uri, { style_datum: address(feature) }), 400, 'invalid_field');
    assertError(await admin.patch(own.resource_uri, { style_datum: '/api/v1/datum/999999/' }), 400, 'invalid_field');
    const empty = await addDatum(admin, await styleDepot(admin), {
      value: { rules: [{ symbol: { symbol_type: 'style', fill: 'rot' } }] },
    });
    const invalid = await admin.patch(own.resource_uri, { style_datum: address(empty) });
    assertError(invalid, 400, 'invalid_field');
    assert.match(invalid.body.reason, /no valid style/);

    // Once the author may read the depot, the link is taken.
    expectStatus(await admin.patch(hidden.resource_uri, { permissions: [{ user: userUri(author.id), perms: ['read'] }] }), 200);
    expectStatus(await author.client.patch(layer.resource_uri, { style_datum: address(hiddenStyle) }), 200);
  });

  it('falls back to the layer’s own style for a reader who may not read the style depot', async () => {
    const depot = await styleDepot(admin);
    const datum = await addStyle(admin, depot, 'Intern', V1);
    const layer = await newLayer(admin, { style: OWN, style_datum: address(datum) });
    const reader = await t.user();
    expectStatus(await admin.patch(layer.resource_uri, { permissions: [{ user: userUri(reader.id), perms: ['read'] }] }), 200);
    const seen = await effective(reader.client, layer);
    assert.deepEqual([seen.style, seen.source, seen.fallback], [OWN, 'layer', 'unreadable']);
    assert.deepEqual((await effective(admin, layer)).style, V1);
    // A reader of the layer cannot write into the depot through it, nor link.
    assertError(
      await reader.client.post(`${layer.resource_uri}save_style/`, { datum: address(datum), style: V2 }),
      404,
      'not_found',
    );
    assertError(
      await reader.client.post(`${layer.resource_uri}save_style/`, { depot: depot.resource_uri, style: V2, link: true }),
      403,
      'permission_denied',
    );
  });

  it('saves a style as a new style datum and links it; the depot’s permissions and moments apply', async () => {
    const author = await t.user();
    const depot = await styleDepot(admin);
    const readOnly = await styleDepot(admin);
    expectStatus(
      await admin.patch(depot.resource_uri, { permissions: [{ user: userUri(author.id), perms: ['read', 'write'] }] }),
      200,
    );
    expectStatus(await admin.patch(readOnly.resource_uri, { permissions: [{ user: userUri(author.id), perms: ['read'] }] }), 200);
    const layer = await newLayer(author.client, { name: 'Straßenbäume', style: V1 });

    assertError(
      await author.client.post(`${layer.resource_uri}save_style/`, { depot: readOnly.resource_uri, style: V1 }),
      403,
      'permission_denied',
    );
    const features = await featureDepot(author.client, [{ art: 'Eiche' }]);
    const wrong = await author.client.post(`${layer.resource_uri}save_style/`, { depot: features.resource_uri, style: V1 });
    assertError(wrong, 400, 'invalid_field');
    assert.equal(wrong.body.field, 'depot');
    const bad = await author.client.post(`${layer.resource_uri}save_style/`, {
      depot: depot.resource_uri,
      style: { rules: [{ symbol: { symbol_type: 'sparkle' } }] },
    });
    assertError(bad, 400, 'invalid_field');
    assert.equal(bad.body.field, 'style.rules[0].symbol.symbol_type');
    assertError(await author.client.post(`${layer.resource_uri}save_style/`, { style: V1 }), 400, 'invalid_field');

    const saved = expectStatus<{ datum: string; depot: string; moment_id: number; layer: Layer }>(
      await author.client.post(`${layer.resource_uri}save_style/`, { depot: depot.resource_uri, style: V1, link: true }),
      200,
    );
    assert.equal(saved.layer.style_datum, saved.datum);
    assert.equal(saved.layer.revision, layer.revision + 1);
    const datum = expectStatus<Datum>(await author.client.get(saved.datum), 200);
    assert.deepEqual(datum.value, { name: 'Straßenbäume', ...V1 }, 'named after the layer');
    assert.equal(datum.text_repr, 'Straßenbäume');

    // A version the author read that someone else changed since is refused (the Magazine's check).
    const read = expectStatus<Datum>(await author.client.get(saved.datum), 200);
    expectStatus(await admin.post(`${layer.resource_uri}save_style/`, { datum: saved.datum, style: V2 }), 200);
    assertError(
      await author.client.post(`${layer.resource_uri}save_style/`, { datum: saved.datum, style: V1, version: read.version }),
      409,
      'datum_changed',
    );
  });
});
