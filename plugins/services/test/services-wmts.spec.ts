import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MessageBus } from '@werkbank/sdk/node';
import { expectStatus, userUri } from '@werkbank/testing/node';
import type { Layer } from '@werkbank/plugin-layers/api';
import type { Depot } from '@werkbank/plugin-magazine/testing';
import { approvedDepot, servedLayer, servicesServer, tilesRecorded, type ServicesFixture } from './services-support';
import { PARCELS, parcelsGeojson, pixels } from './wms-support';
import { advTile, mercatorTile, toUtm, type TileAt } from './wmts-support';

/** Clients call the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[], env: Record<string, string> = {}) =>
  (await promisify(execFile)(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 ** 2 })).stdout;

/** OWSLib's WebMapTileService (Debian python3-owslib) on the capabilities, then GetTile for each tile asked (base64 PNGs). */
const OWSLIB = `
import base64, json, sys, warnings
warnings.simplefilter("ignore")
from owslib.wmts import WebMapTileService
w = WebMapTileService(sys.argv[1])
name = sys.argv[2]
layer = w.contents[name]
def limits(link):
    return {k: [v.mintilerow, v.maxtilerow, v.mintilecol, v.maxtilecol] for k, v in link.tilematrixlimits.items()}
adv = w.tilematrixsets["DE_EPSG_25832_ADV"]
print(json.dumps({
  "type": w.identification.type,
  "version": w.identification.version,
  "layers": list(w.contents),
  "sets": sorted(w.tilematrixsets),
  "crs": {k: v.crs for k, v in w.tilematrixsets.items()},
  "links": {k: limits(v) for k, v in layer.tilematrixsetlinks.items()},
  "formats": layer.formats,
  "styles": list(layer.styles),
  "templates": [r["template"] for r in layer.resourceURLs if r["resourceType"] == "tile"],
  "wgs84": list(layer.boundingBoxWGS84),
  "adv": {k: [m.scaledenominator, list(m.topleftcorner), m.matrixwidth, m.matrixheight] for k, m in adv.tilematrix.items()},
  "operations": [o.name for o in w.operations],
  "tiles": [base64.b64encode(w.gettile(layer=name, tilematrixset=s, tilematrix=m, row=r, column=c).read()).decode()
            for s, m, r, c in json.loads(sys.argv[3])],
}))
`;

interface OwslibAnswer {
  type: string;
  version: string;
  layers: string[];
  sets: string[];
  crs: Record<string, string>;
  links: Record<string, Record<string, [number, number, number, number]>>;
  formats: string[];
  styles: string[];
  templates: string[];
  wgs84: number[];
  adv: Record<string, [number, [number, number], number, number]>;
  operations: string[];
  tiles: string[];
}

/** The alpha of a pixel of a PNG. */
async function alphaAt(png: Buffer, [px, py]: [number, number]): Promise<number> {
  const { width, data } = await pixels(png);
  return data[(py * width + px) * 4 + 3];
}

/** Centre of parcel P1 (Wiese, drawn) and a point in the gap east of it (nothing drawn). */
const P1: [number, number] = [6.905, 50.905];
const GAP: [number, number] = [6.911, 50.905];

/**
 * The WMTS (issue 17, decision 0083 "WMTS"): capabilities and tiles of WebMercatorQuad and the
 * AdV set for EPSG:25832, read by OWSLib and GDAL, drawn by the WMS renderer and kept in the tile
 * cache per publication; every bad request an OWS ExceptionReport.
 */
