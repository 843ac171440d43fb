import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectStatus, userUri } from '@werkbank/testing/node';
import type { Layer, LayerStyle } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, type ServicesFixture } from './services-support';
import { corners } from './mapserver-mapfile';
import { LABELS, PARCELS, STREETS, TREES, parcelsGeojson, pixels, pointsGeojson, streetsGeojson, WINDOW } from './wms-support';

/** Clients call the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[]) => (await promisify(execFile)(cmd, args, { encoding: 'utf8' })).stdout;

const [W, S, E, N] = WINDOW;
const WIDTH = 800;
const HEIGHT = 550;

/**
 * The WMS (issue 17, decision 0083): capabilities, maps drawn with the layer's style in the worker
 * pool, feature info and legends, read by GDAL's WMS driver and OWSLib (the comparison with MapServer 8
 * is services-wms-mapserver.spec.ts).
 */
describe('services: WMS serves a layer drawn with its style', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  const files: Record<string, string> = {};
  const layers: Record<string, Layer> = {};

  /** The server's answer as bytes with status and headers (images are not text). */
  const raw = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${f.t.url}${path}`, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      headers: res.headers,
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const wms = (layer: Layer, query: string) => `/services/wms/${layer.slug}?SERVICE=WMS&${query}`;
  const getMap = (layer: Layer, extra = '', box = `${S},${W},${N},${E}`) =>
    wms(
      layer,
      `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${layer.slug}&STYLES=&CRS=EPSG:4326&BBOX=${box}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png${extra}`,
    );
  /** An exception report's code and text. */
  const exception = async (path: string, headers: Record<string, string> = {}) => {
    const res = await raw(path, headers);
    assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
    assert.match(res.type, /xml/);
    const text = res.body.toString('utf8');
    assert.match(text, /<ServiceExceptionReport/);
    return { code: /code="([^"]+)"/.exec(text)?.[1], text, status: res.status };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wms-'));
    files.polygon = parcelsGeojson(dir);
    files.line = streetsGeojson(dir);
    files.point = pointsGeojson(dir);
    for (const [name, path, style] of [
      ['polygon', files.polygon, PARCELS],
      ['line', files.line, STREETS],
      ['point', files.point, TREES],
      ['label', files.point, LABELS],
    ] as const)
      layers[name] = await servedLayer(f.admin, [await approvedDepot(f, path)], { style });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads BBOX in the axis order of the version and CRS: EPSG:4326 lat/lon in 1.3.0, CRS:84 and 1.1.1 lon/lat', async () => {
    const l = layers.polygon;
    const latLon = await raw(getMap(l));
    const lonLat = await raw(getMap(l, '', `${W},${S},${E},${N}`).replace('CRS=EPSG:4326', 'CRS=CRS:84'));
    const v111 = await raw(
      wms(
        l,
        `VERSION=1.1.1&REQUEST=GetMap&LAYERS=${l.slug}&STYLES=&SRS=EPSG:4326&BBOX=${W},${S},${E},${N}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png`,
      ),
    );
    for (const r of [latLon, lonLat, v111]) assert.equal(r.status, 200);
    assert.ok(latLon.body.equals(lonLat.body), 'EPSG:4326 (lat/lon) and CRS:84 (lon/lat) draw the same map');
    assert.ok(latLon.body.equals(v111.body), '1.1.1 SRS=EPSG:4326 is lon/lat');
  });

  it('draws in projected CRSs through the reprojection: the parcels in EPSG:25832 and EPSG:3857 cover the same share of the map', async () => {
    const l = layers.polygon;
    // The window's corners in UTM 32, by GDAL.
    const [u0, u1] = await corners('EPSG:25832');
    const share = async (path: string) => {
      const r = await raw(path);
      assert.equal(r.status, 200, r.body.toString());
      const { data } = await pixels(r.body);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n / (data.length / 4);
    };
    const base = await share(getMap(l, '&TRANSPARENT=TRUE'));
    const merc = (lon: number, lat: number) => [
      (lon * 20037508.342789244) / 180,
      Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) * 6378137,
    ];
    const [x0, y0] = merc(W, S);
    const [x1, y1] = merc(E, N);
    const m = await share(
      wms(
        l,
        `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${l.slug}&STYLES=&CRS=EPSG:3857&BBOX=${x0},${y0},${x1},${y1}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png&TRANSPARENT=TRUE`,
      ),
    );
    const u = await share(
      wms(
        l,
        `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${l.slug}&STYLES=&CRS=EPSG:25832&BBOX=${u0[0]},${u0[1]},${u1[0]},${u1[1]}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png&TRANSPARENT=TRUE`,
      ),
    );
    assert.ok(Math.abs(m - base) < 0.1, `web mercator ${m} vs ${base}`);
    assert.ok(Math.abs(u - base) < 0.1, `UTM 32 ${u} vs ${base}`);
  });

  it('keeps TRANSPARENT pixels clear, fills BGCOLOR otherwise, and answers JPEG', async () => {
    const l = layers.polygon;
    const clear = await pixels((await raw(getMap(l, '&TRANSPARENT=TRUE'))).body);
    assert.equal(clear.data[3], 0, 'the corner is transparent');
    const red = await pixels((await raw(getMap(l, '&TRANSPARENT=FALSE&BGCOLOR=0xFF0000'))).body);
    assert.deepEqual([...red.data.subarray(0, 4)], [255, 0, 0, 255]);
    const jpeg = await raw(getMap(l).replace('FORMAT=image/png', 'FORMAT=image/jpeg'));
    assert.equal(jpeg.status, 200);
    assert.equal(jpeg.type, 'image/jpeg');
    assert.deepEqual([...jpeg.body.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  });

  it('is read by OWSLib: capabilities 1.3.0 and 1.1.1 with the layer, its style, legend, CRSs, and a map', async () => {
    const l = layers.polygon;
    const out = await run('/usr/bin/python3', [
      '-c',
      `
import sys, json
from owslib.wms import WebMapService
url = sys.argv[1]
res = {}
for v in ['1.3.0', '1.1.1']:
    w = WebMapService(url, version=v)
    layer = w[sys.argv[2]]
    res[v] = {'title': layer.title, 'crs': sorted(c if isinstance(c, str) else c[4] if len(c) > 4 and c[4] else str(c) for c in layer.crsOptions),
              'styles': layer.styles, 'bbox': layer.boundingBoxWGS84, 'ops': [o.name for o in w.operations]}
    img = w.getmap(layers=[sys.argv[2]], styles=[''], srs='EPSG:4326', bbox=(6.895, 50.895, 6.975, 50.95), size=(300, 200), format='image/png', transparent=True)
    res[v]['png'] = img.read()[:4].hex()
print(json.dumps(res))
`,
      `${f.t.url}/services/wms/${l.slug}`,
      l.slug,
    ]);
    const res = JSON.parse(out) as Record<
      string,
      {
        title: string;
        crs: string[];
        styles: Record<string, { title: string; legend: string }>;
        bbox: number[];
        ops: string[];
        png: string;
      }
    >;
    for (const v of ['1.3.0', '1.1.1']) {
      const r = res[v];
      assert.equal(r.title, l.name);
      for (const crs of ['EPSG:4326', 'EPSG:3857', 'EPSG:25832', 'EPSG:25833', 'EPSG:31466', 'EPSG:31469'])
        assert.ok(r.crs.includes(crs), `${v} ${crs}`);
      assert.ok(r.styles.default, JSON.stringify(r.styles));
      assert.match(r.styles.default.legend, /REQUEST=GetLegendGraphic/);
      assert.deepEqual(
        r.bbox.map((x) => Math.round(x * 1000) / 1000),
        [6.9, 50.9, 6.97, 50.946],
      );
      assert.ok(r.ops.includes('GetMap') && r.ops.includes('GetFeatureInfo'));
      assert.equal(r.png, '89504e47', `${v}: a PNG`);
    }
    assert.ok(res['1.3.0'].crs.includes('CRS:84'));
  });

  it('announces the scale range of the style in the capabilities', async () => {
    const style: LayerStyle = {
      rules: [
        { name: 'a', min_scale_denominator: 500, max_scale_denominator: 50000, symbol: { symbol_type: 'style' } },
        { name: 'b', min_scale_denominator: 1000, max_scale_denominator: 25000, symbol: { symbol_type: 'style' } },
      ],
    };
    const l = await servedLayer(f.admin, [await approvedDepot(f, files.point)], { style });
    const caps = (await raw(wms(l, 'REQUEST=GetCapabilities&VERSION=1.3.0'))).body.toString();
    assert.match(caps, /<MinScaleDenominator>500<\/MinScaleDenominator><MaxScaleDenominator>50000<\/MaxScaleDenominator>/);
    assert.match(caps, /<EX_GeographicBoundingBox><westBoundLongitude>6.905<\/westBoundLongitude>/);
    assert.match(caps, /<BoundingBox CRS="EPSG:4326" minx="50.905" miny="6.905"/, 'EPSG:4326 lists latitude first');
    // Beyond 1:50,000 nothing draws.
    const far = await pixels((await raw(getMap(l, '&TRANSPARENT=TRUE', '50,6,51,7'))).body);
    assert.ok(
      far.data.every((v, i) => i % 4 !== 3 || v === 0),
      'nothing drawn at 1:250,000',
    );
  });

  it('is read by GDAL: gdal_translate fetches a map through the WMS driver', async () => {
    const l = layers.polygon;
    const out = join(dir, 'gdal.tif');
    const url =
      `WMS:${f.t.url}/services/wms/${l.slug}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=${l.slug}&CRS=EPSG:4326` +
      `&BBOX=${S},${W},${N},${E}&FORMAT=image/png&TRANSPARENT=TRUE`;
    await run('gdal_translate', ['-q', '-outsize', '400', '275', '-of', 'GTiff', url, out]);
    const info = JSON.parse(await run('gdalinfo', ['-json', '-stats', out])) as {
      size: number[];
      bands: Array<{ maximum?: number; minimum?: number }>;
    };
    assert.deepEqual(info.size, [400, 275]);
    assert.equal(info.bands.length, 4);
    assert.equal(info.bands[3].maximum, 255, 'parcels are drawn');
    assert.equal(info.bands[3].minimum, 0, 'and the gaps are clear');
    // GDAL discovers the layer from the capabilities, as desktop GIS do.
    const caps = await run('gdalinfo', [
      `WMS:${f.t.url}/services/wms/${l.slug}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities`,
    ]);
    assert.match(caps, new RegExp(`SUBDATASET_1_NAME=WMS:.*LAYERS=${l.slug}`));
    assert.match(caps, /SUBDATASET_1_DESC=Bäume/);
  });

  it('answers GetFeatureInfo as JSON, HTML with the selection fields, and GML', async () => {
    const l = await servedLayer(f.admin, [await approvedDepot(f, files.polygon)], {
      style: PARCELS,
      selection_title: 'Flurstück',
      selection_fields: [
        { key: 'name', displayName: 'Bezeichnung', type: 'text', visible: true },
        { key: 'nr', displayName: 'Nummer', type: 'integer', visible: true, unit: 'Nr.' },
      ],
    });
    // Pixel of the first parcel's middle (6.905°E, 50.905°N).
    const i = Math.round(((6.905 - W) / (E - W)) * WIDTH);
    const j = Math.round(((N - 50.905) / (N - S)) * HEIGHT);
    const base = `VERSION=1.3.0&REQUEST=GetFeatureInfo&LAYERS=${l.slug}&QUERY_LAYERS=${l.slug}&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&I=${i}&J=${j}`;
    const json = await raw(wms(l, `${base}&INFO_FORMAT=application/json`));
    assert.equal(json.status, 200);
    const fc = JSON.parse(json.body.toString()) as { features: Array<{ properties: Record<string, unknown> }> };
    assert.deepEqual(
      fc.features.map((x) => x.properties),
      [{ nr: 1, art: 'Wiese', name: 'P1' }],
    );
    const html = (await raw(wms(l, `${base}&INFO_FORMAT=text/html`))).body.toString();
    assert.match(html, /<h1>Flurstück<\/h1>/);
    assert.match(html, /<th>Bezeichnung<\/th><td>P1<\/td>/);
    assert.match(html, /<th>Nummer<\/th><td>1 Nr.<\/td>/);
    assert.doesNotMatch(html, /Wiese/, 'only the selection fields');
    const gml = (await raw(wms(l, `${base}&INFO_FORMAT=application/vnd.ogc.gml`))).body.toString();
    assert.match(gml, /<art>Wiese<\/art>/);
    // Between parcels: nothing.
    const gap = await raw(wms(l, `${base.replace(`I=${i}`, `I=${i + 55}`)}&INFO_FORMAT=application/json`));
    assert.deepEqual((JSON.parse(gap.body.toString()) as { features: unknown[] }).features, []);
    // 1.1.1 names the pixel X and Y.
    const v111 = await raw(
      wms(
        l,
        `VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=${l.slug}&QUERY_LAYERS=${l.slug}&STYLES=&SRS=EPSG:4326&BBOX=${W},${S},${E},${N}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&X=${i}&Y=${j}&INFO_FORMAT=application/json`,
      ),
    );
    assert.equal((JSON.parse(v111.body.toString()) as { features: unknown[] }).features.length, 1);
  });

  it('draws the legend of all rules and of one rule (RULE=)', async () => {
    const l = layers.polygon;
    const all = await raw(wms(l, `VERSION=1.3.0&REQUEST=GetLegendGraphic&LAYER=${l.slug}&FORMAT=image/png`));
    assert.equal(all.status, 200);
    const a = await pixels(all.body);
    assert.deepEqual([a.width, a.height], [200, 60]);
    const one = await raw(wms(l, `VERSION=1.3.0&REQUEST=GetLegendGraphic&LAYER=${l.slug}&FORMAT=image/png&RULE=Wald`));
    const p = await pixels(one.body);
    assert.deepEqual([p.width, p.height], [20, 20]);
    const mid = (10 * 20 + 10) * 4;
    assert.deepEqual([...p.data.subarray(mid, mid + 4)], [0x99, 0x66, 0x33, 255], 'the Wald fill');
    const e = await exception(wms(l, `VERSION=1.3.0&REQUEST=GetLegendGraphic&LAYER=${l.slug}&RULE=nix`));
    assert.equal(e.code, 'InvalidParameterValue');
  });

  it('answers 304 to a client holding the same map of the same state', async () => {
    const first = await raw(getMap(layers.point));
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await raw(getMap(layers.point), { 'if-none-match': etag })).status, 304);
    assert.equal((await raw(getMap(layers.point, '&TRANSPARENT=TRUE'), { 'if-none-match': etag })).status, 200);
  });

  it('refuses bad input with a ServiceExceptionReport in the caller language, never a 500', async () => {
    const l = layers.polygon;
    assert.equal((await exception(getMap(l).replace(`LAYERS=${l.slug}`, 'LAYERS=andere'))).code, 'LayerNotDefined');
    assert.equal((await exception(getMap(l).replace('CRS=EPSG:4326', 'CRS=EPSG:9999'))).code, 'InvalidCRS');
    const inverted = await exception(getMap(l, '', `${N},${W},${S},${E}`));
    assert.equal(inverted.code, 'InvalidParameterValue');
    assert.match(inverted.text, /inverted/);
    assert.match((await exception(getMap(l, '', '-100,0,100,10'))).text, /outside/);
    assert.match(
      (
        await exception(
          getMap(l, '', '1,2,3,4')
            .replace('CRS=EPSG:4326', 'CRS=EPSG:25832')
            .replace('BBOX=1,2,3,4', 'BBOX=-1e12,-1e12,1e12,1e12'),
        )
      ).text,
      /outside/,
    );
    const wide = await exception(getMap(l).replace(`WIDTH=${WIDTH}`, 'WIDTH=5000'));
    assert.equal(wide.code, 'InvalidParameterValue');
    assert.match(wide.text, /at most 4096/);
    assert.equal((await exception(getMap(l).replace('FORMAT=image/png', 'FORMAT=image/gif'))).code, 'InvalidFormat');
    assert.equal((await exception(getMap(l).replace('STYLES=', 'STYLES=bunt'))).code, 'StyleNotDefined');
    assert.equal((await exception(wms(l, 'VERSION=1.3.0&REQUEST=GetStuff'))).code, 'OperationNotSupported');
    assert.equal((await exception(getMap(l).replace('&BBOX=', '&XBOX='))).code, 'MissingParameterValue');
    const de = await exception(getMap(l).replace('CRS=EPSG:4326', 'CRS=EPSG:9999'), { 'accept-language': 'de' });
    assert.match(de.text, /Koordinatenreferenzsystem EPSG:9999/);
    // 1.1.1 may ask for the error in the image.
    const inimage = await raw(
      wms(
        l,
        `VERSION=1.1.1&REQUEST=GetMap&LAYERS=andere&STYLES=&SRS=EPSG:4326&BBOX=${W},${S},${E},${N}&WIDTH=200&HEIGHT=100&FORMAT=image/png&EXCEPTIONS=application/vnd.ogc.se_inimage`,
      ),
    );
    assert.equal(inimage.status, 200);
    assert.equal(inimage.type, 'image/png');
    const missing = await exception(`/services/wms/no_such_layer?SERVICE=WMS&REQUEST=GetCapabilities`);
    assert.equal(missing.status, 404);
    const gfi = `VERSION=1.3.0&REQUEST=GetFeatureInfo&LAYERS=${l.slug}&QUERY_LAYERS=${l.slug}&STYLES=&CRS=CRS:84&BBOX=${W},${S},${E},${N}&WIDTH=100&HEIGHT=100&I=5&J=5`;
    for (const query of [
      getMap(l).replace(`WIDTH=${WIDTH}`, 'WIDTH=-1'),
      getMap(l).replace(`WIDTH=${WIDTH}`, 'WIDTH=abc'),
      getMap(l, '', 'NaN,1,2,3'),
      getMap(l, '&BGCOLOR=red'),
      getMap(l, '&TRANSPARENT=yes'),
      getMap(l).replace('CRS=EPSG:4326', 'CRS='),
      getMap(l).replace('SERVICE=WMS', 'SERVICE=WFS'),
      getMap(l, '&moment=abc'),
      wms(l, gfi.replace('I=5', 'I=100')),
      wms(l, `${gfi}&FEATURE_COUNT=0`),
      wms(l, `${gfi}&INFO_FORMAT=text/csv`),
      wms(l, gfi.replace(`QUERY_LAYERS=${l.slug}`, 'QUERY_LAYERS=x')),
      wms(l, `REQUEST=GetLegendGraphic&LAYER=x`),
      wms(l, `REQUEST=GetLegendGraphic&LAYER=${l.slug}&WIDTH=99999`),
      wms(l, `REQUEST=GetLegendGraphic&LAYER=${l.slug}&FORMAT=text/plain`),
      `/services/wms/${l.slug}?REQUEST=GetCapabilities`,
      `/services/wms/${l.slug}`,
    ]) {
      const e = await exception(query);
      assert.ok(e.code, `${query}: ${e.text}`);
    }
  });

  it('hides an internal layer from anonymous callers exactly like a missing one', async () => {
    const reader = await f.t.user();
    const l = await servedLayer(f.admin, [await approvedDepot(f, files.point)], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const hidden = await exception(wms(l, 'REQUEST=GetCapabilities'));
    const missing = await exception(`/services/wms/no_such_layer?SERVICE=WMS&REQUEST=GetCapabilities`);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.text, missing.text);
    const caps = await reader.client.get(wms(l, 'REQUEST=GetCapabilities'));
    assert.equal(caps.status, 200);
    assert.match(String(caps.body), /<WMS_Capabilities/);
    // A desktop client with an API key in the address keeps it in every address the capabilities give.
    expectStatus(await f.admin.patch(userUri(reader.id), { user_permissions: ['access_connect'] }), 200);
    const { key } = expectStatus(await f.admin.post('/api/v1/apikey/', { user: userUri(reader.id), realms: ['layer'] }), 201);
    const keyed = await raw(wms(l, `REQUEST=GetCapabilities&APIKEY=${key}`));
    assert.equal(keyed.status, 200);
    const hrefs = [...keyed.body.toString().matchAll(/xlink:href="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(hrefs.length > 3);
    for (const href of hrefs) assert.ok(href.includes(`apikey=${key}`), href);
    const png = await raw(
      wms(
        l,
        `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${l.slug}&STYLES=&CRS=CRS:84&BBOX=${W},${S},${E},${N}&WIDTH=100&HEIGHT=100&FORMAT=image/png&apikey=${key}`,
      ),
    );
    assert.equal(png.status, 200);
    assert.equal(png.type, 'image/png');
  });
});
