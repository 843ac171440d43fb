import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { expectStatus, userUri } from '@werkbank/testing/node';
import { newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import {
  approveAndHear,
  servedLayer,
  servicesServer,
  tilesRecorded,
  withBlobTiles,
  type ServicesFixture,
} from './services-support';
import { cgi, mercatorGetMap, PASSWORD, RemoteWms, samePixels, TOKEN, USER } from './external-support';
import { mapfile } from './mapserver-mapfile';
import { parcelsGeojson, pixels, pointsGeojson, PARCELS, TREES, WINDOW } from './wms-support';

const [W, S, E, N] = WINDOW;
const WIDTH = 400;
const HEIGHT = 300;

/**
 * External layer types (issue 17, decision 0083 "External maps"): external_map and mapproxy layers
 * stack WMS datums; Werkbank's WMS answers their GetMap with the remote MapServer's image fetched
 * through the guarded fetcher, never showing the remote's address or credentials, and a mapproxy
 * keeps the images per publication in its cache.
 */
describe('services: external_map and mapproxy layers proxy a remote MapServer WMS', function () {
  this.timeout(120_000);
  let f: ServicesFixture;
  // The remote runs on loopback, which the guarded fetcher refuses unless the administrator allows it.
  servicesServer((s) => (f = s), { config: { fetchAllowedHosts: ['127.0.0.1'] } });
  let dir: string;
  let remote: RemoteWms;
  let port: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-external-'));
    remote = new RemoteWms({
      polygon: mapfile(dir, parcelsGeojson(dir), 'polygon', PARCELS),
      point: mapfile(dir, pointsGeojson(dir), 'point', TREES),
    });
    // The parcels can be queried (GetFeatureInfo, GML with every item); the trees cannot (no TEMPLATE).
    const text = readFileSync(remote.maps.polygon, 'utf8').replace(
      'METADATA "wms_title" "data" END',
      'METADATA "wms_title" "data" "wms_include_items" "all" "gml_include_items" "all" END TEMPLATE "query"',
    );
    writeFileSync(remote.maps.polygon, text);
    await remote.start();
    port = remote.base.split(':').pop()!;
  });
  after(async () => {
    await remote?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const remoteMap = (name: string) => remote.maps[name];

  /** The remote address as an author pastes it: credentials, a token and a GetMap link's parameters. */
  const address = (map: string) =>
    `http://${USER}:${PASSWORD}@127.0.0.1:${port}/ows/${map}?token=${TOKEN}&SERVICE=WMS&VERSION=1.3.0&LAYERS=data&REQUEST=GetMap`;

  /** A WMS depot with these datums, approved. */
  const wmsDepot = async (datums: Record<string, unknown>[]): Promise<Depot> => {
    const depot = await newDepot(f.admin, 'wms');
    // The types' template bbox [0, 0, 0, 0]: no extent, the source is asked for every map.
    const items = datums.map((d) => ({ bbox: [0, 0, 0, 0], ...d }));
    const { moment_id } = await f.access.write(f.adminUser, depot.id, items, { message: 'remote' });
    expectStatus(await f.admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    return depot;
  };

  const raw = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${f.t.url}${path}`, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      headers: [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const query = `VERSION=1.3.0&REQUEST=GetMap&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png&TRANSPARENT=TRUE`;
  const getMap = (layer: Layer, q = query) => `/services/wms/${layer.slug}?SERVICE=WMS&LAYERS=${layer.slug}&${q}`;
  /** MapServer's own answer to the same GetMap, asked directly. */
  const direct = async (map: string, q = query) => {
    const res = await fetch(`${remote.base}/ows/${map}?direct=1&token=${TOKEN}&SERVICE=WMS&LAYERS=data&${q}`, {
      headers: { Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` },
    });
    assert.equal(res.headers.get('content-type'), 'image/png');
    return Buffer.from(await res.arrayBuffer());
  };
  /** A metalayer stacking these layers (the first on top), its stack approved. */
  const metalayerOf = async (layers: Layer[]): Promise<Layer> => {
    const stack = await newDepot(f.admin, 'layer');
    const items = layers.map((l) => ({ value: l.resource_uri }));
    const { moment_id } = await f.access.write(f.adminUser, stack.id, items, { message: 'stack' });
    expectStatus(await f.admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    return servedLayer(f.admin, [stack], { type: 'metalayer' });
  };
  /** Nothing of the remote's address in an answer. */
  const hidesRemote = (answer: { headers: string; body: Buffer }) => {
    const text = `${answer.headers}\n${answer.body.toString('latin1')}`;
    const secrets = [`:${port}`, `127.0.0.1:${port}`, USER, PASSWORD, TOKEN, '/ows/polygon', '/ows/point', '/tiles/', '/broken'];
    for (const secret of secrets) assert.ok(!text.includes(secret), `the answer shows ${secret}`);
  };
  /** An exception report's code and text. */
  const exception = async (path: string, headers: Record<string, string> = {}) => {
    const res = await raw(path, headers);
    assert.ok(res.status >= 400 && res.status < 600 && res.status !== 500, `status ${res.status}`);
    assert.match(res.type, /xml/);
    const text = res.body.toString('utf8');
    assert.match(text, /<(ows:)?ExceptionReport|<ServiceExceptionReport/);
    hidesRemote(res);
    return { status: res.status, text };
  };

  it('answers a GetMap of an external_map with the remote MapServer image, through the guarded fetcher', async () => {
    const layer = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon'), bbox: [6.8, 50.8, 7.1, 51.0] }])], {
      type: 'external_map',
    });
    const before = remote.count('/ows/polygon');
    const res = await raw(getMap(layer));
    assert.equal(res.status, 200);
    assert.equal(res.type, 'image/png');
    assert.ok(await samePixels(res.body, await direct('polygon')), 'the same pixels as MapServer draws');
    hidesRemote(res);
    // The remote got the map's parameters, its own token and the credentials as Basic authorization.
    const seen = remote.seen.filter((s) => s.path === '/ows/polygon' && !s.query.has('direct'))[before];
    assert.equal(seen.query.get('BBOX'), `${S},${W},${N},${E}`);
    assert.equal(seen.query.get('CRS'), 'EPSG:4326');
    assert.equal(seen.query.get('LAYERS'), 'data');
    assert.equal(seen.query.get('token'), TOKEN);
    assert.match(seen.authorization ?? '', /^Basic /);
    // Another CRS and WMS 1.1.1 (x/y order) reach MapServer as asked.
    const mercator = `VERSION=1.1.1&REQUEST=GetMap&STYLES=&SRS=EPSG:3857&BBOX=768000,6603000,777000,6612000&WIDTH=256&HEIGHT=256&FORMAT=image/png&TRANSPARENT=TRUE`;
    const m = await raw(getMap(layer, mercator));
    assert.equal(m.status, 200);
    const expected = await direct(
      'polygon',
      `VERSION=1.3.0&REQUEST=GetMap&STYLES=&CRS=EPSG:3857&BBOX=768000,6603000,777000,6612000&WIDTH=256&HEIGHT=256&FORMAT=image/png&TRANSPARENT=TRUE`,
    );
    assert.ok(await samePixels(m.body, expected));
    // An external_map keeps no cache: the same map asks the remote again.
    const asked = remote.count('/ows/polygon');
    expectStatus(await f.admin.get(getMap(layer)), 200);
    assert.equal(remote.count('/ows/polygon'), asked + 1);
  });

  it('stacks several remote maps bottom-up: the first pile draws on top', async () => {
    const points = await wmsDepot([{ tms_url: address('point') }]);
    const parcels = await wmsDepot([{ tms_url: address('polygon') }]);
    const layer = await servedLayer(f.admin, [points, parcels], { type: 'external_map' });
    const res = await raw(getMap(layer));
    assert.equal(res.status, 200);
    assert.equal(res.type, 'image/png');
    hidesRemote(res);
    // The same stack drawn here from MapServer's two images.
    const canvas = createCanvas(WIDTH, HEIGHT);
    const g = canvas.getContext('2d');
    g.drawImage(await loadImage(await direct('polygon')), 0, 0);
    g.drawImage(await loadImage(await direct('point')), 0, 0);
    const ours = await pixels(res.body);
    const theirs = await pixels(canvas.encodeSync('png'));
    let differ = 0;
    for (let i = 0; i < ours.data.length; i++) if (Math.abs(ours.data[i] - theirs.data[i]) > 2) differ++;
    assert.equal(differ, 0, `${differ} channel values differ`);
    // Both maps are in it.
    assert.ok(!(await samePixels(res.body, await direct('polygon'))), 'the trees are drawn over the parcels');
    assert.ok(!(await samePixels(res.body, await direct('point'))), 'the parcels are drawn under the trees');
  });

  it('serves a mapproxy layer from its cache: the remote is asked once per map and publication', () =>
    // Large images go to the blob store; here every image does.
    withBlobTiles(f, async () => {
      const depot = await wmsDepot([{ tms_url: address('polygon') }]);
      const layer = await servedLayer(f.admin, [depot], { type: 'mapproxy' });
      const before = remote.count('/ows/polygon');
      const first = await raw(getMap(layer));
      assert.equal(first.status, 200);
      assert.equal(remote.count('/ows/polygon'), before + 1);
      const second = await raw(getMap(layer));
      assert.equal(second.status, 200);
      assert.equal(remote.count('/ows/polygon'), before + 1, 'the second map came from the cache');
      assert.ok(first.body.equals(second.body));
      assert.ok(await samePixels(second.body, await direct('polygon')));
      hidesRemote(second);
      // Another map is another entry.
      const other = query.replace(`WIDTH=${WIDTH}`, 'WIDTH=200');
      expectStatus(await f.admin.get(getMap(layer, other)), 200);
      assert.equal(remote.count('/ows/polygon'), before + 2);
      const sql = `SELECT publication, blob FROM services_tile_cache WHERE layer_id = $1`;
      const rows = async (): Promise<Array<{ publication: string; blob: string }>> => {
        await tilesRecorded(f);
        return f.t.server.db.dataSource.query(sql, [layer.id]);
      };
      const old = await rows();
      assert.equal(old.length, 2);
      // A new approved moment of the pile is a new publication: a fresh cache, the old entries released to the blob sweep.
      const { moment_id } = await f.access.write(
        f.adminUser,
        depot.id,
        [{ tms_url: address('polygon'), bbox: [0, 0, 0, 0], transparent: true }],
        {
          message: 'again',
        },
      );
      await approveAndHear(f, moment_id);
      expectStatus(await f.admin.get(getMap(layer)), 200);
      assert.equal(remote.count('/ows/polygon'), before + 3);
      const now = await rows();
      assert.equal(now.length, 1);
      assert.notEqual(now[0].publication, old[0].publication);
      const released = (await f.t.server.db.dataSource.query(`SELECT hash FROM werkbank_blob_candidate WHERE hash = ANY($1)`, [
        old.map((r) => r.blob),
      ])) as { hash: string }[];
      assert.equal(released.length, new Set(old.map((r) => r.blob)).size);
    }));

  it('turns a remote failure into a clean exception report in the caller language, without the remote address', async () => {
    const broken = await servedLayer(
      f.admin,
      [await wmsDepot([{ tms_url: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/broken?token=${TOKEN}&LAYERS=data` }])],
      { type: 'mapproxy' },
    );
    const en = await exception(getMap(broken));
    assert.equal(en.status, 502);
    assert.match(en.text, /remote map service of this layer answered with an error \(HTTP 500\)/);
    const de = await exception(getMap(broken), { 'accept-language': 'de' });
    assert.match(de.text, /entfernte Kartendienst dieses Layers hat mit einem Fehler geantwortet/);
    // The WMTS says the same in its OWS exception report.
    const tile = await exception(`/services/wmts/${broken.slug}/WebMercatorQuad/3/2/4.png`, { 'accept-language': 'de' });
    assert.equal(tile.status, 502);
    assert.match(tile.text, /<(ows:)?ExceptionReport/);
    assert.match(tile.text, /entfernte Kartendienst dieses Layers hat mit einem Fehler geantwortet/);
    // A failure is not cached: the remote is asked again.
    const asked = remote.count('/broken');
    await exception(getMap(broken));
    assert.equal(remote.count('/broken'), asked + 1);
    // MapServer's own exception (an unknown layer) is XML, not an image: its text stays on the server.
    const wrong = await servedLayer(
      f.admin,
      [await wmsDepot([{ tms_url: address('polygon').replace('LAYERS=data', 'LAYERS=nirgends') }])],
      { type: 'external_map' },
    );
    assert.match((await exception(getMap(wrong))).text, /did not answer with an image/);
    // A remote that is gone.
    const gone = await servedLayer(f.admin, [await wmsDepot([{ tms_url: `http://127.0.0.1:9/ows?LAYERS=data` }])], {
      type: 'external_map',
    });
    assert.match((await exception(getMap(gone))).text, /cannot be reached/);
  });

  // A tile over the parcels: WebMercatorQuad 15/10982/17013 (about 6.910–6.921°E, 50.910–50.917°N) and its neighbour east.
  const Z = 15;
  const ROW = 10982;
  const COL = 17013;

  it('serves WMTS tiles of an external_map from a remote WMTS template and from a remote WMS', async () => {
    const template = `http://127.0.0.1:${port}/tiles/polygon/{TileMatrix}/{TileRow}/{TileCol}.png?token=${TOKEN}`;
    const fromWmts = await servedLayer(f.admin, [await wmsDepot([])], { type: 'external_map' });
    const wmtsDepot = await newDepot(f.admin, 'wmts');
    const { moment_id } = await f.access.write(f.adminUser, wmtsDepot.id, [{ tms_url: template, bbox: [0, 0, 0, 0] }], {
      message: 'remote',
    });
    expectStatus(await f.admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    const layer = await servedLayer(f.admin, [wmtsDepot], { type: 'external_map' });
    const expected = (await cgi(remoteMap('polygon'), mercatorGetMap(Z, ROW, COL + 1))).body;
    for (const col of [COL, COL + 1]) {
      const res = await raw(`/services/wmts/${layer.slug}/WebMercatorQuad/${Z}/${ROW}/${col}.png`);
      assert.equal(res.status, 200);
      assert.equal(res.type, 'image/png');
      hidesRemote(res);
      if (col === COL + 1) assert.ok(await samePixels(res.body, expected), 'the remote WMTS tile');
    }
    const seen = remote.seen.filter((s) => s.path.startsWith('/tiles/polygon/')).map((s) => s.path);
    assert.deepEqual(seen.slice(-2), [`/tiles/polygon/${Z}/${ROW}/${COL}.png`, `/tiles/polygon/${Z}/${ROW}/${COL + 1}.png`]);
    // A WMS source gives the tile's box as GetMap (KVP GetTile through Werkbank), and a layer without sources a blank tile.
    const wmsLayer = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], { type: 'mapproxy' });
    const kvp = (l: Layer) =>
      `/services/wmts/${l.slug}?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${l.slug}&STYLE=default&FORMAT=image/png&TILEMATRIXSET=WebMercatorQuad&TILEMATRIX=${Z}&TILEROW=${ROW}&TILECOL=${COL + 1}`;
    const first = await raw(kvp(wmsLayer));
    assert.equal(first.status, 200);
    assert.ok(await samePixels(first.body, expected), 'MapServer GetMap of the tile box');
    hidesRemote(first);
    const asked = remote.count('/ows/polygon');
    const again = await raw(kvp(wmsLayer));
    assert.equal(again.status, 200);
    assert.equal(remote.count('/ows/polygon'), asked, 'the mapproxy tile came from the cache');
    assert.ok(first.body.equals(again.body));
    const blank = await pixels((await raw(kvp(fromWmts))).body);
    assert.ok(
      blank.data.every((v, i) => i % 4 !== 3 || v === 0),
      'no source: a transparent tile',
    );
  });

  it('hides an internal external_map from anonymous callers exactly like a missing one', async () => {
    const reader = await f.t.user();
    const layer = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], {
      type: 'external_map',
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const before = remote.count('/ows/polygon');
    const hidden = await exception(getMap(layer));
    const missing = await exception(`/services/wms/no_such_layer?SERVICE=WMS&${query}&LAYERS=no_such_layer`);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.text, missing.text);
    assert.equal(remote.count('/ows/polygon'), before, 'the remote was not asked');
    const res = await reader.client.get(getMap(layer));
    assert.equal(res.status, 200);
  });

  /** A GetFeatureInfo at the first parcel's middle (6.905°E, 50.905°N), where also the first tree stands. */
  const infoQuery = (layer: Layer, format: string, name = layer.slug) => {
    const i = Math.round(((6.905 - W) / (E - W)) * WIDTH);
    const j = Math.round(((N - 50.905) / (N - S)) * HEIGHT);
    return `/services/wms/${layer.slug}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetFeatureInfo&LAYERS=${name}&QUERY_LAYERS=${name}&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&I=${i}&J=${j}&INFO_FORMAT=${format}&FEATURE_COUNT=5`;
  };

  it('cascades GetFeatureInfo to the remote WMS when its capabilities call the layer queryable', async () => {
    const layer = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], { type: 'external_map' });
    const caps = (await raw(`/services/wms/${layer.slug}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`)).body.toString();
    assert.match(caps, new RegExp(`<Layer queryable="1"><Name>${layer.slug}</Name>`));
    // GML: MapServer's own answer, passed on.
    const gml = await raw(infoQuery(layer, 'application/vnd.ogc.gml'));
    assert.equal(gml.status, 200);
    assert.match(gml.type, /application\/vnd\.ogc\.gml/);
    assert.match(gml.body.toString(), /<data_feature>.*<nr>1<\/nr>.*<name>P1<\/name>/s);
    hidesRemote(gml);
    const seen = remote.seen.filter((x) => x.path === '/ows/polygon' && x.query.get('REQUEST') === 'GetFeatureInfo').pop();
    assert.equal(seen?.query.get('QUERY_LAYERS'), 'data');
    assert.equal(seen?.query.get('token'), TOKEN);
    assert.match(seen?.authorization ?? '', /^Basic /);
    // JSON: the remote offers GML only; its features come as GeoJSON without geometry.
    const json = JSON.parse((await raw(infoQuery(layer, 'application/json'))).body.toString()) as {
      features: Array<{ properties: Record<string, unknown>; bbox: number[] }>;
    };
    assert.deepEqual(
      json.features.map((x) => [x.properties.name, x.properties.art, x.bbox]),
      [['P1', 'Wiese', [6.9, 50.9, 6.91, 50.91]]],
    );
    // HTML: the remote's text/plain answer as text, in a page that may run nothing.
    const html = await raw(infoQuery(layer, 'text/html'));
    assert.match(html.body.toString(), /<pre>[^<]*P1/);
    assert.match(html.headers, /content-security-policy: default-src 'none'/);
    hidesRemote(html);
  });

  it('does not ask a remote whose layer is not queryable, and says so in the capabilities', async () => {
    const layer = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('point') }])], { type: 'mapproxy' });
    const caps = (await raw(`/services/wms/${layer.slug}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`)).body.toString();
    assert.match(caps, new RegExp(`<Layer queryable="0"><Name>${layer.slug}</Name>`));
    const asked = remote.seen.filter((x) => x.query.get('REQUEST') === 'GetFeatureInfo').length;
    const json = JSON.parse((await raw(infoQuery(layer, 'application/json'))).body.toString()) as { features: unknown[] };
    assert.deepEqual(json.features, []);
    assert.equal(remote.seen.filter((x) => x.query.get('REQUEST') === 'GetFeatureInfo').length, asked);
  });

  it('gives the remote legend (GetLegendGraphic of the remote), kept in the mapproxy cache', async () => {
    const legendOf = async (map: string) => {
      const res = await fetch(
        `${remote.base}/ows/${map}?direct=1&token=${TOKEN}&SERVICE=WMS&VERSION=1.3.0&REQUEST=GetLegendGraphic&LAYER=data&FORMAT=image/png&SLD_VERSION=1.1.0`,
        { headers: { Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` } },
      );
      return Buffer.from(await res.arrayBuffer());
    };
    const layer = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], { type: 'mapproxy' });
    const caps = (await raw(`/services/wms/${layer.slug}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`)).body.toString();
    assert.match(caps, /<LegendURL width="200" height="20">/);
    const path = `/services/wms/${layer.slug}?SERVICE=WMS&REQUEST=GetLegendGraphic&LAYER=${layer.slug}&FORMAT=image/png`;
    const first = await raw(path);
    assert.equal(first.status, 200);
    assert.equal(first.type, 'image/png');
    assert.ok(await samePixels(first.body, await legendOf('polygon')), "MapServer's legend");
    hidesRemote(first);
    const asked = remote.count('/ows/polygon');
    const again = await raw(path);
    assert.ok(again.body.equals(first.body));
    assert.equal(remote.count('/ows/polygon'), asked, 'the second legend came from the cache');
    // An external_map asks every time.
    const live = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], { type: 'external_map' });
    const livePath = `/services/wms/${live.slug}?SERVICE=WMS&REQUEST=GetLegendGraphic&LAYER=${live.slug}&FORMAT=image/png`;
    await raw(livePath);
    const before = remote.count('/ows/polygon');
    const second = await raw(livePath);
    assert.match(second.headers, /cache-control: no-store/);
    assert.equal(remote.count('/ows/polygon'), before + 1);
  });

  it('draws, queries and legends an external_map member of a metalayer through the proxy path', async () => {
    const trees = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('point') }])], { type: 'external_map' });
    const parcels = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], { type: 'mapproxy' });
    const meta = await metalayerOf([trees, parcels]);
    const res = await raw(getMap(meta));
    assert.equal(res.status, 200);
    assert.match(res.headers, /cache-control: no-store/, 'an external_map member: nothing is kept');
    hidesRemote(res);
    const canvas = createCanvas(WIDTH, HEIGHT);
    const g = canvas.getContext('2d');
    g.drawImage(await loadImage(await direct('polygon')), 0, 0);
    g.drawImage(await loadImage(await direct('point')), 0, 0);
    const ours = await pixels(res.body);
    const theirs = await pixels(canvas.encodeSync('png'));
    let differ = 0;
    for (let i = 0; i < ours.data.length; i++) if (Math.abs(ours.data[i] - theirs.data[i]) > 2) differ++;
    assert.equal(differ, 0, `${differ} channel values differ`);
    // The capabilities: the parcels queryable, the trees not; GetFeatureInfo of the group asks the parcels' remote.
    const caps = (await raw(`/services/wms/${meta.slug}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`)).body.toString();
    assert.match(caps, new RegExp(`<Layer queryable="0"><Name>${trees.slug}</Name>`));
    assert.match(caps, new RegExp(`<Layer queryable="1"><Name>${parcels.slug}</Name>`));
    const json = JSON.parse((await raw(infoQuery(meta, 'application/json'))).body.toString()) as {
      features: Array<{ layer: string; properties: Record<string, unknown> }>;
    };
    assert.deepEqual(
      json.features.map((x) => [x.layer, x.properties.name]),
      [[parcels.slug, 'P1']],
    );
    // The legends of both remotes, stacked under their titles.
    const legend = await raw(
      `/services/wms/${meta.slug}?SERVICE=WMS&REQUEST=GetLegendGraphic&LAYER=${meta.slug}&FORMAT=image/png`,
    );
    assert.equal(legend.status, 200);
    assert.ok((await pixels(legend.body)).height > 40);
    hidesRemote(legend);
    // WMTS: the composite tile, not kept.
    const tile = await raw(`/services/wmts/${meta.slug}/WebMercatorQuad/15/10982/17014.png`);
    assert.equal(tile.status, 200);
    assert.equal(tile.type, 'image/png');
    hidesRemote(tile);
  });

  it('draws a metalayer without a member whose remote fails, and keeps that map and tile nowhere', async () => {
    const parcels = await servedLayer(f.admin, [await wmsDepot([{ tms_url: address('polygon') }])], { type: 'mapproxy' });
    const failing = await wmsDepot([{ tms_url: `http://127.0.0.1:${port}/broken?LAYERS=data` }]);
    const broken = await servedLayer(f.admin, [failing], { type: 'mapproxy' });
    const meta = await metalayerOf([broken, parcels]);
    const res = await raw(getMap(meta));
    assert.equal(res.status, 200);
    assert.match(res.headers, /cache-control: no-store/);
    assert.ok(await samePixels(res.body, await direct('polygon')), 'the parcels, drawn without the failed member');
    hidesRemote(res);
    // Alone, the failed member still says what went wrong.
    assert.equal((await exception(getMap(broken))).status, 502);
    // A WMTS tile of the group: served twice from the remote, never from the cache (no row recorded).
    const path = `/services/wmts/${meta.slug}/WebMercatorQuad/15/10982/17014.png`;
    for (const tile of [await raw(path), await raw(path)]) {
      assert.equal(tile.status, 200);
      assert.match(tile.headers, /cache-control: no-store/);
      assert.match(tile.headers, /x-tile-cache: miss/);
    }
    const rows = `SELECT 1 FROM services_tile_cache WHERE layer_id = $1`;
    assert.deepEqual((await tilesRecorded(f), await f.t.server.db.dataSource.query(rows, [meta.id])), []);
  });
});
