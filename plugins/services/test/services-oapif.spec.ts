import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectStatus, userUri, type Client } from '@werkbank/testing/node';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';

/** GDAL and Python call the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[]) => {
  const { stdout, stderr } = await promisify(execFile)(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.doesNotMatch(stderr, /ERROR|Traceback/, `${cmd} reports no error`);
  return stdout;
};

interface Feature {
  type: 'Feature';
  id: number | string;
  geometry: { type: string; coordinates: number[] };
  properties: Record<string, unknown>;
}
interface Items {
  type: string;
  features: Feature[];
  numberMatched: number;
  numberReturned: number;
  timeStamp: string;
  links: Array<{ rel: string; href: string; type?: string }>;
}
type Links = Array<{ rel: string; href: string; type?: string }>;

/** OWSLib's OGC API – Features client (Debian python3-owslib): collections, a page of items, one item. */
const OWSLIB = `
import json, sys, warnings
warnings.simplefilter("ignore")
from owslib.ogcapi.features import Features
api = Features(sys.argv[1])
ids = api.feature_collections()
page = api.collection_items(sys.argv[2], limit=5, offset=10)
first = page["features"][0]
one = api.collection_item(sys.argv[2], str(first["id"]))
print(json.dumps({
  "collections": ids,
  "conformance": api.conformance()["conformsTo"],
  "matched": page["numberMatched"],
  "returned": page["numberReturned"],
  "first": first["properties"],
  "one": one["properties"],
}))
`;

/**
 * OGC API – Features (issue 17, decision 0083): a landing page per layer and one for all layers,
 * JSON for GDAL and OWSLib, HTML for people, Part 2 CRSs, OGC API errors for bad input.
 */
