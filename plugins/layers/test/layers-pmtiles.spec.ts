import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles } from 'pmtiles';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { adminWithDepotAccess, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { AuthUser } from '@werkbank/sdk/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import type { Layer, TileArchive } from '../src/common/layers-api';
import { newLayer, PLUGINS } from './layers-support';
import { rangeSource, tileFeatures } from './pmtiles-kit';
import { startTestServer } from '@werkbank/testing/node';

/**
 * pmtiles layers (issue 16, decision 0062): tile settings on the layer, the build from real feature
 * depots into a PMTiles v3 archive in the blob store, and the archive read back over the HTTP range
 * endpoint by the `pmtiles` library, its tiles decoded with @mapbox/vector-tile — and by GDAL.
 */
describe('layers: pmtiles layers build a PMTiles archive from their piles', function () {
  this.timeout(120_000);
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;
  let dir: string;
  let trees: Depot;

  /** A feature depot filled from a GeoJSON file that GDAL wrote, its moment approved. */
  async function depotFromGeoJson(path: string): Promise<Depot> {
    const depot = await newDepot(admin, 'feature');
    const fc = JSON.parse(readFileSync(path, 'utf8')) as { features: unknown[] };
    const { moment_id } = await access.write(
      adminUser,
      depot.id,
      fc.features.map((feature) => ({ feature })),
      { message: 'ogr2ogr' },
    );
    expectStatus(await admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    return depot;
  }

  /** The archive of a layer read through `GET {layer}tiles.pmtiles` with byte ranges, as a client does. */
  function archiveOver(client: Client, layer: Layer, ranges: string[] = []): PMTiles {
    const url = `${client.baseUrl}/api/v1/layer/${layer.id}/tiles.pmtiles`;
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return new PMTiles(
      rangeSource(url, async (offset, length) => {
        const res = await fetch(url, { headers: { cookie, range: `bytes=${offset}-${offset + length - 1}` } });
        assert.equal(res.status, 206, await res.clone().text());
        ranges.push(res.headers.get('content-range')!);
        return new Uint8Array(await res.arrayBuffer());
      }),
    );
  }

  const build = async (client: Client, layer: Layer) =>
    expectStatus<{ status: string; tile_archive: TileArchive }>(
      await client.post(`/api/v1/layer/${layer.id}/build_tiles/`, {}),
      200,
    ).tile_archive;

  before(async () => {
    t = await startTestServer({ plugins: PLUGINS });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
    dir = mkdtempSync(join(tmpdir(), 'layers-pmtiles-'));
    // 400 trees on a 20 × 20 grid 0.01° apart over Cologne, written by GDAL from a CSV.
    const rows = ['id,art,hoehe,lon,lat'];
    for (let i = 0; i < 400; i++)
      rows.push(`${i},${i % 2 ? 'Eiche' : 'Buche'},${5 + (i % 20)},${6.8 + (i % 20) * 0.01},${50.8 + Math.floor(i / 20) * 0.01}`);
    writeFileSync(join(dir, 'baeume.csv'), rows.join('\n') + '\n');
    execFileSync('ogr2ogr', [
      '-f',
      'GeoJSON',
      join(dir, 'baeume.geojson'),
      join(dir, 'baeume.csv'),
      '-oo',
      'X_POSSIBLE_NAMES=lon',
      '-oo',
      'Y_POSSIBLE_NAMES=lat',
      '-oo',
      'AUTODETECT_TYPE=YES',
      '-a_srs',
      'EPSG:4326',
      '-select',
      'id,art,hoehe',
      '-lco',
      'RFC7946=YES',
    ]);
    trees = await depotFromGeoJson(join(dir, 'baeume.geojson'));
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps tile settings on pmtiles layers only, storing what differs from the defaults, with reasons in both languages', async () => {
    const layer = await newLayer(admin, { type: 'pmtiles', tile_settings: { max_zoom: 9, min_zoom: 0, no_clipping: false } });
    assert.deepEqual(layer.tile_settings, { max_zoom: 9 });
    assert.equal(layer.tile_archive, null);
    const bad = await admin.patch(layer.resource_uri, { tile_settings: { max_zoom: 30 } });
    assertError(bad, 400, 'invalid_field');
    assert.equal(bad.body.field, 'tile_settings.max_zoom');
    assert.match(bad.body.reason, /0 to 24/);
    const german = await admin.patch(
      layer.resource_uri,
      { tile_settings: { drop_densest_as_needed: true, coalesce_smallest_as_needed: true } },
      {
        headers: { 'accept-language': 'de' },
      },
    );
    assertError(german, 400, 'invalid_field');
    assert.match(german.body.reason, /höchstens eine Art/);
    const feature = await admin.post('/api/v1/layer/', { name: 'f', type: 'feature', tile_settings: { max_zoom: 3 } });
    assertError(feature, 400, 'invalid_field');
    assert.equal(feature.body.field, 'tile_settings');
  });

  it('builds the archive, records its size and time on the layer, and serves it with byte ranges to the pmtiles library', async () => {
    const layer = await newLayer(admin, {
      type: 'pmtiles',
      slug: 'baeume',
      layerpiles: [trees.resource_uri],
      tile_settings: { max_zoom: 8, max_tile_features: 100, drop_densest_as_needed: true },
    });
    assertError(await admin.get(`/api/v1/layer/${layer.id}/tiles.pmtiles`), 404, 'no_tile_archive');
    const archive = await build(admin, layer);
    assert.equal(archive.url, `/api/v1/layer/${layer.id}/tiles.pmtiles`);
    assert.deepEqual([archive.min_zoom, archive.max_zoom, archive.features], [0, 8, 400]);
    assert.ok(archive.dropped > 0, 'the densest trees were left out where tiles held more than 100');
    assert.deepEqual(
      archive.moments.map((m) => m.depot),
      [trees.id],
    );
    const stored = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
    assert.equal(stored.persistent_size, archive.size);
    assert.equal(stored.persistent_size_modified && new Date(stored.persistent_size_modified).toISOString(), archive.built);
    assert.deepEqual(stored.tile_archive, archive);

    const ranges: string[] = [];
    const pm = archiveOver(admin, layer, ranges);
    const header = await pm.getHeader();
    assert.deepEqual([header.specVersion, header.minZoom, header.maxZoom, header.tileType], [3, 0, 8, 1]);
    assert.ok(Math.abs(header.minLon - 6.8) < 1e-6 && Math.abs(header.maxLat - 50.99) < 1e-6);
    const meta = (await pm.getMetadata()) as { vector_layers: Array<{ id: string; fields: Record<string, string> }> };
    assert.deepEqual(
      meta.vector_layers.map((l) => [l.id, l.fields]),
      [['baeume', { id: 'Number', art: 'String', hoehe: 'Number' }]],
    );
    const z0 = (await tileFeatures(pm, 0, 0, 0))!;
    assert.equal(z0.length, 100, 'max_tile_features applied');
    assert.ok(z0.every((f) => f.layer === 'baeume' && f.type === 1 && ['Eiche', 'Buche'].includes(String(f.properties.art))));
    // At zoom 8 the whole grid still lies in one tile, thinned to the limit as well.
    assert.equal((await tileFeatures(pm, 8, 132, 85))!.length, 100);
    assert.equal(await pm.getZxy(9, 264, 171), undefined, 'nothing beyond max_zoom');
    assert.ok(ranges.length >= 3, ranges.join());
    for (const r of ranges) assert.match(r, new RegExp(`^bytes \\d+-\\d+/${archive.size}$`));

    const whole = await fetch(`${admin.baseUrl}${archive.url}`, {
      headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.match(whole.headers.get('content-disposition')!, /baeume\.pmtiles/);
    const bytes = Buffer.from(await whole.arrayBuffer());
    assert.equal(bytes.length, archive.size);
    assert.equal(bytes.subarray(0, 7).toString(), 'PMTiles');
  });

  it('rebuilds with changed settings into a new archive and releases the old one', async () => {
    const layer = await newLayer(admin, { type: 'pmtiles', layerpiles: [trees.resource_uri], tile_settings: { max_zoom: 2 } });
    const first = await build(admin, layer);
    assert.equal(first.dropped, 0);
    const [{ tiles_blob: oldHash }] = (await t.server.db.dataSource.query(`SELECT tiles_blob FROM layers_layer WHERE id = $1`, [
      layer.id,
    ])) as {
      tiles_blob: string;
    }[];
    expectStatus(
      await admin.patch(layer.resource_uri, { tile_settings: { min_zoom: 1, max_zoom: 5, no_duplication: true } }),
      200,
    );
    const second = await build(admin, layer);
    assert.deepEqual([second.min_zoom, second.max_zoom], [1, 5]);
    const pm = archiveOver(admin, layer);
    assert.equal(await pm.getZxy(0, 0, 0), undefined);
    // no_duplication: every tree in exactly one tile per zoom.
    const z5 = [...((await tileFeatures(pm, 5, 16, 10)) ?? []), ...((await tileFeatures(pm, 5, 16, 11)) ?? [])];
    assert.equal(z5.length, 400);
    const candidates = (await t.server.db.dataSource.query(`SELECT hash FROM werkbank_blob_candidate WHERE hash = $1`, [
      oldHash,
    ])) as unknown[];
    assert.equal(candidates.length, 1, 'the old archive is a sweep candidate');
  });

  it('guesses the maximum zoom from the trees’ spacing when asked', async () => {
    const layer = await newLayer(admin, {
      type: 'pmtiles',
      layerpiles: [trees.resource_uri],
      tile_settings: { guess_max_zoom: true },
    });
    const archive = await build(admin, layer);
    // 0.01° apart east–west and 0.0159 Mercator-degrees north–south at 51° N: neighbours along the
    // Hilbert curve lie about 1.3 pixels of a 256-pixel tile apart at zoom 7 (0.01° alone is 0.9 px).
    assert.equal(archive.max_zoom, 7);
    assert.equal(archive.guessed_max_zoom, true);
  });

  it('answers 400 with reasons: no features, a type without tiles, a tile over its limit without a strategy', async () => {
    const empty = await newLayer(admin, { type: 'pmtiles' });
    const none = await admin.post(`/api/v1/layer/${empty.id}/build_tiles/`, {});
    assertError(none, 400, 'no_features');
    assert.match(none.body.reason, /no features/);
    const emptyDepot = await newDepot(admin, 'feature');
    const withEmptyPile = await newLayer(admin, { type: 'pmtiles', layerpiles: [emptyDepot.resource_uri] });
    assertError(await admin.post(`/api/v1/layer/${withEmptyPile.id}/build_tiles/`, {}), 400, 'no_features');
    const feature = await newLayer(admin, { type: 'feature', layerpiles: [trees.resource_uri] });
    assertError(await admin.post(`/api/v1/layer/${feature.id}/build_tiles/`, {}), 400, 'not_pmtiles');
    const strict = await newLayer(admin, {
      type: 'pmtiles',
      layerpiles: [trees.resource_uri],
      tile_settings: { max_tile_features: 50 },
    });
    const over = await admin.post(`/api/v1/layer/${strict.id}/build_tiles/`, {}, { headers: { 'accept-language': 'de' } });
    assertError(over, 400, 'tile_too_large');
    assert.match(over.body.reason, /Kachel 0\/0\/0 enthält 400 Features, mehr als die erlaubten 50/);
    assertError(await admin.get(`/api/v1/layer/${strict.id}/tiles.pmtiles`), 404, 'no_tile_archive');
  });

  it('serves the archive to readers of the layer, lets only writers build, and hides it from others', async () => {
    const reader = await t.user();
    const writer = await t.user();
    const stranger = await t.user();
    const layer = await newLayer(admin, {
      type: 'pmtiles',
      layerpiles: [trees.resource_uri],
      tile_settings: { max_zoom: 3 },
      permissions: [
        { user: `/api/v1/user/${reader.id}/`, perms: ['read'] },
        { user: `/api/v1/user/${writer.id}/`, perms: ['read', 'write'] },
      ],
    });
    // The writer may build but cannot read the depot: the build finds no features it may use.
    assertError(await writer.client.post(`/api/v1/layer/${layer.id}/build_tiles/`, {}), 400, 'no_features');
    expectStatus(
      await admin.patch(trees.resource_uri, { permissions: [{ user: `/api/v1/user/${writer.id}/`, perms: ['read'] }] }),
      200,
    );
    const archive = await build(writer.client, layer);
    assert.equal(archive.features, 400);
    assertError(await reader.client.post(`/api/v1/layer/${layer.id}/build_tiles/`, {}), 403, 'permission_denied');
    const header = await archiveOver(reader.client, layer).getHeader();
    assert.equal(header.maxZoom, 3);
    const head = await fetch(`${reader.client.baseUrl}${archive.url}`, {
      method: 'HEAD',
      headers: { cookie: [...reader.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(archive.size));
    assertError(await stranger.client.get(`/api/v1/layer/${layer.id}/tiles.pmtiles`), 404, 'not_found');
    assertError(await stranger.client.post(`/api/v1/layer/${layer.id}/build_tiles/`, {}), 404, 'not_found');
    const noCsrf = await writer.client.post(`/api/v1/layer/${layer.id}/build_tiles/`, {}, { csrf: false });
    assert.equal(noCsrf.status, 403);
    // Internal: anonymous map clients are turned away; once public, they read it with byte ranges.
    assertError(await t.client().get(`/api/v1/layer/${layer.id}/tiles.pmtiles`), 401, 'not_authenticated');
    expectStatus(await admin.patch(layer.resource_uri, { public: true }), 200);
    const anonymous = await archiveOver(t.client(), layer).getHeader();
    assert.equal(anonymous.maxZoom, 3);
  });

  it('writes tiles GDAL reads: ogrinfo lists the layer and its features from a tile of the archive', async () => {
    const layer = await newLayer(admin, {
      type: 'pmtiles',
      slug: 'baeume-gdal',
      layerpiles: [trees.resource_uri],
      tile_settings: { max_zoom: 4 },
    });
    await build(admin, layer);
    // GDAL 3.6 here has no PMTiles driver (3.8+ has); its MVT driver reads a tile as a z/x/y.pbf file.
    const tile = await archiveOver(admin, layer).getZxy(4, 8, 5);
    const tileDir = join(dir, 'gdal', '4', '8');
    mkdirSync(tileDir, { recursive: true });
    const raw = Buffer.from(tile!.data);
    writeFileSync(join(tileDir, '5.pbf'), raw[0] === 0x1f ? gunzipSync(raw) : raw);
    const info = execFileSync('ogrinfo', ['-ro', '-so', '-al', join(tileDir, '5.pbf')], { encoding: 'utf8' });
    assert.match(info, /Layer name: baeume-gdal/);
    assert.match(info, /Feature Count: 400/);
    assert.match(info, /art: String/);
  });
});
