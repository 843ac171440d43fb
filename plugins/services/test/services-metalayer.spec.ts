import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { expectStatus, userUri } from '@werkbank/testing/node';
import { newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approveAndHear, approvedDepot, servedLayer, servicesServer, type ServicesFixture } from './services-support';
import { parcelsGeojson, pixels, pointsGeojson, streetsGeojson, PARCELS, STREETS, TREES, WINDOW } from './wms-support';

const run = async (cmd: string, args: string[]) => (await promisify(execFile)(cmd, args, { encoding: 'utf8' })).stdout;

const [W, S, E, N] = WINDOW;
const WIDTH = 400;
const HEIGHT = 275;

/**
 * Metalayers in the services (decision 0084): a named WMS group of the members the caller may
 * read, drawn bottom to top into one map, queried and legended member by member, a WMTS layer of
 * composite tiles, and no feature type in WFS — read by OWSLib and GDAL.
 */
describe('services: a metalayer is a WMS group and a WMTS layer of its members', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let parcels: Layer;
  let streets: Layer;
  let trees: Layer;
  let meta: Layer;
  let stack: Depot;

  const raw = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${f.t.url}${path}`, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      headers: res.headers,
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const query = (layers: string) =>
    `SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=${layers}&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png&TRANSPARENT=TRUE`;
  const getMap = (at: Layer, layers = at.slug) => `/services/wms/${at.slug}?${query(layers)}`;

  /** A depot of layer datums naming `layers` (top first), its moment approved. */
  const layerDepot = async (layers: Layer[]): Promise<Depot> => {
    const depot = await newDepot(f.admin, 'layer');
    const { moment_id } = await f.access.write(
      f.adminUser,
      depot.id,
      layers.map((l) => ({ value: l.resource_uri })),
      { message: 'stack' },
    );
    expectStatus(await f.admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    return depot;
  };

  /** The images drawn over each other, first at the bottom, as Werkbank's stack does. */
  const stacked = async (images: Buffer[]) => {
    const canvas = createCanvas(WIDTH, HEIGHT);
    const g = canvas.getContext('2d');
    for (const image of images) g.drawImage(await loadImage(image), 0, 0);
    return pixels(canvas.encodeSync('png'));
  };
  const differing = (a: { data: Uint8ClampedArray }, b: { data: Uint8ClampedArray }) => {
    let n = 0;
    for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i] - b.data[i]) > 2) n++;
    return n;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-meta-'));
    parcels = await servedLayer(f.admin, [await approvedDepot(f, parcelsGeojson(dir))], { name: 'Flurstücke', style: PARCELS });
    streets = await servedLayer(f.admin, [await approvedDepot(f, streetsGeojson(dir))], { name: 'Straßen', style: STREETS });
    trees = await servedLayer(f.admin, [await approvedDepot(f, pointsGeojson(dir))], { name: 'Bäume', style: TREES });
    // The stack, top first: trees over streets over parcels.
    stack = await layerDepot([trees, streets, parcels]);
    meta = await servedLayer(f.admin, [stack], { name: 'Stadtplan', type: 'metalayer' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('draws the members bottom to top into one map, each with its own style', async () => {
    const res = await raw(getMap(meta));
    assert.equal(res.status, 200);
    assert.equal(res.type, 'image/png');
    const parts = [];
    for (const l of [parcels, streets, trees]) parts.push((await raw(getMap(l))).body);
    assert.equal(differing(await pixels(res.body), await stacked(parts)), 0, 'the members drawn parcels first, trees last');
    // A member by its own name at the metalayer's address is that member alone.
    const one = await raw(getMap(meta, streets.slug));
    assert.equal(differing(await pixels(one.body), await pixels(parts[1])), 0);
    // LAYERS lists layers bottom first, as in any WMS.
    const two = await raw(getMap(meta, `${trees.slug},${parcels.slug}`));
    assert.equal(differing(await pixels(two.body), await stacked([parts[2], parts[0]])), 0);
    // JPEG on a white background.
    const jpeg = await raw(`${getMap(meta).replace('FORMAT=image/png', 'FORMAT=image/jpeg')}`);
    assert.equal(jpeg.type, 'image/jpeg');
    // A name outside the stack is LayerNotDefined.
    const wrong = await raw(getMap(meta, 'nirgends'));
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.toString(), /LayerNotDefined/);
  });

  it('is read by OWSLib: a named group whose children are the members, in the order of the stack; getmap of the group', async () => {
    const out = await run('/usr/bin/python3', [
      '-c',
      `
import sys, json
from owslib.wms import WebMapService
res = {}
for v in ['1.3.0', '1.1.1']:
    w = WebMapService(sys.argv[1], version=v)
    group = w[sys.argv[2]]
    res[v] = {'title': group.title, 'children': [c.name for c in group.children], 'queryable': [c.queryable for c in group.children],
              'parents': [w[c.name].parent.name for c in group.children], 'legend': group.styles['default']['legend'],
              'bbox': group.boundingBoxWGS84}
    img = w.getmap(layers=[sys.argv[2]], styles=[''], srs='EPSG:4326', bbox=(${W}, ${S}, ${E}, ${N}), size=(${WIDTH}, ${HEIGHT}), format='image/png', transparent=True)
    res[v]['png'] = img.read().hex()
print(json.dumps(res))
`,
      `${f.t.url}/services/wms/${meta.slug}`,
      meta.slug,
    ]);
    const res = JSON.parse(out) as Record<
      string,
      { title: string; children: string[]; queryable: number[]; parents: string[]; legend: string; bbox: number[]; png: string }
    >;
    const direct = await pixels((await raw(getMap(meta))).body);
    for (const v of ['1.3.0', '1.1.1']) {
      const r = res[v];
      assert.equal(r.title, 'Stadtplan');
      assert.deepEqual(r.children, [trees.slug, streets.slug, parcels.slug]);
      assert.deepEqual(r.parents, [meta.slug, meta.slug, meta.slug]);
      assert.deepEqual(r.queryable, [1, 1, 1]);
      assert.match(r.legend, new RegExp(`REQUEST=GetLegendGraphic.*LAYER=${meta.slug}`));
      assert.deepEqual(
        r.bbox.map((x) => Math.round(x * 1000) / 1000),
        [6.9, 50.9, 6.97, 50.947],
      );
      assert.equal(differing(await pixels(Buffer.from(r.png, 'hex')), direct), 0, `${v}: OWSLib's map is the composite`);
    }
  });

  it('is read by GDAL: the group and its members are subdatasets, and gdal_translate fetches the composite', async () => {
    const caps = await run('gdalinfo', [
      `WMS:${f.t.url}/services/wms/${meta.slug}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities`,
    ]);
    for (const l of [meta, trees, streets, parcels])
      assert.match(caps, new RegExp(`SUBDATASET_\\d+_NAME=WMS:.*LAYERS=${l.slug}`));
    assert.match(caps, /SUBDATASET_1_DESC=Stadtplan/);
    // GDAL's WMS driver asked for exactly the map's box and size (one block); WMS 1.3.0 with EPSG:4326 is latitude first.
    const xml = join(dir, 'meta.xml');
    writeFileSync(
      xml,
      `<GDAL_WMS><Service name="WMS"><Version>1.3.0</Version><ServerUrl>${f.t.url}/services/wms/${meta.slug}?</ServerUrl>` +
        `<CRS>EPSG:4326</CRS><BBoxOrder>yxYX</BBoxOrder><ImageFormat>image/png</ImageFormat><Transparent>TRUE</Transparent><Layers>${meta.slug}</Layers></Service>` +
        `<DataWindow><UpperLeftX>${W}</UpperLeftX><UpperLeftY>${N}</UpperLeftY><LowerRightX>${E}</LowerRightX><LowerRightY>${S}</LowerRightY>` +
        `<SizeX>${WIDTH}</SizeX><SizeY>${HEIGHT}</SizeY></DataWindow><BandsCount>4</BandsCount>` +
        `<BlockSizeX>${WIDTH}</BlockSizeX><BlockSizeY>${HEIGHT}</BlockSizeY></GDAL_WMS>`,
    );
    const out = join(dir, 'meta.png');
    await run('gdal_translate', ['-q', '-of', 'PNG', xml, out]);
    const gdal = await pixels(readFileSync(out));
    const direct = await pixels((await raw(getMap(meta))).body);
    assert.equal(differing(gdal, direct), 0, 'GDAL reads the composite map');
  });

  it('queries every member with GetFeatureInfo and stacks their legends', async () => {
    // The first tree (6.905°E, 50.905°N) stands on the first parcel.
    const i = Math.round(((6.905 - W) / (E - W)) * WIDTH);
    const j = Math.round(((N - 50.905) / (N - S)) * HEIGHT);
    const info = (format: string) =>
      `/services/wms/${meta.slug}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetFeatureInfo&LAYERS=${meta.slug}&QUERY_LAYERS=${meta.slug}&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&I=${i}&J=${j}&INFO_FORMAT=${format}`;
    const json = await raw(info('application/json'));
    assert.equal(json.status, 200);
    const fc = JSON.parse(json.body.toString()) as { features: Array<{ layer: string; properties: Record<string, unknown> }> };
    assert.deepEqual(
      fc.features.map((x) => [x.layer, x.properties.nr]),
      [
        [trees.slug, 1],
        [parcels.slug, 1],
      ],
      'the tree over the parcel, top first',
    );
    const gml = (await raw(info('application/vnd.ogc.gml'))).body.toString();
    assert.match(gml, new RegExp(`<${trees.slug}_layer>.*</${trees.slug}_layer><${parcels.slug}_layer>`));
    const html = await raw(info('text/html'));
    assert.match(html.body.toString(), /<h1>Bäume<\/h1>.*<h1>Flurstücke<\/h1>/s);
    assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    // The legends one below the other: a title line and the rules of each member.
    const legend = await raw(
      `/services/wms/${meta.slug}?SERVICE=WMS&REQUEST=GetLegendGraphic&LAYER=${meta.slug}&FORMAT=image/png`,
    );
    assert.equal(legend.status, 200);
    const image = await pixels(legend.body);
    const rows = [TREES, STREETS, PARCELS].reduce((n, s) => n + 1 + s.rules.length, 0);
    assert.equal(image.height, rows * 20);
    // A member's own legend at the metalayer's address.
    const one = await pixels(
      (await raw(`/services/wms/${meta.slug}?SERVICE=WMS&REQUEST=GetLegendGraphic&LAYER=${trees.slug}&FORMAT=image/png`)).body,
    );
    assert.equal(one.height, TREES.rules.length * 20);
  });

  it('leaves out members the caller may not read, and hides an internal metalayer from anonymous callers', async () => {
    const reader = await f.t.user();
    const hidden = await servedLayer(f.admin, [await approvedDepot(f, pointsGeojson(dir))], {
      name: 'Intern',
      style: TREES,
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const open = await servedLayer(f.admin, [await layerDepot([hidden, parcels])], { type: 'metalayer' });
    const anonymous = (await raw(`/services/wms/${open.slug}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`)).body.toString();
    assert.ok(!anonymous.includes(`<Name>${hidden.slug}</Name>`), 'anonymous callers do not see the internal member');
    assert.ok(anonymous.includes(`<Name>${parcels.slug}</Name>`));
    // Its map is the parcels alone; asking for the hidden member by name is LayerNotDefined.
    assert.equal(differing(await pixels((await raw(getMap(open))).body), await pixels((await raw(getMap(parcels))).body)), 0);
    assert.match((await raw(getMap(open, hidden.slug))).body.toString(), /LayerNotDefined/);
    // The reader sees it.
    const mine = await reader.client.get(`/services/wms/${open.slug}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`);
    assert.equal(mine.status, 200);
    assert.match(String(mine.body), new RegExp(`<Name>${hidden.slug}</Name>`));
    // An internal metalayer is 404 for anonymous callers, like one that does not exist.
    const internal = await servedLayer(f.admin, [await layerDepot([parcels])], {
      type: 'metalayer',
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const refused = await raw(getMap(internal));
    const missing = await raw(`/services/wms/no_such_layer?${query('no_such_layer')}`);
    assert.equal(refused.status, 404);
    assert.equal(refused.body.toString(), missing.body.toString());
    assert.equal((await raw(`/services/wmts/${internal.slug}/1.0.0/WMTSCapabilities.xml`)).status, 404);
    expectStatus(await reader.client.get(getMap(internal)), 200);
  });

  it('pins the members: a newly approved moment of a member is a new publication of the metalayer', async () => {
    const depot = await approvedDepot(f, pointsGeojson(dir));
    const member = await servedLayer(f.admin, [depot], { style: TREES });
    const m = await servedLayer(f.admin, [await layerDepot([member])], { type: 'metalayer' });
    const first = await raw(getMap(m));
    const etag = first.headers.get('etag');
    assert.ok(etag);
    assert.equal((await raw(getMap(m), { 'If-None-Match': etag })).status, 304);
    const { moment_id } = await f.access.write(f.adminUser, depot.id, [], { message: 'none' });
    await approveAndHear(f, moment_id);
    const second = await raw(getMap(m), { 'If-None-Match': etag });
    assert.equal(second.status, 200);
    assert.notEqual(second.headers.get('etag'), etag);
  });

  it('offers the metalayer as one WMTS layer of composite tiles, and as no WFS feature type', async () => {
    const caps = (await raw(`/services/wmts/${meta.slug}/1.0.0/WMTSCapabilities.xml`)).body.toString();
    assert.match(caps, new RegExp(`<ows:Identifier>${meta.slug}</ows:Identifier>`));
    assert.match(caps, /<ows:LowerCorner>6\.9 50\.9<\/ows:LowerCorner>/);
    // WebMercatorQuad 15/10982/17013 lies over the parcels, streets and trees.
    const tile = (l: Layer) => `/services/wmts/${l.slug}/WebMercatorQuad/15/10982/17013.png`;
    const first = await raw(tile(meta));
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-tile-cache'), 'miss');
    const canvas = createCanvas(256, 256);
    const g = canvas.getContext('2d');
    for (const l of [parcels, streets, trees]) g.drawImage(await loadImage((await raw(tile(l))).body), 0, 0);
    assert.equal(differing(await pixels(first.body), await pixels(canvas.encodeSync('png'))), 0);
    assert.equal((await raw(tile(meta))).headers.get('x-tile-cache'), 'hit');
    // WFS and GeoJSON: not a feature type; the message says where its layers are.
    const wfs = await raw(`/services/wfs/${meta.slug}?SERVICE=WFS&REQUEST=GetCapabilities`, { 'accept-language': 'de' });
    assert.equal(wfs.status, 404);
    assert.match(wfs.body.toString(), /ist ein Metalayer/);
    const geojson = await raw(`/services/geojson/${meta.slug}`);
    assert.equal(geojson.status, 404);
    const ogc = await raw(`/services/ogc/collections?f=json`);
    assert.ok(!ogc.body.toString().includes(`"id":"${meta.slug}"`));
  });
});
