import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { BlobStore, MessageBus } from '@werkbank/sdk/node';
import { expectStatus, userUri, type Client } from '@werkbank/testing/node';
import { addDatum, type Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import {
  approvedDepot,
  servedLayer,
  servicesServer,
  tilesRecorded,
  treesGeojson,
  withBlobTiles,
  type ServicesFixture,
} from './services-support';

/** GDAL calls the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[]) => {
  try {
    return (await promisify(execFile)(cmd, args, { encoding: 'utf8' })).stdout;
  } catch (e) {
    throw new Error(`${cmd} failed: ${(e as { stderr?: string }).stderr ?? String(e)} ${(e as { stdout?: string }).stdout}`, {
      cause: e,
    });
  }
};

interface Source {
  features: Array<{ geometry: { coordinates: [number, number] }; properties: { id: number; art: string; hoehe: number } }>;
}

interface Decoded {
  layer: string;
  type: number;
  properties: Record<string, unknown>;
  x: number;
  y: number;
}

/** Web Mercator world units (0–1), as geojson-vt projects. */
function world(lon: number, lat: number): [number, number] {
  const s = Math.sin((lat * Math.PI) / 180);
  return [lon / 360 + 0.5, 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI];
}

/** Tile units of a position in tile z/x/y (extent 4096). */
function tileUnits(lon: number, lat: number, z: number, x: number, y: number): [number, number] {
  const [u, v] = world(lon, lat);
  return [(u * 2 ** z - x) * 4096, (v * 2 ** z - y) * 4096];
}

function decode(bytes: Uint8Array): Decoded[] {
  const vt = new VectorTile(new PbfReader(bytes));
  const out: Decoded[] = [];
  for (const [name, layer] of Object.entries(vt.layers))
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      const [[p]] = f.loadGeometry();
      out.push({ layer: name, type: f.type, properties: { ...f.properties }, x: p.x, y: p.y });
    }
  return out;
}

/**
 * OGC API – Tiles with Mapbox Vector Tiles (issue 17, decision 0083): the tilesets, the tileset's
 * metadata and WebMercatorQuad, tiles cut from the layer's approved moments and decoded with
 * @mapbox/vector-tile and GDAL's MVT driver, cached per publication in the blob store, and OGC API
 * errors for bad addresses.
 */