describe('services: OGC API – Features serves layers as collections', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let path: string;
  let source: Feature[];
  let layer: Layer;
  let internal: Layer;
  let reader: { client: Client; id: number };
  let base: string;

  const getJson = async <T>(c: Client, url: string, status = 200, headers: Record<string, string> = {}) =>
    expectStatus<T>(await c.get(url, { headers: { accept: 'application/json', ...headers } }), status);
  const byId = (features: Feature[]) => new Map(features.map((x) => [x.properties.id, x]));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-oapif-'));
    path = treesGeojson(dir);
    source = (JSON.parse(readFileSync(path, 'utf8')) as { features: Feature[] }).features;
    const depot = await approvedDepot(f, path);
    layer = await servedLayer(f.admin, [depot], { description: 'Stadtbäume', bbox: [6.8, 50.8, 6.99, 50.99] });
    reader = await f.t.user();
    internal = await servedLayer(f.admin, [depot], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    base = `/services/ogc/${layer.slug}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("describes a layer's landing page, conformance and its one collection", async () => {
    const c = f.t.client();
    const landing = await getJson<{ title: string; links: Links }>(c, `${base}/`);
    assert.equal(landing.title, layer.name);
    const rels = landing.links.map((l) => l.rel);
    for (const rel of ['self', 'alternate', 'service-desc', 'conformance', 'data']) assert.ok(rels.includes(rel), rel);
    assert.ok(
      landing.links.every((l) => l.href.startsWith(`${f.t.url}${base}/`)),
      'absolute links under the landing page',
    );
    const conformance = await getJson<{ conformsTo: string[] }>(c, `${base}/conformance`);
    assert.ok(conformance.conformsTo.includes('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core'));
    assert.ok(conformance.conformsTo.includes('http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs'));
    const api = await c.get(`${base}/api`);
    assert.equal(api.status, 200);
    assert.match(api.headers.get('content-type')!, /application\/vnd\.oai\.openapi\+json/);
    assert.equal((api.body as { openapi: string }).openapi, '3.0.3');

    const { collections } = await getJson<{ collections: Array<Record<string, unknown>> }>(c, `${base}/collections`);
    assert.equal(collections.length, 1);
    const [collection] = collections;
    assert.equal(collection.id, layer.slug);
    assert.equal(collection.title, layer.name);
    assert.equal(collection.description, 'Stadtbäume');
    assert.deepEqual(collection.extent, {
      spatial: { bbox: [[6.8, 50.8, 6.99, 50.99]], crs: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' },
    });
    assert.equal(collection.storageCrs, 'http://www.opengis.net/def/crs/OGC/1.3/CRS84');
    assert.ok((collection.crs as string[]).includes('http://www.opengis.net/def/crs/EPSG/0/25832'));
    assert.deepEqual(await getJson(c, `${base}/collections/${layer.slug}`), collection);
  });

  it('is read by GDAL: every feature with its attribute types and coordinates, in pages and in a bbox', async () => {
    const url = `OAPIF:${f.t.url}${base}/`;
    const info = await run('ogrinfo', ['-ro', '-so', url, layer.slug]);
    assert.match(info, /Feature Count: 400/);
    assert.match(info, /id: Integer/);
    assert.match(info, /art: String/);
    assert.match(info, /hoehe: Real/);
    assert.match(info, /Geometry: Point/);

    const read = async (name: string, args: string[]) => {
      const out = join(dir, `${name}.geojson`);
      await run('ogr2ogr', ['-f', 'GeoJSON', out, url, layer.slug, ...args]);
      return (JSON.parse(readFileSync(out, 'utf8')) as { features: Feature[] }).features;
    };
    const expected = byId(source);
    for (const [name, args] of [
      ['default-pages', []],
      ['pages-of-37', ['-oo', 'PAGE_SIZE=37']],
    ] as const) {
      const got = await read(name, [...args]);
      assert.equal(got.length, 400, name);
      for (const feature of got) {
        const want = expected.get(feature.properties.id)!;
        assert.deepEqual(feature.properties, want.properties, name);
        feature.geometry.coordinates.forEach((v, i) =>
          assert.ok(Math.abs(v - want.geometry.coordinates[i]) < 1e-7, `${name} ${v}`),
        );
      }
      assert.equal(new Set(got.map((x) => x.properties.id)).size, 400, `${name}: no feature twice`);
    }
    // Columns 0–4 (6.80–6.84°) of rows 0–2 (50.80–50.82°).
    const part = await read('bbox', ['-spat', '6.795', '50.795', '6.845', '50.825', '-oo', 'PAGE_SIZE=4']);
    assert.deepEqual(
      part.map((x) => x.properties.id).sort((a, b) => Number(a) - Number(b)),
      [0, 1, 2, 3, 4, 20, 21, 22, 23, 24, 40, 41, 42, 43, 44],
    );
  });

  it('is read by OWSLib: collections, a page of items and one item', async () => {
    const script = join(dir, 'owslib-oapif.py');
    writeFileSync(script, OWSLIB);
    const out = JSON.parse(await run('/usr/bin/python3', [script, `${f.t.url}${base}/`, layer.slug])) as Record<string, unknown>;
    assert.deepEqual(out.collections, [layer.slug]);
    assert.ok((out.conformance as string[]).includes('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson'));
    assert.equal(out.matched, 400);
    assert.equal(out.returned, 5);
    assert.deepEqual(out.first, source[10].properties, 'offset follows the datum order');
    assert.deepEqual(out.one, source[10].properties);
  });

  it('pages stably with limit, offset and next links, with numberMatched on every page', async () => {
    const c = f.t.client();
    const seen: unknown[] = [];
    let url: string | undefined = `${base}/collections/${layer.slug}/items?limit=150&properties=id`;
    let pages = 0;
    while (url) {
      const page: Items = await getJson<Items>(c, url.replace(f.t.url, ''));
      assert.equal(page.type, 'FeatureCollection');
      assert.equal(page.numberMatched, 400);
      assert.equal(page.numberReturned, page.features.length);
      assert.ok(!Number.isNaN(Date.parse(page.timeStamp)));
      assert.ok(page.features.every((x) => Object.keys(x.properties).join() === 'id'));
      seen.push(...page.features.map((x) => x.properties.id));
      url = page.links.find((l) => l.rel === 'next')?.href;
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      source.map((x) => x.properties.id),
      'every feature once, in the datum order',
    );
    const ten = await getJson<Items>(c, `${base}/collections/${layer.slug}/items`);
    assert.equal(ten.numberReturned, 10, 'limit defaults to 10');
    const first = await c.get(`${base}/collections/${layer.slug}/items`);
    const again = await c.get(`${base}/collections/${layer.slug}/items`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    assert.equal(again.status, 304, 'a client holding the served state revalidates');
    assert.match(first.headers.get('vary')!, /Accept-Language/);
    const past = await getJson<Items>(c, `${base}/collections/${layer.slug}/items?offset=1000`);
    assert.deepEqual([past.numberReturned, past.numberMatched], [0, 400]);
    assert.ok(!past.links.some((l) => l.rel === 'next'));
    const one = await getJson<Feature & { links: Links }>(c, `${base}/collections/${layer.slug}/items/${ten.features[3].id}`);
    assert.deepEqual(one.properties, ten.features[3].properties);
    assert.ok(one.links.some((l) => l.rel === 'collection'));
  });

  it('serves crs=EPSG:25832 as ogr2ogr -t_srs gives it, reads bbox-crs, and EPSG:4326 in latitude, longitude order', async () => {
    const c = f.t.client();
    const utmPath = join(dir, 'utm.geojson');
    await run('ogr2ogr', ['-f', 'GeoJSON', '-lco', 'RFC7946=NO', '-t_srs', 'EPSG:25832', utmPath, path]);
    const utm = byId((JSON.parse(readFileSync(utmPath, 'utf8')) as { features: Feature[] }).features);
    const crs = 'http://www.opengis.net/def/crs/EPSG/0/25832';
    const res = await c.get(`${base}/collections/${layer.slug}/items?limit=400&crs=${encodeURIComponent(crs)}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-crs'), `<${crs}>`);
    const got = (res.body as Items).features;
    assert.equal(got.length, 400);
    for (const feature of got) {
      const want = utm.get(feature.properties.id)!;
      assert.ok(
        Math.hypot(
          feature.geometry.coordinates[0] - want.geometry.coordinates[0],
          feature.geometry.coordinates[1] - want.geometry.coordinates[1],
        ) < 0.001,
      );
      assert.equal((feature as Feature & { crs?: unknown }).crs, undefined, 'no crs member');
    }
    // A box in metres around the 25832 positions of columns 0–4 of rows 0–2, 200 m wider on each side.
    const corner = got.filter((x) => [0, 1, 2, 3, 4, 20, 21, 22, 23, 24, 40, 41, 42, 43, 44].includes(x.properties.id as number));
    const xs = corner.map((x) => x.geometry.coordinates[0]);
    const ys = corner.map((x) => x.geometry.coordinates[1]);
    const box = [Math.min(...xs) - 200, Math.min(...ys) - 200, Math.max(...xs) + 200, Math.max(...ys) + 200].join(',');
    const inBox = await getJson<Items>(c, `${base}/collections/${layer.slug}/items?limit=100&bbox=${box}&bbox-crs=EPSG:25832`);
    assert.equal(inBox.numberMatched, 15);

    const latLon = await getJson<Items>(c, `${base}/collections/${layer.slug}/items?limit=1&crs=EPSG:4326`);
    assert.deepEqual(latLon.features[0].geometry.coordinates, [...source[0].geometry.coordinates].reverse());
    const one = await c.get(`${base}/collections/${layer.slug}/items/${latLon.features[0].id}?crs=EPSG:3857`);
    assert.equal(one.headers.get('content-crs'), '<http://www.opengis.net/def/crs/EPSG/0/3857>');
    const merc = (one.body as Feature).geometry.coordinates;
    assert.ok(Math.abs(merc[0] - (source[0].geometry.coordinates[0] * Math.PI * 6378137) / 180) < 0.001);
  });

  it('answers bad input with OGC API errors in the caller language, never a 500', async () => {
    const c = f.t.client();
    const items = `${base}/collections/${layer.slug}/items`;
    const error = async (url: string, status: number, headers: Record<string, string> = {}) => {
      const body = await getJson<{ code: string; description: string }>(c, url, status, headers);
      assert.equal(typeof body.code, 'string');
      assert.ok(body.description.length > 0);
      assert.doesNotMatch(body.description, /services:|oapif\.|at \w+ \(/, 'no keys or stack traces');
      return body;
    };
    assert.equal((await error('/services/ogc/no_such_layer/', 404)).code, 'NotFound');
    assert.equal((await error(`${base}/collections/other`, 404)).code, 'NotFound');
    assert.equal((await error(`${base}/collections/other/items`, 404)).code, 'NotFound');
    assert.equal((await error(`${items}/999999`, 404)).code, 'NotFound');
    assert.equal((await error(`${items}?bbox=1,2,3`, 400)).code, 'InvalidParameterValue');
    await error(`${items}?bbox=0,10,1,5`, 400);
    await error(`${items}?bbox=0,0,200,1`, 400);
    await error(`${items}?limit=0`, 400);
    await error(`${items}?limit=abc`, 400);
    await error(`${items}?limit=10001`, 400);
    await error(`${items}?offset=-1`, 400);
    await error(`${items}?datetime=yesterday`, 400);
    await error(`${items}?bbox=500000,5700000,400000,5800000&bbox-crs=EPSG:25832`, 400);
    await error(`${items}?filter=art%3D'Eiche'`, 400);
    await error(`${base}/?f=xml`, 400);
    const crs = await error(`${items}?crs=EPSG:9999`, 400, { 'accept-language': 'de' });
    assert.match(crs.description, /Koordinatenreferenzsystem/);
    await error(`${items}/1?crs=urn:ogc:def:crs:EPSG::2000`, 400);
    // An internal layer is the same 404 for anonymous callers, and served to its readers.
    await error(`/services/ogc/${internal.slug}/`, 404);
    await error(`/services/ogc/${internal.slug}/collections/${internal.slug}/items`, 404);
    await error(`/services/ogc/collections/${internal.slug}/items`, 404);
    const served = await getJson<Items>(reader.client, `/services/ogc/${internal.slug}/collections/${internal.slug}/items`);
    assert.equal(served.numberMatched, 400);
    const datetime = await getJson<Items>(c, `${items}?datetime=2020-01-01T00:00:00Z/..`);
    assert.equal(datetime.numberMatched, 400, 'features have no time of their own: datetime keeps them all');
  });

  it('lists every public layer on the landing page for all layers, and the readable ones for signed-in callers', async () => {
    const ids = async (c: Client) =>
      (await getJson<{ collections: Array<{ id: string }> }>(c, '/services/ogc/collections')).collections.map((x) => x.id);
    const anonymous = await ids(f.t.client());
    assert.ok(anonymous.includes(layer.slug));
    assert.ok(!anonymous.includes(internal.slug));
    const signedIn = await ids(reader.client);
    assert.ok(signedIn.includes(layer.slug) && signedIn.includes(internal.slug));
    const landing = await getJson<{ links: Links }>(f.t.client(), '/services/ogc/');
    assert.ok(landing.links.some((l) => l.rel === 'data' && l.href === `${f.t.url}/services/ogc/collections?f=json`));
    const page = await getJson<Items>(f.t.client(), `/services/ogc/collections/${layer.slug}/items?limit=3`);
    assert.deepEqual(
      page.features.map((x) => x.properties),
      source.slice(0, 3).map((x) => x.properties),
    );
    const info = await run('ogrinfo', ['-ro', '-so', `OAPIF:${f.t.url}/services/ogc/`, layer.slug]);
    assert.match(info, /Feature Count: 400/);
  });

  it("serves an internal layer to GDAL with its reader's API key in the address, carried on in every link", async () => {
    expectStatus(await f.admin.patch(userUri(reader.id), { user_permissions: ['access_connect'] }), 200);
    const { key } = expectStatus(await f.admin.post('/api/v1/apikey/', { user: userUri(reader.id), realms: ['layer'] }), 201);
    const landing = `/services/ogc/${internal.slug}/?apikey=${key}`;
    const { links } = await getJson<{ links: Links }>(f.t.client(), landing);
    assert.ok(links.every((l) => new URL(l.href).searchParams.get('apikey') === key));
    const out = join(dir, 'internal.geojson');
    await run('ogr2ogr', ['-f', 'GeoJSON', out, `OAPIF:${f.t.url}${landing}`, internal.slug, '-oo', 'PAGE_SIZE=100']);
    assert.equal((JSON.parse(readFileSync(out, 'utf8')) as { features: Feature[] }).features.length, 400);
  });

  it('gives people HTML pages in their language: lang, title, headings and a table of properties', async () => {
    const c = f.t.client();
    const page = async (url: string, lang: string) => {
      const res = await c.get(url, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': lang } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      const text = res.body as string;
      assert.match(text, /^<!DOCTYPE html>/);
      assert.match(text, new RegExp(`<html lang="${lang}">`));
      assert.match(text, /<title>[^<]+<\/title>/);
      assert.match(text, /<h1>[^<]+<\/h1>/);
      return text;
    };
    assert.match(await page(`${base}/`, 'de'), /Konformitätsklassen/);
    assert.match(await page(`${base}/`, 'en'), /Conformance classes/);
    const items = await page(`${base}/collections/${layer.slug}/items?limit=5`, 'de');
    assert.match(items, /<table>/);
    assert.match(items, /<th scope="col">art<\/th>/);
    assert.match(items, /Features 1 bis 5 von 400/);
    const [first] = (await getJson<Items>(c, `${base}/collections/${layer.slug}/items?limit=1`)).features;
    assert.match(await page(`${base}/collections/${layer.slug}/items/${first.id}?f=html`, 'en'), /Property/);
    assert.match(await page('/services/ogc/collections?f=html', 'en'), new RegExp(layer.name));
    // f=json wins over Accept.
    const json = await c.get(`${base}/?f=json`, { headers: { accept: 'text/html' } });
    assert.match(json.headers.get('content-type')!, /^application\/json/);
  });
});
