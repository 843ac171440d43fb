import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertError, expectStatus, userUri, type Client } from '@werkbank/testing/node';
import { addDatum, type Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';

/** GDAL calls the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[]) => (await promisify(execFile)(cmd, args, { encoding: 'utf8' })).stdout;

interface Collection {
  type: string;
  features: Array<{
    type: string;
    id: number | string;
    geometry: { type: string; coordinates: number[] };
    properties: Record<string, unknown>;
  }>;
}

/**
 * The GeoJSON service (issue 17, decision 0083): a layer's features from the latest approved moment
 * of each pile, for everyone when the layer is public and for its readers otherwise, read back by
 * GDAL's GeoJSON driver over HTTP.
 */
describe('services: GeoJSON serves a layer from its approved moments', function () {
  this.timeout(120_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let trees: Depot;
  let layer: Layer;
  let source: Collection;

  const geojson = async (c: Client, name: string | number, query = '') =>
    expectStatus<Collection>(await c.get(`/services/geojson/${name}/${query}`), 200);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-geojson-'));
    const path = treesGeojson(dir);
    source = JSON.parse(readFileSync(path, 'utf8')) as Collection;
    trees = await approvedDepot(f, path);
    layer = await servedLayer(f.admin, [trees]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every feature of a public layer to anonymous callers, by short name and by id, as GDAL wrote them', async () => {
    const anonymous = f.t.client();
    const bySlug = await geojson(anonymous, layer.slug);
    assert.equal(bySlug.type, 'FeatureCollection');
    assert.equal(bySlug.features.length, 400);
    assert.equal(source.features.length, 400);
    const byId = new Map(bySlug.features.map((x) => [x.properties.id, x]));
    for (const expected of source.features) {
      const got = byId.get(expected.properties.id)!;
      assert.deepEqual(got.properties, expected.properties);
      assert.deepEqual(got.geometry, expected.geometry);
    }
    assert.equal(new Set(bySlug.features.map((x) => x.id)).size, 400, 'each feature has its own id');
    assert.deepEqual((await geojson(anonymous, layer.id)).features, bySlug.features);
  });

  it('is read by GDAL over HTTP: 400 features with integer, string and real attributes', async () => {
    const info = await run('ogrinfo', ['-ro', '-al', '-so', `${f.t.url}/services/geojson/${layer.slug}/`]);
    assert.match(info, /Feature Count: 400/);
    assert.match(info, /id: Integer/);
    assert.match(info, /art: String/);
    assert.match(info, /hoehe: Real/);
    assert.match(info, /Geometry: Point/);
  });

  it('gives the features as CSV (f=csv) that GDAL reads back: WKT and every property, in bbox= too; an unknown format is refused', async () => {
    const res = await fetch(`${f.t.url}/services/geojson/${layer.slug}/?f=csv`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="${layer.slug}.csv"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    // A byte order mark first, for spreadsheet programs.
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    const lines = text.trimEnd().split('\r\n');
    assert.equal(lines.length, 401);
    assert.match(lines[0], /^\ufeffWKT,/);
    const csv = join(dir, 'trees.csv');
    writeFileSync(csv, text);
    const info = await run('ogrinfo', ['-ro', '-al', '-so', '-oo', 'GEOM_POSSIBLE_NAMES=WKT', '-oo', 'AUTODETECT_TYPE=YES', csv]);
    assert.match(info, /Feature Count: 400/);
    assert.match(info, /Extent: \(6\.800000, 50\.800000\) - \(6\.990000, 50\.990000\)/);
    assert.match(info, /art: String/);
    assert.match(info, /hoehe: Real/);
    // The same window as the GeoJSON's bbox=, and only the properties asked for.
    const part = await (
      await fetch(`${f.t.url}/services/geojson/${layer.slug}/?f=csv&bbox=6.795,50.795,6.845,50.825&properties=art`)
    ).text();
    const rows = part.trimEnd().split('\r\n');
    assert.equal(rows[0], 'WKT,art');
    assert.equal(rows.length, 16);
    assert.match(rows[1], /^POINT \(6\.8\d* 50\.8\d*\),\w+$/);
    assertError(await f.t.client().get(`/services/geojson/${layer.slug}/?f=xlsx`), 400, 'invalid_parameter');
  });

  it('keeps only the features in bbox= and only the properties= asked for', async () => {
    // Columns 0–4 (6.80–6.84°) of rows 0–2 (50.80–50.82°).
    const part = await geojson(f.t.client(), layer.slug, '?bbox=6.795,50.795,6.845,50.825&properties=art');
    assert.equal(part.features.length, 15);
    for (const x of part.features) {
      assert.deepEqual(Object.keys(x.properties), ['art']);
      const [lon, lat] = x.geometry.coordinates;
      assert.ok(lon >= 6.795 && lon <= 6.845 && lat >= 50.795 && lat <= 50.825, `${lon} ${lat}`);
    }
    assert.equal((await geojson(f.t.client(), layer.slug, '?bbox=-10,-10,-9,-9')).features.length, 0);
  });

  it('refuses a malformed, inverted or out-of-world bbox with the reason in the caller language', async () => {
    const c = f.t.client();
    assertError(await c.get(`/services/geojson/${layer.slug}/?bbox=1,2,3`), 400, 'invalid_parameter', /four numbers/);
    assertError(await c.get(`/services/geojson/${layer.slug}/?bbox=0,10,1,5`), 400, 'invalid_parameter', /south edge/);
    assertError(
      await c.get(`/services/geojson/${layer.slug}/?bbox=0,0,200,1`, { headers: { 'accept-language': 'de' } }),
      400,
      'invalid_parameter',
      /außerhalb der Welt/,
    );
  });

  it('never serves a draft: a datum added at the head shows only after its moment is approved', async () => {
    const depot = await approvedDepot(f, treesGeojson(dir, 4));
    const l = await servedLayer(f.admin, [depot]);
    const added = await addDatum(f.admin, depot, {
      feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties: { id: 99, art: 'Linde' } },
    });
    const before = await geojson(f.t.client(), l.slug);
    assert.equal(before.features.length, 4, 'the draft is not served');
    // Its author previews the draft with moment=.
    const preview = await geojson(f.admin, l.slug, `?moment=${added.moment_id}`);
    assert.equal(preview.features.length, 5);
    assert.ok(preview.features.some((x) => x.properties.art === 'Linde'));
    expectStatus(await f.admin.post(`/api/v1/moment/${added.moment_id}/approve/`, {}), 200);
    assert.equal((await geojson(f.t.client(), l.slug)).features.length, 5, 'the approved moment is served at once');
  });

  it('lets only callers who may change the layer preview a moment, and only a moment of its depots', async () => {
    const reader = await f.t.user();
    const l = await servedLayer(f.admin, [trees], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const head = expectStatus(await f.admin.get(`/api/v1/depot/${trees.id}/`), 200).current_moment.id as number;
    assertError(await reader.client.get(`/services/geojson/${l.slug}/?moment=${head}`), 403, 'preview_denied');
    assertError(await f.admin.get(`/services/geojson/${l.slug}/?moment=999999`), 400, 'unknown_moment');
    assertError(await f.admin.get(`/services/geojson/${l.slug}/?moment=abc`), 400, 'invalid_parameter');
  });

  it('hides an internal layer from everyone who may not read it, and serves it to readers and their API keys', async () => {
    const reader = await f.t.user();
    const stranger = await f.t.user();
    const l = await servedLayer(f.admin, [trees], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    assertError(await f.t.client().get(`/services/geojson/${l.slug}/`), 404, 'not_found');
    assertError(await stranger.client.get(`/services/geojson/${l.slug}/`), 404, 'not_found');
    assertError(await f.t.client().get(`/services/geojson/no_such_layer/`), 404, 'not_found');
    assert.equal((await geojson(reader.client, l.slug)).features.length, 400);

    expectStatus(await f.admin.patch(userUri(reader.id), { user_permissions: ['access_connect'] }), 200);
    const { key } = expectStatus(await f.admin.post('/api/v1/apikey/', { user: userUri(reader.id), realms: ['layer'] }), 201);
    // Desktop GIS clients put the key into the address (any case of the parameter name).
    assert.equal((await geojson(f.t.client(), l.slug, `?APIKEY=${key}`)).features.length, 400);
    const info = await run('ogrinfo', ['-ro', '-al', '-so', `${f.t.url}/services/geojson/${l.slug}/?apikey=${key}`]);
    assert.match(info, /Feature Count: 400/);
    // Only service addresses take a key from the query.
    assertError(await f.t.client().get(`/api/v1/layer/${l.id}/?apikey=${key}`), 401, 'not_authenticated');
    const other = expectStatus(await f.admin.post('/api/v1/apikey/', { user: userUri(reader.id), realms: ['depot'] }), 201);
    assertError(await f.t.client().get(`/services/geojson/${l.slug}/?apikey=${other.key}`), 403, 'realm_denied');
  });

  it('answers 304 to a client holding the served state, and a new ETag once a moment is approved', async () => {
    const depot = await approvedDepot(f, treesGeojson(dir, 3));
    const l = await servedLayer(f.admin, [depot]);
    const first = await f.t.client().get(`/services/geojson/${l.slug}/`);
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    const again = await f.t.client().get(`/services/geojson/${l.slug}/`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const added = await addDatum(f.admin, depot, {
      feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties: {} },
    });
    expectStatus(await f.admin.post(`/api/v1/moment/${added.moment_id}/approve/`, {}), 200);
    const changed = await f.t.client().get(`/services/geojson/${l.slug}/`, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
  });

  it('serves one state to a request that runs while new moments are approved: all old, never a mix', async () => {
    // Two piles; the first is large enough that the reply is still being written when the client pauses.
    const many = await approvedDepot(f, treesGeojson(dir, 20_000));
    const few = await approvedDepot(f, treesGeojson(dir, 5));
    const l = await servedLayer(f.admin, [many, few]);
    const res = await fetch(`${f.t.url}/services/geojson/${l.slug}/`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    // Meanwhile both depots get a new approved moment with one more feature each.
    for (const depot of [many, few]) {
      const added = await addDatum(f.admin, depot, {
        feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties: { id: -1, art: 'neu' } },
      });
      expectStatus(await f.admin.post(`/api/v1/moment/${added.moment_id}/approve/`, {}), 200);
    }
    for (let part = await reader.read(); !part.done; part = await reader.read())
      text += decoder.decode(part.value, { stream: true });
    const during = JSON.parse(text) as Collection;
    assert.equal(during.features.length, 20_005, 'the request kept the moments it started with');
    assert.ok(!during.features.some((x) => x.properties.art === 'neu'));
    const after = await geojson(f.t.client(), l.slug);
    assert.equal(after.features.length, 20_007, 'the next request serves both new moments');
  });
});