describe('services: OGC API – Tiles serves vector tiles of a layer, cached per moment', function () {
  this.timeout(120_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let trees: Depot;
  let layer: Layer;
  let source: Source;

  /** A tile's status, headers and bytes (anonymous unless `c` is given). */
  const fetchTile = async (name: string, z: number, y: number, x: number, c?: Client, query = '') => {
    const headers: Record<string, string> = {};
    if (c?.cookies.size) headers.cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${f.t.url}/services/ogc/${name}/tiles/WebMercatorQuad/${z}/${y}/${x}${query}`, { headers });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  /** The cached tiles of a layer, once the cache writes of the answers so far are done. */
  const cacheRows = async (layerId: number) =>
    (await tilesRecorded(f),
    await f.t.server.db.dataSource.query(
      `SELECT publication, z, x, y, blob, bytes FROM services_tile_cache
       WHERE layer_id = $1 AND tileset = 'ogc/WebMercatorQuad/mvt' ORDER BY publication, z, x, y`,
      [layerId],
    )) as { publication: string; z: number; x: number; y: number; blob: string | null; bytes: Uint8Array | null }[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-vtiles-'));
    const path = treesGeojson(dir);
    source = JSON.parse(readFileSync(path, 'utf8')) as Source;
    trees = await approvedDepot(f, path);
    layer = await servedLayer(f.admin, [trees]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the tileset and describes it: WebMercatorQuad, vector, the tile template and the attributes with types', async () => {
    const c = f.t.client();
    const list = expectStatus(await c.get(`/services/ogc/${layer.slug}/tiles`), 200);
    assert.equal(list.tilesets.length, 1);
    assert.equal(list.tilesets[0].dataType, 'vector');
    assert.equal(list.tilesets[0].tileMatrixSetURI, 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad');
    const self = list.tilesets[0].links.find((l: { rel: string }) => l.rel === 'self').href as string;
    assert.equal(self, `${f.t.url}/services/ogc/${layer.slug}/tiles/WebMercatorQuad`);

    const tileset = expectStatus(await c.get(new URL(self).pathname), 200);
    assert.equal(tileset.dataType, 'vector');
    assert.equal(tileset.crs, 'http://www.opengis.net/def/crs/EPSG/0/3857');
    const item = tileset.links.find((l: { rel: string }) => l.rel === 'item');
    assert.equal(item.type, 'application/vnd.mapbox-vector-tile');
    assert.equal(item.templated, true);
    assert.equal(item.href, `${self}/{tileMatrix}/{tileRow}/{tileCol}`);
    const scheme = tileset.links.find((l: { rel: string }) => l.rel === 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme');
    assert.equal(scheme.href, `${f.t.url}/services/ogc/tileMatrixSets/WebMercatorQuad`);
    assert.equal(tileset.layers.length, 1);
    assert.equal(tileset.layers[0].id, layer.slug);
    assert.deepEqual(tileset.layers[0].propertiesSchema.properties, {
      id: { type: 'integer' },
      art: { type: 'string' },
      hoehe: { type: 'number' },
    });

    const tms = expectStatus(await c.get(new URL(scheme.href).pathname), 200);
    assert.equal(tms.id, 'WebMercatorQuad');
    assert.equal(tms.crs, 'http://www.opengis.net/def/crs/EPSG/0/3857');
    assert.equal(tms.tileMatrices.length, 25);
    assert.deepEqual(tms.tileMatrices[0].pointOfOrigin, [-20037508.3427892, 20037508.3427892]);
    assert.equal(tms.tileMatrices[12].matrixWidth, 4096);
    assert.ok(Math.abs(tms.tileMatrices[0].scaleDenominator - 559082264.0287178) < 1e-3);
  });

  it('cuts a tile with the features of the tile and its buffer, their attributes and positions as GDAL wrote them', async () => {
    const [z, x, y] = [13, 4252, 2748];
    const tile = await fetchTile(layer.slug, z, y, x);
    assert.equal(tile.status, 200);
    assert.equal(tile.headers.get('content-type'), 'application/vnd.mapbox-vector-tile');
    const got = decode(tile.bytes);
    // The trees whose point lies in the tile or in its buffer of 64 units, and nothing else.
    const expected = source.features.filter((s) => {
      const [u, v] = tileUnits(...s.geometry.coordinates, z, x, y);
      return u >= -64 && u <= 4160 && v >= -64 && v <= 4160;
    });
    assert.ok(expected.length > 10 && expected.length < 400, `${expected.length} trees in the tile`);
    assert.equal(got.length, expected.length);
    const byId = new Map(got.map((g) => [g.properties.id, g]));
    for (const s of expected) {
      const g = byId.get(s.properties.id)!;
      assert.ok(g, `tree ${s.properties.id} is in the tile`);
      assert.equal(g.layer, layer.slug);
      assert.equal(g.type, 1);
      assert.deepEqual(g.properties, s.properties);
      const [u, v] = tileUnits(...s.geometry.coordinates, z, x, y);
      assert.ok(Math.abs(g.x - u) <= 0.5 && Math.abs(g.y - v) <= 0.5, `tree ${s.properties.id}: ${g.x},${g.y} vs ${u},${v}`);
    }
    // Some trees lie in the buffer: their positions are outside 0–4096.
    assert.ok(got.some((g) => g.x < 0 || g.x > 4096 || g.y < 0 || g.y > 4096));
  });

  it('is read by GDAL: its MVT driver opens a served tile over HTTP and from a file, with the fields and positions', async () => {
    const [z, x, y] = [8, 132, 85];
    const url = `${f.t.url}/services/ogc/${layer.slug}/tiles/WebMercatorQuad/${z}/${y}/${x}`;
    const oo = ['-oo', `Z=${z}`, '-oo', `X=${x}`, '-oo', `Y=${y}`];
    // A query keeps GDAL from taking the address for a folder of z/x/y tiles and reading neighbours.
    const remote = await run('ogrinfo', ['-ro', '-al', '-so', ...oo, `/vsicurl/${url}?f=mvt`]);
    assert.match(remote, new RegExp(`Layer name: ${layer.slug}`));
    assert.match(remote, /Feature Count: 400/);
    const tileDir = join(dir, 'gdal');
    mkdirSync(tileDir, { recursive: true });
    const file = join(tileDir, 'tile.mvt');
    writeFileSync(file, (await fetchTile(layer.slug, z, y, x)).bytes);
    const info = await run('ogrinfo', ['-ro', '-al', ...oo, '-where', 'id = 21', file]);
    assert.match(info, /id \(Integer\) = 21/);
    assert.match(info, /art \(String\) = Eiche/);
    assert.match(info, /hoehe \(Real\) = 6\.5/);
    // Tree 21 at 6.81° E, 50.81° N in EPSG:3857, within the grid of an z 8 tile (611.5 m / 4096).
    const [mx, my] = /POINT \(([\d.]+) ([\d.]+)\)/.exec(info)!.slice(1).map(Number);
    const [ex, ey] = [(6.81 * 20037508.3427892) / 180, (world(6.81, 50.81)[1] - 0.5) * -2 * 20037508.3427892];
    assert.ok(Math.abs(mx - ex) < 40 && Math.abs(my - ey) < 40, `${mx} ${my} vs ${ex} ${ey}`);
  });

  it('serves a tile again from the cache: a row holding its bytes, the same bytes, and 304 for the ETag', async () => {
    const depot = await approvedDepot(f, treesGeojson(dir, 40));
    const l = await servedLayer(f.admin, [depot]);
    const first = await fetchTile(l.slug, 8, 85, 132);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-tile-cache'), 'miss');
    const rows = await cacheRows(l.id);
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0].z, rows[0].x, rows[0].y], [8, 132, 85]);
    assert.equal(rows[0].blob, null, 'a small tile stays out of the blob store');
    assert.deepEqual(new Uint8Array(rows[0].bytes!), first.bytes, 'the row holds the tile');
    const second = await fetchTile(l.slug, 8, 85, 132);
    assert.equal(second.headers.get('x-tile-cache'), 'hit');
    assert.deepEqual(second.bytes, first.bytes);
    assert.equal(second.headers.get('etag'), first.headers.get('etag'));
    assert.match(first.headers.get('cache-control')!, /no-cache/);
    const revalidated = await fetch(`${f.t.url}/services/ogc/${l.slug}/tiles/WebMercatorQuad/8/85/132`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    assert.equal(revalidated.status, 304);
  });

  it('answers 204 for a tile no feature reaches, and caches that too', async () => {
    const depot = await approvedDepot(f, treesGeojson(dir, 5));
    const l = await servedLayer(f.admin, [depot]);
    const empty = await fetchTile(l.slug, 8, 10, 10);
    assert.equal(empty.status, 204);
    assert.equal(empty.bytes.length, 0);
    assert.ok(empty.headers.get('etag'));
    const again = await fetchTile(l.slug, 8, 10, 10);
    assert.equal(again.status, 204);
    assert.equal(again.headers.get('x-tile-cache'), 'hit');
    assert.deepEqual(
      (await cacheRows(l.id)).map((r) => [r.blob, r.bytes]),
      [[null, null]],
    );
  });

  it('serves a newly approved moment at once, drops the older moment’s cached tiles and releases their blobs to the sweep', () =>
    // Large tiles go to the blob store; here every tile does.
    withBlobTiles(f, async () => {
      const depot = await approvedDepot(f, treesGeojson(dir, 20));
      const l = await servedLayer(f.admin, [depot]);
      const before = await fetchTile(l.slug, 8, 85, 132);
      assert.equal(decode(before.bytes).length, 20);
      const [old] = await cacheRows(l.id);
      assert.equal(old.bytes, null);
      assert.ok(old.blob);
      const added = await addDatum(f.admin, depot, {
        feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [6.9, 50.9] }, properties: { id: 99, art: 'Linde' } },
      });
      // A draft is not served, and its preview is cut for its author without touching the cache.
      assert.deepEqual((await fetchTile(l.slug, 8, 85, 132)).bytes, before.bytes);
      const preview = await fetchTile(l.slug, 8, 85, 132, f.admin, `?moment=${added.moment_id}`);
      assert.equal(preview.headers.get('x-tile-cache'), 'miss');
      assert.equal(decode(preview.bytes).length, 21);
      assert.deepEqual(await cacheRows(l.id), [old]);

      // The tile service hears of the approval through the message bus (as every process does) before its next answer.
      const heard = new Promise<void>((resolve) => {
        const sub = f.t.server.kernel.container.get<MessageBus>(MessageBus).subscribe('werkbank_moment_approved', () => {
          sub.dispose();
          resolve();
        });
      });
      expectStatus(await f.admin.post(`/api/v1/moment/${added.moment_id}/approve/`, {}), 200);
      await heard;
      const after = await fetchTile(l.slug, 8, 85, 132);
      assert.equal(after.headers.get('x-tile-cache'), 'miss');
      assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
      const decoded = decode(after.bytes);
      assert.equal(decoded.length, 21);
      assert.ok(decoded.some((d) => d.properties.art === 'Linde'));
      const rows = await cacheRows(l.id);
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].publication, old.publication);

      // The old tile's blob is a sweep candidate; once the grace period has passed the sweep removes it and keeps the new one.
      const db = f.t.server.db.dataSource;
      assert.equal((await db.query(`SELECT 1 FROM werkbank_blob_candidate WHERE hash = $1`, [old.blob])).length, 1);
      await db.query(`UPDATE werkbank_blob_candidate SET since = now() - interval '1 day' WHERE hash = ANY($1)`, [
        [old.blob, rows[0].blob],
      ]);
      await f.t.server.blobSweep.sweep();
      const blobs = f.t.server.kernel.container.get<BlobStore>(BlobStore);
      assert.equal(await blobs.stat(old.blob!), undefined, 'the old tile is gone');
      assert.ok(await blobs.stat(rows[0].blob!), 'the served tile stays');
    }));

  it('drops a deleted layer’s cached tiles of every service and releases their blobs to the sweep', () =>
    withBlobTiles(f, async () => {
      const depot = await approvedDepot(f, treesGeojson(dir, 20));
      const l = await servedLayer(f.admin, [depot]);
      assert.equal((await fetchTile(l.slug, 8, 85, 132)).status, 200);
      const png = await fetch(`${f.t.url}/services/wmts/${l.slug}/WebMercatorQuad/8/85/132.png`);
      assert.equal(png.status, 200);
      await tilesRecorded(f);
      const db = f.t.server.db.dataSource;
      const rows = (await db.query(`SELECT tileset, blob FROM services_tile_cache WHERE layer_id = $1 ORDER BY tileset`, [
        l.id,
      ])) as { tileset: string; blob: string }[];
      assert.deepEqual(
        rows.map((r) => r.tileset),
        ['ogc/WebMercatorQuad/mvt', 'wmts/WebMercatorQuad/png'],
      );
      expectStatus(await f.admin.delete(`/api/v1/layer/${l.id}/`), 204);
      assert.deepEqual(await db.query(`SELECT 1 FROM services_tile_cache WHERE layer_id = $1`, [l.id]), []);
      const released = (await db.query(`SELECT hash FROM werkbank_blob_candidate WHERE hash = ANY($1)`, [
        rows.map((r) => r.blob),
      ])) as { hash: string }[];
      assert.equal(released.length, 2);
      // The layer is gone from the services (tiles follow within the publication memo's 500 ms).
      assert.equal((await fetch(`${f.t.url}/services/geojson/${l.slug}/`)).status, 404);
    }));

  it('answers OGC API errors: 404 outside the matrix set, 400 for a malformed address, 404 for unknown or hidden layers', async () => {
    const c = f.t.client();
    const base = `/services/ogc/${layer.slug}/tiles/WebMercatorQuad`;
    for (const path of [`${base}/25/0/0`, `${base}/3/8/0`, `${base}/3/0/8`]) {
      const res = await c.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'not_found');
      assert.match(res.body.description, /no such tile/);
    }
    const german = await c.get(`${base}/3/0/8`, { headers: { 'accept-language': 'de' } });
    assert.match(german.body.description, /Diese Kachel gibt es nicht/);
    for (const path of [`${base}/x/0/0`, `${base}/3/-1/0`, `${base}/3/0/1.5`]) {
      const res = await c.get(path);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.code, 'invalid_parameter');
      assert.match(res.body.description, /three whole numbers/);
    }
    const otherSet = await c.get(`/services/ogc/${layer.slug}/tiles/WorldCRS84Quad/0/0/0`);
    assert.equal(otherSet.status, 404);
    assert.match(otherSet.body.description, /WebMercatorQuad/);
    assert.equal((await c.get(`/services/ogc/tileMatrixSets/WorldCRS84Quad`)).status, 404);
    for (const path of [`/services/ogc/no_such_layer/tiles`, `/services/ogc/no_such_layer/tiles/WebMercatorQuad/0/0/0`]) {
      const res = await c.get(path);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
      assert.ok(res.body.description);
    }
    const reader = await f.t.user();
    const hidden = await servedLayer(f.admin, [trees], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    assert.equal((await fetchTile(hidden.slug, 8, 85, 132)).status, 404);
    assert.equal((await fetchTile(hidden.slug, 8, 85, 132, reader.client)).status, 200);
  });
});
