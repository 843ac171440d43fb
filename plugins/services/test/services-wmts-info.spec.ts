import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, type ServicesFixture } from './services-support';
import { PARCELS, parcelsGeojson } from './wms-support';
import { advTile, mercatorTile, toUtm, type TileAt } from './wmts-support';

/** Clients call the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[], env: Record<string, string> = {}) =>
  (await promisify(execFile)(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 ** 2 })).stdout;

/**
 * OWSLib 0.27's WebMapTileService reads InfoFormats and ResourceURLs but has no getfeatureinfo (it
 * raises NotImplementedError): it reads the capabilities, and the FeatureInfo resources are then
 * fetched as a client does, by filling in their templates (urllib).
 */
const OWSLIB = `
import json, sys, urllib.request, warnings
warnings.simplefilter("ignore")
from owslib.wmts import WebMapTileService
w = WebMapTileService(sys.argv[1])
layer = w.contents[sys.argv[2]]
s, m, r, c, i, j = json.loads(sys.argv[3])
info = [u for u in layer.resourceURLs if u["resourceType"] == "FeatureInfo"]
answers = {}
for u in info:
    url = u["template"].replace("{TileMatrixSet}", s).replace("{TileMatrix}", m).replace("{TileRow}", str(r)).replace("{TileCol}", str(c)).replace("{J}", str(j)).replace("{I}", str(i))
    with urllib.request.urlopen(url) as res:
        answers[u["format"]] = [res.headers["Content-Type"], res.read().decode("utf-8")]
print(json.dumps({
  "operations": [o.name for o in w.operations],
  "kvp": [x["url"] for x in w.getOperationByName("GetFeatureInfo").methods],
  "infoformats": layer.infoformats,
  "templates": {u["format"]: u["template"] for u in info},
  "answers": answers,
}))
`;

interface OwslibInfo {
  operations: string[];
  kvp: string[];
  infoformats: string[];
  templates: Record<string, string>;
  answers: Record<string, [string, string]>;
}

interface InfoCollection {
  type: string;
  features: Array<{ id: unknown; geometry: { type: string }; properties: { nr: number; art: string; name: string } }>;
}

/** Centre of parcel P1 (Wiese), a point in the gap east of it, and the centre of P8 (Wald, second row). */
const P1: [number, number] = [6.905, 50.905];
const GAP: [number, number] = [6.911, 50.905];
const P8: [number, number] = [6.917, 50.917];

const GML = 'application/gml+xml; version=3.2';

/**
 * WMTS GetFeatureInfo (issue 17, WMTS 1.0.0 §7.3, decision 0083 "WMTS"): a pixel of a tile, KVP and
 * RESTful, finds the features the WMS finds at that place, as GeoJSON, HTML or GML 3.2, and the
 * capabilities announce it (InfoFormat, FeatureInfo resources); bad pixels and formats are OWS
 * ExceptionReports.
 */
