import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tileIdToZxy, zxyToTileId } from 'pmtiles';
import { ApiError } from '@werkbank/sdk/node';
import { resolveTileSettings, type TileSettings } from '../../common/tile-settings';
import { archiveOf, tileFeatures } from '../../../test/pmtiles-kit';
import { buildTileArchive } from './tile-build-task';
import { writeArchive, type TileRecord } from './pmtiles-writer';

describe('the tile builder and the PMTiles v3 writer (decision 0062)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tiles-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const build = async (features: unknown[], settings: Partial<TileSettings>) => {
    writeFileSync(join(dir, 'f.ndjson'), features.map((f) => JSON.stringify(f)).join('\n') + '\n');
    const out = await buildTileArchive({
      featuresPath: join(dir, 'f.ndjson'),
      scratchPath: join(dir, 'scratch'),
      outPath: join(dir, 'out.pmtiles'),
      settings: resolveTileSettings(settings),
      layerName: 'baeume',
      title: 'Bäume',
      description: '',
    });
    return { out, archive: archiveOf(new Uint8Array(readFileSync(join(dir, 'out.pmtiles')))) };
  };
  const pt = (lon: number, lat: number, props: Record<string, unknown>) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat] },
    properties: props,
  });
  // A square around the Dom in Cologne, its ring clockwise (the builder rewinds it).
  const square = {
    type: 'Feature',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [6.9, 50.9],
          [6.9, 51.0],
          [7.0, 51.0],
          [7.0, 50.9],
          [6.9, 50.9],
        ],
      ],
    },
    properties: { name: 'Quadrat' },
  };

  it('writes an archive the pmtiles library reads: header, metadata and MVT tiles with the features', async () => {
    const { out, archive } = await build([pt(6.96, 50.94, { name: 'Eiche', height: 12 }), square], { max_zoom: 6 });
    const header = await archive.getHeader();
    assert.equal(header.specVersion, 3);
    assert.deepEqual([header.minZoom, header.maxZoom], [0, 6]);
    assert.equal(header.tileType, 1);
    assert.equal(header.tileCompression, 2);
    assert.equal(header.clustered, true);
    assert.ok(Math.abs(header.minLon - 6.9) < 1e-6 && Math.abs(header.maxLat - 51.0) < 1e-6);
    assert.equal(header.numAddressedTiles, 7, 'one tile per zoom 0–6');
    assert.equal(out.tiles, 7);
    const meta = (await archive.getMetadata()) as { vector_layers: Array<{ id: string; fields: Record<string, string> }> };
    assert.deepEqual(meta.vector_layers[0].fields, { name: 'String', height: 'Number' });
    assert.equal(meta.vector_layers[0].id, 'baeume');
    // At zoom 0 the square is smaller than the simplification tolerance and left out (geojson-vt).
    const z0 = await tileFeatures(archive, 0, 0, 0);
    assert.deepEqual(
      z0!.map((f) => [f.layer, f.type, f.properties.name]),
      [['baeume', 1, 'Eiche']],
    );
    const z6all = await tileFeatures(archive, 6, 33, 21);
    assert.deepEqual(z6all!.map((f) => [f.type, f.properties.name]).sort(), [
      [1, 'Eiche'],
      [3, 'Quadrat'],
    ]);
    const oak = z0![0];
    assert.equal(oak.properties.height, 12);
    const [lon, lat] = oak.geometry.coordinates as number[];
    assert.ok(Math.abs(lon - 6.96) < 0.1 && Math.abs(lat - 50.94) < 0.1);
    // The polygon decodes as one polygon (exterior ring wound as MVT wants), not as two.
    const z6 = await tileFeatures(archive, 6, 33, 21);
    assert.equal(z6!.find((f) => f.type === 3)!.geometry.type, 'Polygon');
    assert.equal(await archive.getZxy(7, 66, 43), undefined, 'nothing beyond max_zoom');
  });

  it('leaves out zooms below min_zoom and guesses the maximum zoom from the spacing when asked', async () => {
    const points = Array.from({ length: 30 }, (_, i) => pt(7 + (i % 6) * 0.001, 51 + Math.floor(i / 6) * 0.001, { i }));
    const { out, archive } = await build(points, { min_zoom: 3, guess_max_zoom: true });
    // 0.001° ≈ 1/360000 of the world: one pixel at zoom 11 (256 · 2^11 = 524288 pixels across).
    assert.equal(out.maxZoom, 11);
    assert.equal(out.guessed, true);
    const header = await archive.getHeader();
    assert.deepEqual([header.minZoom, header.maxZoom], [3, 11]);
    assert.equal(await archive.getZxy(2, 2, 1), undefined);
    assert.equal((await tileFeatures(archive, 3, 4, 2))!.length, 30);
  });

  it('clips at tile edges by default, and keeps whole features with no_clipping', async () => {
    // The square crosses the edge between zoom-8 tiles x 132 and 133 (7.03125° E).
    const wide = {
      ...square,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [7.0, 50.9],
            [7.1, 50.9],
            [7.1, 51.0],
            [7.0, 51.0],
            [7.0, 50.9],
          ],
        ],
      },
    };
    const maxX = (fs: { points: Array<Array<{ x: number }>> }[]) => Math.max(...fs[0].points.flat().map((p) => p.x));
    const clipped = await build([wide], { max_zoom: 8 });
    assert.ok(maxX((await tileFeatures(clipped.archive, 8, 132, 85))!) <= 4096 + 64, 'cut at the tile and its buffer');
    const whole = await build([wide], { max_zoom: 8, no_clipping: true });
    assert.ok(maxX((await tileFeatures(whole.archive, 8, 132, 85))!) > 4096 + 64, 'the whole square');
    assert.ok(await tileFeatures(whole.archive, 8, 133, 85), 'and in the neighbour too');
  });

  it('puts each feature in one tile per zoom with no_duplication', async () => {
    const wide = {
      ...square,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [7.0, 50.9],
            [7.1, 50.9],
            [7.1, 51.0],
            [7.0, 51.0],
            [7.0, 50.9],
          ],
        ],
      },
    };
    const { archive } = await build([wide], { max_zoom: 8, no_duplication: true });
    // Its centre (7.05° E) lies in x 133 at zoom 8.
    assert.equal(await archive.getZxy(8, 132, 85), undefined);
    assert.equal((await tileFeatures(archive, 8, 133, 85))!.length, 1);
  });

  it('applies the tile limits with the chosen strategy, and fails naming the tile without one', async () => {
    const points = Array.from({ length: 400 }, (_, i) => pt(7 + (i % 20) * 0.01, 51 + Math.floor(i / 20) * 0.01, { i }));
    const { out, archive } = await build(points, { max_zoom: 4, max_tile_features: 50, drop_densest_as_needed: true });
    assert.equal((await tileFeatures(archive, 0, 0, 0))!.length, 50);
    assert.equal(out.dropped, 5 * 350, '350 dropped at each of the five zooms');
    const merged = await build(points, { max_zoom: 0, max_tile_features: 50, coalesce_densest_as_needed: true });
    const z0 = (await tileFeatures(merged.archive, 0, 0, 0))!;
    assert.equal(z0.length, 50);
    assert.equal(
      z0.reduce((n, f) => n + f.points.flat().length, 0),
      400,
      'every point kept, in 50 features',
    );
    assert.equal(merged.out.coalesced, 350);
    await assert.rejects(
      () => build(points, { max_zoom: 2, max_tile_features: 50 }),
      (e) => e instanceof ApiError && e.code === 'tile_too_large' && e.params.z === 0 && e.params.count === 400,
    );
    const bytes = await build(points, { max_zoom: 0, max_tile_bytes: 1024, drop_smallest_as_needed: true });
    const tile = await bytes.archive.getZxy(0, 0, 0);
    assert.ok(tile && bytes.out.dropped > 0 && bytes.out.dropped < 400);
  });

  it('refuses a layer without located features', async () => {
    await assert.rejects(
      () => build([{ type: 'Feature', geometry: null, properties: {} }], {}),
      (e) => e instanceof ApiError && e.code === 'no_features',
    );
  });

  it('writes leaf directories when the root would not fit in 16 KiB, and runs of equal tiles once', async () => {
    const data = join(dir, 'data');
    const records: TileRecord[] = [];
    const bytes: Buffer[] = [];
    // 40,000 distinct tiles of zoom 12 spread over the grid (and one run of 3 equal tiles at zoom 13).
    const at = (i: number) => [12, (i * 37) % 4096, Math.floor((i * 37) / 4096) * 3] as const;
    for (let i = 0; i < 40_000; i++) {
      const b = Buffer.from(`tile ${i} `.padEnd(8 + (i % 97), '.'));
      records.push({ tileId: zxyToTileId(...at(i)), offset: 0, length: b.length, hash: `h${i}` });
      bytes.push(b);
    }
    let offset = 0;
    records.forEach((r, i) => ((r.offset = offset), (offset += bytes[i].length)));
    const same = Buffer.from('same');
    for (const id of [0, 1, 2]) records.push({ tileId: zxyToTileId(13, 0, 0) + id, offset, length: same.length, hash: 'same' });
    writeFileSync(data, Buffer.concat([...bytes, same]));
    writeArchive(
      join(dir, 'out.pmtiles'),
      data,
      records,
      { name: 'x' },
      { minZoom: 12, maxZoom: 13, bounds: [-180, -85, 180, 85], tileCompression: 1 },
    );
    const archive = archiveOf(new Uint8Array(readFileSync(join(dir, 'out.pmtiles'))));
    const header = await archive.getHeader();
    assert.ok(header.leafDirectoryLength! > 0, 'leaf directories written');
    assert.ok(header.rootDirectoryOffset + header.rootDirectoryLength <= 16_384);
    assert.equal(header.numAddressedTiles, 40_003);
    assert.equal(header.numTileContents, 40_001);
    assert.equal(header.numTileEntries, 40_001);
    for (const i of [0, 1, 12_345, 39_999]) {
      const tile = await archive.getZxy(...at(i));
      assert.equal(Buffer.from(tile!.data).toString(), `tile ${i} `.padEnd(8 + (i % 97), '.'));
    }
    for (const id of [0, 1, 2]) {
      const [z, x, y] = tileIdToZxy(zxyToTileId(13, 0, 0) + id);
      assert.equal(Buffer.from((await archive.getZxy(z, x, y))!.data).toString(), 'same');
    }
  });
});