describe('services: WMTS serves PNG tiles drawn by the WMS renderer, KVP and RESTful', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let file: string;
  let depot: Depot;
  let layer: Layer;

  const raw = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${f.t.url}${path}`, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      headers: res.headers,
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const kvpTile = (l: Layer, [set, matrix, row, col]: TileAt['tile'], extra = '') =>
    `/services/wmts/${l.slug}?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${l.slug}&STYLE=default&FORMAT=image/png` +
    `&TILEMATRIXSET=${set}&TILEMATRIX=${matrix}&TILEROW=${row}&TILECOL=${col}${extra}`;
  const restTile = (l: Layer, [set, matrix, row, col]: TileAt['tile']) =>
    `/services/wmts/${l.slug}/${set}/${matrix}/${row}/${col}.png`;
  /** An exception report's status, code, locator and text. */
  const exception = async (path: string, headers: Record<string, string> = {}) => {
    const res = await raw(path, headers);
    const text = res.body.toString('utf8');
    assert.match(res.type, /xml/, text);
    assert.match(text, /<ExceptionReport xmlns="http:\/\/www.opengis.net\/ows\/1.1"/);
    assert.doesNotMatch(text, /at .*\.ts|\/work\/|Error:/);
    return {
      status: res.status,
      code: /exceptionCode="([^"]+)"/.exec(text)?.[1],
      locator: /locator="([^"]+)"/.exec(text)?.[1],
      text: /<ExceptionText>([^<]*)</.exec(text)?.[1] ?? '',
    };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wmts-'));
    file = parcelsGeojson(dir);
    depot = await approvedDepot(f, file);
    layer = await servedLayer(f.admin, [depot], { style: PARCELS });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('OWSLib reads the capabilities (both tile matrix sets, the layer, its limits, the REST template) and gets tiles drawn where the features are', async () => {
    const [p1Utm, gapUtm] = await toUtm([P1, GAP]);
    const samples: Array<TileAt & { drawn: boolean }> = [
      { ...mercatorTile(...P1, 14), drawn: true },
      { ...mercatorTile(...GAP, 14), drawn: false },
      { ...advTile(p1Utm, 10), drawn: true },
      { ...advTile(gapUtm, 10), drawn: false },
    ];
    const caps = `${f.t.url}/services/wmts/${layer.slug}/1.0.0/WMTSCapabilities.xml`;
    const out = JSON.parse(
      await run('/usr/bin/python3', ['-c', OWSLIB, caps, layer.slug, JSON.stringify(samples.map((s) => s.tile))]),
    ) as OwslibAnswer;
    assert.equal(out.type, 'OGC WMTS');
    assert.equal(out.version, '1.0.0');
    assert.deepEqual(out.layers, [layer.slug]);
    assert.deepEqual(out.sets, ['DE_EPSG_25832_ADV', 'WebMercatorQuad']);
    assert.equal(out.crs.WebMercatorQuad, 'urn:ogc:def:crs:EPSG::3857');
    assert.equal(out.crs.DE_EPSG_25832_ADV, 'urn:ogc:def:crs:EPSG::25832');
    assert.deepEqual(Object.keys(out.links).sort(), ['DE_EPSG_25832_ADV', 'WebMercatorQuad']);
    assert.deepEqual(out.formats, ['image/png']);
    assert.deepEqual(out.styles, ['default']);
    assert.deepEqual(out.operations.sort(), ['GetCapabilities', 'GetFeatureInfo', 'GetTile']);
    assert.deepEqual(out.templates, [
      `${f.t.url}/services/wmts/${layer.slug}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png`,
    ]);
    // The layer's box: the parcels from 6.90°E, 50.90°N, 6 × 4 squares of 0.01° with gaps of 0.002°.
    const [w, s, e, n] = out.wgs84;
    assert.ok(Math.abs(w - 6.9) < 1e-6 && Math.abs(s - 50.9) < 1e-6 && Math.abs(e - 6.97) < 1e-6 && Math.abs(n - 50.946) < 1e-6);
    // The AdV set as basemap.de publishes it: 00 to 13, 1:17,471,320.75 halving, one tile at 00.
    assert.deepEqual(
      Object.keys(out.adv).sort(),
      [...Array(14).keys()].map((i) => String(i).padStart(2, '0')),
    );
    assert.ok(Math.abs(out.adv['00'][0] - 17471320.7508974) < 0.01);
    assert.ok(Math.abs(out.adv['13'][0] - 17471320.7508974 / 2 ** 13) < 0.01);
    assert.deepEqual(out.adv['00'][1], [-46133.17, 6301219.54]);
    assert.deepEqual([out.adv['00'][2], out.adv['00'][3], out.adv['13'][2]], [1, 1, 8192]);
    // Limits from the layer's box: the tiles asked for lie within them.
    for (const { tile } of samples) {
      const [minRow, maxRow, minCol, maxCol] = out.links[tile[0]][tile[1]];
      assert.ok(tile[2] >= minRow && tile[2] <= maxRow && tile[3] >= minCol && tile[3] <= maxCol, JSON.stringify(tile));
    }
    assert.deepEqual(out.links.WebMercatorQuad['0'], [0, 0, 0, 0]);
    for (const [i, sample] of samples.entries()) {
      const png = Buffer.from(out.tiles[i], 'base64');
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      const { width, height } = await pixels(png);
      assert.deepEqual([width, height], [256, 256]);
      const alpha = await alphaAt(png, sample.px);
      if (sample.drawn) assert.ok(alpha > 0, `${sample.tile.join('/')} at ${sample.px} is not drawn`);
      else assert.equal(alpha, 0, `${sample.tile.join('/')} at ${sample.px} is drawn`);
    }
  });

  it('GDAL lists the layer in both sets and gdal_translate cuts an image of a small window from it', async () => {
    const caps = `WMTS:${f.t.url}/services/wmts/${layer.slug}/1.0.0/WMTSCapabilities.xml`;
    const env = { GDAL_ENABLE_WMS_CACHE: 'NO', GDAL_HTTP_TIMEOUT: '60' };
    const info = await run('gdalinfo', [caps], env);
    assert.match(info, new RegExp(`layer=${layer.slug},tilematrixset=WebMercatorQuad`));
    assert.match(info, new RegExp(`layer=${layer.slug},tilematrixset=DE_EPSG_25832_ADV`));
    for (const set of ['WebMercatorQuad', 'DE_EPSG_25832_ADV']) {
      const out = join(dir, `gdal-${set}.png`);
      await run(
        'gdal_translate',
        [
          '-of',
          'PNG',
          '-projwin_srs',
          'EPSG:4326',
          '-projwin',
          '6.899',
          '50.935',
          '6.935',
          '50.899',
          '-outsize',
          '200',
          '200',
          `WMTS:${f.t.url}/services/wmts/${layer.slug}/1.0.0/WMTSCapabilities.xml,layer=${layer.slug},tilematrixset=${set}`,
          out,
        ],
        env,
      );
      const { width, height, data } = await pixels(readFileSync(out));
      assert.deepEqual([width, height], [200, 200]);
      let drawn = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
      const clear = width * height - drawn;
      // Parcels cover most of the window, their gaps and the edges stay transparent.
      assert.ok(drawn > 200 * 200 * 0.4, `${set}: only ${drawn} pixels drawn`);
      assert.ok(clear > 200 * 200 * 0.02, `${set}: only ${clear} pixels transparent`);
    }
  });

  it('serves the second request of a tile from the cache (the bytes its row holds, same ETag, 304), KVP and REST alike', async () => {
    const at = mercatorTile(6.93, 50.92, 15);
    const first = await raw(kvpTile(layer, at.tile));
    assert.equal(first.status, 200, first.body.toString());
    assert.equal(first.type, 'image/png');
    assert.match(first.headers.get('cache-control') ?? '', /public, no-cache/);
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    await tilesRecorded(f);
    const rows = (await f.t.server.db.dataSource.query(
      `SELECT bytes FROM services_tile_cache WHERE layer_id = $1 AND tileset = 'wmts/WebMercatorQuad/png' AND z = $2 AND y = $3 AND x = $4`,
      [layer.id, 15, at.tile[2], at.tile[3]],
    )) as { bytes: Uint8Array }[];
    assert.equal(rows.length, 1);
    assert.ok(Buffer.from(rows[0].bytes).equals(first.body), 'the row holds the tile');
    const second = await raw(kvpTile(layer, at.tile));
    assert.equal(second.headers.get('x-tile-cache'), 'hit');
    assert.equal(second.headers.get('etag'), etag);
    assert.ok(second.body.equals(first.body));
    const rest = await raw(restTile(layer, at.tile));
    assert.equal(rest.status, 200);
    assert.equal(rest.headers.get('etag'), etag);
    assert.ok(rest.body.equals(first.body));
    const again = await raw(restTile(layer, at.tile), { 'if-none-match': etag });
    assert.equal(again.status, 304);
    // Parameter names in any case.
    const lower = await raw(kvpTile(layer, at.tile).replace('SERVICE=', 'service=').replace('TILEROW=', 'TileRow='));
    assert.equal(lower.status, 200);
    assert.ok(lower.body.equals(first.body));
  });

  it('a newly approved moment changes the tile: new ETag, drawn again, the old publication’s cache rows dropped', async () => {
    const d = await approvedDepot(f, file);
    const l = await servedLayer(f.admin, [d], { style: PARCELS });
    const at = mercatorTile(...P1, 14);
    const before = await raw(restTile(l, at.tile));
    assert.equal(before.status, 200);
    assert.ok((await alphaAt(before.body, at.px)) > 0);
    // The next moment lacks parcel P1.
    const fc = JSON.parse(readFileSync(file, 'utf8')) as { features: Array<{ properties: { nr: number } }> };
    const { moment_id } = await f.access.write(
      f.adminUser,
      d.id,
      fc.features.filter((x) => x.properties.nr !== 1).map((feature) => ({ feature })),
      { message: 'ohne P1' },
    );
    // A draft changes nothing.
    const draft = await raw(restTile(l, at.tile));
    assert.equal(draft.headers.get('etag'), before.headers.get('etag'));
    assert.equal(draft.headers.get('x-tile-cache'), 'hit');
    // Tiles hear of the approval through the message bus (as every process does) before their next answer.
    const heard = new Promise<void>((resolve) => {
      const sub = f.t.server.kernel.container.get<MessageBus>(MessageBus).subscribe('werkbank_moment_approved', () => {
        sub.dispose();
        resolve();
      });
    });
    expectStatus(await f.admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    await heard;
    const after = await raw(restTile(l, at.tile), { 'if-none-match': before.headers.get('etag')! });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    assert.equal(after.headers.get('x-tile-cache'), 'miss');
    assert.equal(await alphaAt(after.body, at.px), 0);
    await tilesRecorded(f);
    const keys = (await f.t.server.db.dataSource.query(
      `SELECT DISTINCT publication FROM services_tile_cache WHERE layer_id = $1`,
      [l.id],
    )) as { publication: string }[];
    assert.equal(keys.length, 1);
    assert.ok(after.headers.get('etag')!.includes(keys[0].publication));
  });

  it('answers bad requests with OWS ExceptionReports in the caller’s language, never a 500', async () => {
    const at = mercatorTile(...P1, 14);
    const base = kvpTile(layer, at.tile);
    const cases: Array<[string, number, string, string?]> = [
      [base.replace('&TILEMATRIX=14', ''), 400, 'MissingParameterValue', 'tilematrix'],
      [base.replace('&LAYER=', '&XLAYER='), 400, 'MissingParameterValue', 'layer'],
      [base.replace('SERVICE=WMTS&', ''), 400, 'MissingParameterValue', 'service'],
      [base.replace('SERVICE=WMTS', 'SERVICE=WMS'), 400, 'InvalidParameterValue', 'service'],
      [base.replace('REQUEST=GetTile', 'REQUEST=GetStuff'), 400, 'InvalidParameterValue', 'request'],
      [base.replace('REQUEST=GetTile', 'REQUEST=GetFeatureInfo'), 400, 'MissingParameterValue', 'infoformat'],
      [base.replace('VERSION=1.0.0', 'VERSION=2.0.0'), 400, 'InvalidParameterValue', 'version'],
      [base.replace(`LAYER=${layer.slug}`, 'LAYER=andere'), 400, 'InvalidParameterValue', 'layer'],
      [base.replace('STYLE=default', 'STYLE=bunt'), 400, 'InvalidParameterValue', 'style'],
      [base.replace('FORMAT=image/png', 'FORMAT=image/gif'), 400, 'InvalidParameterValue', 'format'],
      [base.replace('TILEMATRIXSET=WebMercatorQuad', 'TILEMATRIXSET=EPSG:4326'), 400, 'InvalidParameterValue', 'tilematrixset'],
      [base.replace('TILEMATRIX=14', 'TILEMATRIX=25'), 400, 'InvalidParameterValue', 'tilematrix'],
      [base.replace(/TILEROW=\d+/, 'TILEROW=-1'), 400, 'InvalidParameterValue', 'tilerow'],
      [base.replace(/TILECOL=\d+/, 'TILECOL=x'), 400, 'InvalidParameterValue', 'tilecol'],
      [base.replace(/TILEROW=\d+/, 'TILEROW=16384'), 400, 'TileOutOfRange', 'tilerow'],
      [base.replace(/TILECOL=\d+/, 'TILECOL=99999999'), 400, 'TileOutOfRange', 'tilecol'],
      [`/services/wmts/${layer.slug}/DE_EPSG_25832_ADV/00/0/1.png`, 400, 'TileOutOfRange', 'tilecol'],
      [`/services/wmts/${layer.slug}/DE_EPSG_25832_ADV/0/0/0.png`, 400, 'InvalidParameterValue', 'tilematrix'],
      [`/services/wmts/${layer.slug}/WebMercatorQuad/0/0/0.jpg`, 400, 'InvalidParameterValue', 'format'],
      [`/services/wmts/${layer.slug}/WebMercatorQuad/0/0/0.png?moment=abc`, 400, 'InvalidParameterValue', 'moment'],
      [`/services/wmts/no_such_layer?SERVICE=WMTS&REQUEST=GetCapabilities`, 404, 'InvalidParameterValue', 'layer'],
      [`/services/wmts/no_such_layer/WebMercatorQuad/0/0/0.png`, 404, 'InvalidParameterValue', 'layer'],
    ];
    for (const [path, status, code, locator] of cases) {
      const e = await exception(path);
      assert.deepEqual([e.status, e.code, e.locator], [status, code, locator], `${path}: ${e.text}`);
      assert.ok(e.text.length > 10, path);
    }
    const de = await exception(base.replace(/TILEROW=\d+/, 'TILEROW=16384'), { 'accept-language': 'de' });
    assert.match(de.text, /außerhalb der Kachelmatrix/);
    const en = await exception(base.replace(/TILEROW=\d+/, 'TILEROW=16384'), { 'accept-language': 'en' });
    assert.match(en.text, /outside the tile matrix: it runs from 0 to 16383/);
  });

  it('hides an internal layer from anonymous callers exactly like a missing one, KVP and RESTful', async () => {
    const reader = await f.t.user();
    const l = await servedLayer(f.admin, [depot], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const missing = await exception(`/services/wmts/no_such_layer/1.0.0/WMTSCapabilities.xml`);
    for (const path of [
      `/services/wmts/${l.slug}/1.0.0/WMTSCapabilities.xml`,
      `/services/wmts/${l.slug}?SERVICE=WMTS&REQUEST=GetCapabilities`,
      restTile(l, mercatorTile(...P1, 14).tile),
      kvpTile(l, mercatorTile(...P1, 14).tile),
    ]) {
      const hidden = await exception(path);
      assert.equal(hidden.status, 404, path);
      assert.equal(hidden.text, missing.text);
    }
    const caps = await reader.client.get(`/services/wmts/${l.slug}?service=wmts&request=getcapabilities`);
    assert.equal(caps.status, 200);
    assert.match(String(caps.body), /<Capabilities xmlns="http:\/\/www.opengis.net\/wmts\/1.0"/);
    const tile = await reader.client.get(restTile(l, mercatorTile(...P1, 14).tile));
    assert.equal(tile.status, 200);
    assert.match(tile.headers.get('cache-control') ?? '', /private/);
  });
});