describe('services: WMTS GetFeatureInfo finds the features at a pixel of a tile, KVP and RESTful', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let layer: Layer;

  const raw = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(path.startsWith('http') ? path : `${f.t.url}${path}`, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      etag: res.headers.get('etag'),
      text: await res.text(),
    };
  };
  const kvpInfo = (at: TileAt, format: string, extra = '') =>
    `/services/wmts/${layer.slug}?SERVICE=WMTS&REQUEST=GetFeatureInfo&VERSION=1.0.0&LAYER=${layer.slug}&STYLE=default&FORMAT=image/png` +
    `&TILEMATRIXSET=${at.tile[0]}&TILEMATRIX=${at.tile[1]}&TILEROW=${at.tile[2]}&TILECOL=${at.tile[3]}` +
    `&I=${at.px[0]}&J=${at.px[1]}&INFOFORMAT=${encodeURIComponent(format)}${extra}`;
  const restInfo = (at: TileAt, extension: string) =>
    `/services/wmts/${layer.slug}/${at.tile.join('/')}/${at.px[1]}/${at.px[0]}.${extension}`;
  const json = async (path: string) => {
    const res = await raw(path);
    assert.equal(res.status, 200, res.text);
    assert.match(res.type, /^application\/json/);
    return JSON.parse(res.text) as InfoCollection;
  };
  const names = (c: InfoCollection) => c.features.map((x) => x.properties.name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wmts-info-'));
    layer = await servedLayer(f.admin, [await approvedDepot(f, parcelsGeojson(dir))], { style: PARCELS });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('announces GetFeatureInfo: the operation (KVP and RESTful), three InfoFormats and a FeatureInfo resource for each (OWSLib)', async () => {
    const at = mercatorTile(...P1, 14);
    const caps = `${f.t.url}/services/wmts/${layer.slug}/1.0.0/WMTSCapabilities.xml`;
    const out = JSON.parse(
      await run('/usr/bin/python3', ['-c', OWSLIB, caps, layer.slug, JSON.stringify([...at.tile, ...at.px])]),
    ) as OwslibInfo;
    assert.deepEqual(out.operations.sort(), ['GetCapabilities', 'GetFeatureInfo', 'GetTile']);
    assert.ok(out.kvp.includes(`${f.t.url}/services/wmts/${layer.slug}?`), JSON.stringify(out.kvp));
    assert.deepEqual(out.infoformats, ['text/html', GML, 'application/json']);
    assert.deepEqual(out.templates, {
      'application/json': `${f.t.url}/services/wmts/${layer.slug}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}/{J}/{I}.json`,
      'text/html': `${f.t.url}/services/wmts/${layer.slug}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}/{J}/{I}.html`,
      [GML]: `${f.t.url}/services/wmts/${layer.slug}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}/{J}/{I}.gml`,
    });
    // Each template, filled in for the pixel over P1, answers in its format with parcel P1.
    const [jsonType, jsonBody] = out.answers['application/json'];
    assert.match(jsonType, /^application\/json/);
    assert.deepEqual(names(JSON.parse(jsonBody) as InfoCollection), ['P1']);
    const [htmlType, htmlBody] = out.answers['text/html'];
    assert.match(htmlType, /^text\/html/);
    assert.match(htmlBody, /<th>name<\/th><td>P1<\/td>/);
    const [gmlType, gmlBody] = out.answers[GML];
    assert.match(gmlType, /^application\/gml\+xml; version=3\.2/);
    assert.match(gmlBody, /<wb:name>P1<\/wb:name>/);
  });

  it('finds the parcel under the pixel in both tile matrix sets, KVP and RESTful alike, and nothing in the gap between parcels', async () => {
    const [p1Utm, gapUtm, p8Utm] = await toUtm([P1, GAP, P8]);
    const cases: Array<[TileAt, string[]]> = [
      [mercatorTile(...P1, 14), ['P1']],
      [mercatorTile(...GAP, 14), []],
      [mercatorTile(...P8, 15), ['P8']],
      [advTile(p1Utm, 10), ['P1']],
      [advTile(gapUtm, 10), []],
      [advTile(p8Utm, 11), ['P8']],
    ];
    for (const [at, expected] of cases) {
      const kvp = await json(kvpInfo(at, 'application/json'));
      assert.equal(kvp.type, 'FeatureCollection');
      assert.deepEqual(names(kvp), expected, `${at.tile.join('/')} at ${at.px}`);
      assert.deepEqual(await json(restInfo(at, 'json')), kvp);
    }
    const [p8] = (await json(restInfo(mercatorTile(...P8, 15), 'json'))).features;
    assert.deepEqual([p8.properties.nr, p8.properties.art, p8.geometry.type], [8, 'Wald', 'Polygon']);
    // FEATURE_COUNT (as in the WMS, default 1): at a low zoom a pixel covers several parcels' edges.
    const coarse = mercatorTile(6.911, 50.905, 9);
    assert.equal((await json(kvpInfo(coarse, 'application/json'))).features.length, 1);
    assert.ok((await json(kvpInfo(coarse, 'application/json', '&FEATURE_COUNT=10'))).features.length > 1);
  });

  it('GDAL’s WMTS driver asks for it when gdallocationinfo reads a position: the parcel there, nothing in a gap', async () => {
    const source = `WMTS:${f.t.url}/services/wmts/${layer.slug}/1.0.0/WMTSCapabilities.xml,layer=${layer.slug},tilematrixset=WebMercatorQuad`;
    const env = { GDAL_ENABLE_WMS_CACHE: 'NO', GDAL_HTTP_TIMEOUT: '60' };
    // GDAL 3.6 asks in the first InfoFormat the layer lists (text/html), at its finest matrix.
    for (const [[lon, lat], expected] of [
      [P1, 'P1'],
      [P8, 'P8'],
      [GAP, null],
    ] as const) {
      const out = await run('gdallocationinfo', ['-b', '1', '-wgs84', source, String(lon), String(lat)], env);
      const info = /<LocationInfo>([\s\S]*)<\/LocationInfo>/.exec(out)?.[1];
      assert.ok(info, out);
      const names = [...info.matchAll(/name(?:<|&lt;)\/th(?:>|&gt;)(?:<|&lt;)td(?:>|&gt;)(P\d+)/g)].map((m) => m[1]);
      assert.deepEqual(names, expected ? [expected] : [], `${lon} ${lat}: ${info}`);
      // The HTML page (escaped or not, as GDAL prints it).
      assert.match(info, /<h1>|&lt;h1&gt;/);
    }
  });

  it('answers HTML in the caller’s language and GML 3.2 that GDAL reads: the parcel’s attributes and its square, latitude first', async () => {
    const at = mercatorTile(...P1, 14);
    const html = await raw(restInfo(at, 'html'), { 'accept-language': 'de' });
    assert.equal(html.status, 200);
    assert.match(html.type, /^text\/html/);
    assert.match(html.text, /<html lang="de">/);
    assert.match(html.text, /<th>art<\/th><td>Wiese<\/td>/);
    const gml = await raw(kvpInfo(at, GML));
    assert.equal(gml.status, 200, gml.text);
    assert.match(gml.type, /^application\/gml\+xml; version=3\.2/);
    assert.match(
      gml.text,
      /<wfs:FeatureCollection xmlns:wfs="http:\/\/www.opengis.net\/wfs\/2.0" xmlns:gml="http:\/\/www.opengis.net\/gml\/3.2"/,
    );
    assert.match(gml.text, /numberReturned="1"/);
    // An unencoded `+` arrives as a space: the same format.
    assert.equal(
      (await raw(kvpInfo(at, GML).replace('%2B', '+'))).text.replace(/timeStamp="[^"]+"/, ''),
      gml.text.replace(/timeStamp="[^"]+"/, ''),
    );
    const file = join(dir, 'info.gml');
    writeFileSync(file, gml.text);
    const info = await run('ogrinfo', ['-ro', '-al', '-oo', 'SWAP_COORDINATES=AUTO', file]);
    assert.match(info, /Feature Count: 1/);
    assert.match(info, /nr \(Integer\) = 1/);
    assert.match(info, /art \(String\) = Wiese/);
    assert.match(info, /POLYGON \(\(6\.9 50\.9,6\.91 50\.9,6\.91 50\.91,6\.9 50\.91,6\.9 50\.9\)\)/);
  });

  it('revalidates with the ETag of publication and request (304)', async () => {
    const at = mercatorTile(...P1, 14);
    const first = await raw(restInfo(at, 'json'));
    assert.ok(first.etag);
    assert.equal((await raw(restInfo(at, 'json'), { 'if-none-match': first.etag })).status, 304);
    const other = await raw(restInfo({ ...at, px: [at.px[0] + 1, at.px[1]] }, 'json'));
    assert.notEqual(other.etag, first.etag);
    assert.notEqual((await raw(restInfo(at, 'html'))).etag, first.etag);
  });

  it('answers a pixel outside the tile, an unknown InfoFormat and missing parameters with OWS ExceptionReports', async () => {
    const at = mercatorTile(...P1, 14);
    const base = kvpInfo(at, 'application/json');
    const cases: Array<[string, number, string, string]> = [
      [base.replace(/&I=\d+/, '&I=256'), 400, 'PointIJOutOfRange', 'i'],
      [base.replace(/&J=\d+/, '&J=300'), 400, 'PointIJOutOfRange', 'j'],
      [base.replace(/&I=\d+/, '&I=-1'), 400, 'InvalidParameterValue', 'i'],
      [base.replace(/&J=\d+/, '&J=x'), 400, 'InvalidParameterValue', 'j'],
      [base.replace(/&I=\d+/, ''), 400, 'MissingParameterValue', 'i'],
      [base.replace('INFOFORMAT=application%2Fjson', 'INFOFORMAT=text/xml'), 400, 'InvalidParameterValue', 'infoformat'],
      [base.replace(/&INFOFORMAT=[^&]+/, ''), 400, 'MissingParameterValue', 'infoformat'],
      [base + '&FEATURE_COUNT=0', 400, 'InvalidParameterValue', 'feature_count'],
      [base.replace(/TILEROW=\d+/, 'TILEROW=16384'), 400, 'TileOutOfRange', 'tilerow'],
      [base.replace(`LAYER=${layer.slug}`, 'LAYER=andere'), 400, 'InvalidParameterValue', 'layer'],
      [restInfo({ ...at, px: [256, 0] }, 'json'), 400, 'PointIJOutOfRange', 'i'],
      [restInfo({ ...at, px: [0, 256] }, 'json'), 400, 'PointIJOutOfRange', 'j'],
      [restInfo(at, 'xml'), 400, 'InvalidParameterValue', 'infoformat'],
      [restInfo(at, 'json').replace(/\.json$/, ''), 400, 'InvalidParameterValue', 'infoformat'],
      [`/services/wmts/no_such_layer/${at.tile.join('/')}/0/0.json`, 404, 'InvalidParameterValue', 'layer'],
    ];
    for (const [path, status, code, locator] of cases) {
      const res = await raw(path);
      assert.match(res.type, /xml/, `${path}: ${res.text}`);
      assert.match(res.text, /<ExceptionReport xmlns="http:\/\/www.opengis.net\/ows\/1.1"/);
      const got = [res.status, /exceptionCode="([^"]+)"/.exec(res.text)?.[1], /locator="([^"]+)"/.exec(res.text)?.[1]];
      assert.deepEqual(got, [status, code, locator], `${path}: ${res.text}`);
    }
    const de = await raw(base.replace(/&I=\d+/, '&I=256'), { 'accept-language': 'de' });
    assert.match(de.text, /I muss ein Pixel der Kachel sein: eine ganze Zahl von 0 bis 255/);
    const en = await raw(restInfo(at, 'xml'), { 'accept-language': 'en' });
    assert.match(
      en.text,
      /not offered for feature information; it comes as text\/html, application\/gml\+xml; version=3\.2, application\/json/,
    );
  });
});
