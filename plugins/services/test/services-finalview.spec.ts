import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { adminWithDepotAccess, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import type { AuthUser } from '@werkbank/sdk/node';
import { approveAndHear, type ServicesFixture } from './services-support';

/**
 * Frozen views in the layer services (issue 18, decision 0086): `finalview=` serves a layer at the
 * moments the frozen view pinned, for callers who may read that frozen view; the live address keeps
 * serving the latest approved moment.
 */
describe('services: a frozen view’s layers at their pinned moments', function () {
  this.timeout(120_000);
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;
  let depot: Depot;
  let layer: { id: number; slug: string; resource_uri: string };

  const tree = (name: string) => ({
    feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [6.95, 50.94] }, properties: { name } },
  });
  const approve = async (items: unknown[]) => {
    const { moment_id } = await access.write(adminUser, depot.id, items as never, { message: 'Stand' });
    await approveAndHear({ t, admin, adminUser, access } as ServicesFixture, moment_id);
    return moment_id;
  };
  const names = async (c: Client, query = '') => {
    const res = await c.get(`/services/geojson/${layer.slug}/${query}`);
    return res.status === 200
      ? (res.body as { features: { properties: { name: string } }[] }).features.map((f) => f.properties.name).sort()
      : res.status;
  };

  before(async () => {
    t = await startTestServer({ plugins: ['services', 'views'] });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
    depot = await newDepot(admin, 'feature');
    layer = expectStatus(
      await admin.post('/api/v1/layer/', { name: 'Bäume', slug: 'baeume_fv', public: true, layerpiles: [depot.resource_uri] }),
      201,
    );
    await approve([tree('Linde')]);
    const internal = expectStatus(
      await admin.post('/api/v1/view/', { name: 'Intern', layergroup: { layers: [{ layer: layer.resource_uri }] } }),
      201,
    );
    const open = expectStatus(
      await admin.post('/api/v1/view/', { name: 'Offen', public: true, layergroup: { layers: [{ layer: layer.resource_uri }] } }),
      201,
    );
    const empty = expectStatus(await admin.post('/api/v1/view/', { name: 'Leer' }), 201);
    for (const [slug, view] of [
      ['stand_intern', internal],
      ['stand_offen', open],
      ['stand_leer', empty],
    ] as const)
      expectStatus(await admin.get(`/switchboard/create-finalview/?slug=${slug}&view=${view.id}`), 200);
    await approve([tree('Linde'), tree('Eiche')]);
  });
  after(() => t?.close());

  it('serves the pinned moment with finalview= and the latest approved one without', async () => {
    assert.deepEqual(await names(admin), ['Eiche', 'Linde']);
    assert.deepEqual(await names(admin, '?finalview=stand_intern'), ['Linde']);
    // Anonymous callers: only a public frozen view; an internal one looks like a missing one.
    const anonymous = t.client();
    assert.deepEqual(await names(anonymous), ['Eiche', 'Linde']);
    assert.deepEqual(await names(anonymous, '?finalview=stand_offen'), ['Linde']);
    assert.equal(await names(anonymous, '?finalview=stand_intern'), 404);
    // A frozen view that does not hold the layer, or does not exist.
    assert.equal(await names(admin, '?finalview=stand_leer'), 404);
    assert.equal(await names(admin, '?finalview=gibt_es_nicht'), 404);
  });

  it('pins every service: WFS hits, WMS by its own parameter spelling, vector tiles made anew and never cached', async () => {
    const hits = async (query: string) => {
      const res = await admin.get(
        `/services/wfs/${layer.slug}?SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=${layer.slug}&RESULTTYPE=hits${query}`,
      );
      return Number(/numberMatched="(\d+)"/.exec(String(res.body))?.[1]);
    };
    assert.equal(await hits(''), 2);
    assert.equal(await hits('&FINALVIEW=stand_intern'), 1);
    const map = await fetch(
      `${t.url}/services/wms/${layer.slug}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=${layer.slug}&STYLES=&CRS=EPSG:4326&BBOX=50.9,6.9,51,7&WIDTH=64&HEIGHT=64&FORMAT=image/png&FinalView=stand_offen`,
    );
    assert.equal(map.status, 200);
    assert.equal(map.headers.get('content-type'), 'image/png');
    const tile = `/services/ogc/${layer.slug}/tiles/WebMercatorQuad/8/85/132?finalview=stand_offen`;
    for (let k = 0; k < 2; k++) {
      const res = await fetch(`${t.url}${tile}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-tile-cache'), 'miss');
    }
  });

  it('refuses a malformed frozen view name and a frozen view together with a draft moment', async () => {
    assertError(await admin.get(`/services/geojson/${layer.slug}/?finalview=kein%20name`), 400, 'invalid_parameter');
    assertError(
      await admin.get(`/services/geojson/${layer.slug}/?finalview=stand_intern&moment=1`, {
        headers: { 'accept-language': 'de' },
      }),
      400,
      'invalid_parameter',
      /nicht zusammen/,
    );
  });
});
