import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { adminWithDepotAccess, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { AuthUser } from '@werkbank/sdk/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';

const FINALVIEWS = '/api/v1/finalview/';
const CREATE = '/switchboard/create-finalview/';

/** Frozen views (spec 000 §5, §7; decision 0086): a copy of a view with its layers pinned to the moments approved then. */
describe('views: frozen views', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;
  let depot: Depot;
  let layer: { id: number; resource_uri: string; revision: number };
  let view: { id: number; resource_uri: string };

  const point = (name: string) => ({
    feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [6.95, 50.94] }, properties: { name } },
  });
  const approve = async (items: unknown[]) => {
    const { moment_id } = await access.write(adminUser, depot.id, items as never, { message: 'Stand' });
    expectStatus(await admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    return moment_id;
  };

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'layers', 'views'] });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
    depot = await newDepot(admin, 'feature');
    layer = expectStatus(await admin.post('/api/v1/layer/', { name: 'Bäume', layerpiles: [depot.resource_uri] }), 201);
    view = expectStatus(
      await admin.post('/api/v1/view/', {
        name: 'Stadtgrün',
        subline: 'Bäume',
        home: { lon: 6.95, lat: 50.94, height: 900 },
        layergroup: { layers: [{ layer: layer.resource_uri, queryable: true }] },
      }),
      201,
    );
  });
  after(() => t?.close());

  it('copies the view and pins its layers to the approved moments; later approvals and the view’s deletion change nothing', async () => {
    const first = await approve([point('Linde')]);
    expectStatus(
      await admin.post(`/api/v2/presenting/view/${view.id}/translations`, [{ key: 'Stadtgrün', values: { en: 'Urban green' } }]),
      200,
    );
    const frozen = expectStatus(await admin.get(`${CREATE}?slug=gruen_2026&view=${view.id}`), 200);
    assert.equal(frozen.slug, 'gruen_2026');
    assert.equal(frozen.name, 'Stadtgrün');
    assert.equal(frozen.view, view.resource_uri);
    assert.equal(frozen.public, false);
    assert.match(frozen.resource_uri, /^\/api\/v1\/finalview\/\d+\/$/);
    const source = expectStatus(await admin.get(view.resource_uri), 200);
    assert.deepEqual(frozen.frozen.layergroup, source.layergroup);
    assert.deepEqual(frozen.frozen.home, source.home);
    assert.equal(frozen.frozen.subline, 'Bäume');
    assert.deepEqual(frozen.frozen.translations, [{ key: 'Stadtgrün', values: { en: 'Urban green' } }]);
    assert.deepEqual(frozen.pins, { [layer.id]: { revision: layer.revision, moments: { [depot.id]: first } } });

    // New data approved and the view changed: the frozen view stays as it was; a second freeze pins the new moment.
    const second = await approve([point('Linde'), point('Eiche')]);
    assert.notEqual(second, first);
    const later = expectStatus(await admin.post(CREATE, { slug: 'gruen_spaeter', view: view.resource_uri }), 200);
    assert.deepEqual(later.pins, { [layer.id]: { revision: layer.revision, moments: { [depot.id]: second } } });
    expectStatus(await admin.patch(view.resource_uri, { name: 'Stadtgrün neu', layergroup: { layers: [] } }), 200);
    const again = expectStatus(await admin.get(frozen.resource_uri), 200);
    assert.deepEqual(again.pins, frozen.pins);
    assert.deepEqual(again.frozen, frozen.frozen);
    // Its slug is the one field its writers change.
    assertError(await admin.patch(frozen.resource_uri, { name: 'anders' }), 400, 'read_only_field');
    assertError(await admin.patch(frozen.resource_uri, { pins: {} }), 400, 'read_only_field');
    const renamed = expectStatus(await admin.patch(frozen.resource_uri, { slug: 'gruen_stand_1' }), 200);
    assert.equal(renamed.slug, 'gruen_stand_1');
    assert.equal(renamed.name, 'Stadtgrün');
    // Deleting the source view leaves the frozen view.
    expectStatus(await admin.delete(view.resource_uri), 204);
    const orphan = expectStatus(await admin.get(frozen.resource_uri), 200);
    assert.equal(orphan.view, null);
    assert.deepEqual(orphan.pins, frozen.pins);
    assert.deepEqual(
      expectStatus(await admin.get(`${FINALVIEWS}?slug=gruen_stand_1`), 200).objects.map((f: { id: number }) => f.id),
      [frozen.id],
    );
  });

  it('needs a slug and a view, a view the caller may read, a free valid slug, and the CSRF header', async () => {
    const v = expectStatus(await admin.post('/api/v1/view/', { name: 'Noch eine' }), 201);
    const de = { headers: { 'accept-language': 'de' } };
    const noSlug = await admin.get(`${CREATE}?view=${v.id}`, de);
    assertError(noSlug, 400, 'invalid_parameter', /Kurzname \(slug\) und eine Ansicht/);
    assert.equal(noSlug.body.field, 'slug');
    assert.equal((await admin.get(`${CREATE}?slug=x`)).body.field, 'view');
    assertError(await admin.get(`${CREATE}?slug=x&view=Stadtgrün`), 400, 'invalid_parameter');
    assertError(await admin.get(`${CREATE}?slug=x&view=999999`), 404, 'not_found');
    const stranger = await t.user();
    assertError(await stranger.client.get(`${CREATE}?slug=x&view=${v.id}`), 404, 'not_found');
    expectStatus(await admin.get(`${CREATE}?slug=eins&view=${v.id}`), 200);
    assertError(await admin.get(`${CREATE}?slug=eins&view=${v.id}`), 400, 'slug_taken');
    assertError(await admin.get(`${CREATE}?slug=mit%20leerzeichen&view=${v.id}`), 400, 'invalid_field');
    assertError(await admin.get(`${CREATE}?slug=zwei&view=${v.id}`, { csrf: false }), 403, 'csrf_missing');
    // Frozen views are made only from a view.
    assertError(await admin.post(FINALVIEWS, { slug: 'direkt' }), 405, 'finalview_create');
    // Without a session there is no CSRF token either: refused before anything else.
    assertError(await t.client().get(`${CREATE}?slug=anon&view=${v.id}`), 403, 'csrf_missing');
  });
});
