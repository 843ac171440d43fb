import assert from 'node:assert/strict';
import { featureSize, limitTile, reduceFeatures, TileOverLimit, type TileFeature } from './tile-limits';
import { guessMaxZoom } from './guess-max-zoom';

const point = (x: number, y: number, name: string): TileFeature => ({ type: 1, geometry: [[x, y]], tags: { name } });
const square = (x: number, y: number, side: number, name: string): TileFeature => ({
  type: 3,
  geometry: [
    [
      [x, y],
      [x + side, y],
      [x + side, y + side],
      [x, y + side],
      [x, y],
    ],
  ],
  tags: { name },
});
const names = (fs: TileFeature[]) => fs.map((f) => f.tags!.name);
/** A stand-in for the encoder: 100 bytes per position. */
const sizeEncode = (fs: TileFeature[]) =>
  new Uint8Array(
    100 * fs.reduce((n, f) => n + (f.type === 1 ? f.geometry.length : (f.geometry as unknown[][]).flat().length), 0),
  );

describe('tile limits and their strategies (decision 0062)', () => {
  // A cluster of four points close together and three points far apart.
  const cluster = [point(1000, 1000, 'c1'), point(1002, 1000, 'c2'), point(1000, 1003, 'c3'), point(1003, 1003, 'c4')];
  const spread = [point(100, 3900, 'far1'), point(3900, 100, 'far2'), point(3900, 3900, 'far3')];

  it('drop densest thins a cluster to one feature and keeps isolated ones', () => {
    const r = reduceFeatures([...cluster, ...spread], 3, 'drop_densest_as_needed');
    assert.equal(r.dropped, 3);
    assert.equal(r.coalesced, 0);
    const kept = names(r.features);
    assert.deepEqual(
      kept.filter((n) => String(n).startsWith('far')),
      ['far1', 'far2', 'far3'],
    );
    assert.equal(kept.filter((n) => String(n).startsWith('c')).length, 1);
  });

  it('drop smallest leaves out the smallest polygons first', () => {
    const fs = [square(0, 0, 100, 'big'), square(500, 500, 2, 'tiny'), square(900, 900, 20, 'mid'), square(2000, 0, 1, 'dot')];
    assert.equal(featureSize(fs[0]), 10_000);
    assert.deepEqual(names(reduceFeatures(fs, 2, 'drop_smallest_as_needed').features), ['big', 'mid']);
  });

  it('coalesce densest merges a cluster into one multipoint with the survivor’s attributes', () => {
    const r = reduceFeatures([...cluster, ...spread], 3, 'coalesce_densest_as_needed');
    assert.equal(r.coalesced, 3);
    assert.equal(r.dropped, 0);
    assert.equal(r.features.length, 4);
    const merged = r.features.find((f) => String(f.tags!.name).startsWith('c'))!;
    assert.equal(merged.geometry.length, 4, 'all four cluster points in one feature');
    // The input is not changed.
    assert.equal(cluster[0].geometry.length, 1);
  });

  it('coalesce smallest adds small polygons to a neighbour as rings, and drops what cannot merge', () => {
    const fs = [square(0, 0, 100, 'big'), square(110, 0, 5, 'small'), point(3000, 3000, 'pt')];
    const r = reduceFeatures(fs, 2, 'coalesce_smallest_as_needed');
    // The point (size 0) goes first and has no point neighbour: dropped; the small square merges into the big one.
    assert.deepEqual([r.dropped, r.coalesced], [1, 1]);
    assert.deepEqual(names(r.features), ['big']);
    assert.equal(r.features[0].geometry.length, 2);
  });

  it('applies max_tile_features, then max_tile_bytes, measuring again after each reduction', () => {
    const many = Array.from({ length: 50 }, (_, i) => point((i * 80) % 4096, Math.floor(i / 50) * 10 + i, `p${i}`));
    const r = limitTile(many, { maxFeatures: 20, maxBytes: 1_000, strategy: 'drop_densest_as_needed' }, sizeEncode);
    assert.ok(r.features.length <= 10, `${r.features.length} features fit 1,000 bytes at 100 each`);
    assert.ok(r.bytes.length <= 1_000);
    assert.equal(r.dropped, 50 - r.features.length);
    const untouched = limitTile(spread, { maxFeatures: 20, maxBytes: 1_000 }, sizeEncode);
    assert.equal(untouched.features, spread);
    assert.equal(untouched.dropped, 0);
  });

  it('fails over a limit without a strategy, and when one feature alone is too big', () => {
    assert.throws(
      () => limitTile([...cluster, ...spread], { maxFeatures: 5, maxBytes: 100_000 }, sizeEncode),
      (e) => e instanceof TileOverLimit && e.limit === 'features' && e.count === 7,
    );
    assert.throws(
      () => limitTile(cluster, { maxFeatures: 100, maxBytes: 150 }, sizeEncode),
      (e) => e instanceof TileOverLimit && e.limit === 'bytes' && e.bytes === 400,
    );
    assert.throws(
      () =>
        limitTile([square(0, 0, 10, 'a')], { maxFeatures: 100, maxBytes: 150, strategy: 'drop_smallest_as_needed' }, sizeEncode),
      (e) => e instanceof TileOverLimit && e.limit === 'bytes' && e.count === 1,
    );
  });
});

describe('guess_max_zoom (decision 0062)', () => {
  /** A grid of n × n points `step` world units apart (Web Mercator, 0–1). */
  const grid = (n: number, step: number): [number, number][] =>
    Array.from({ length: n * n }, (_, i) => [0.3 + (i % n) * step, 0.3 + Math.floor(i / n) * step]);

  it('picks the zoom at which the median spacing reaches one pixel of a 256-pixel tile', () => {
    // 2^-16 world units apart: one pixel at zoom 8 (256 · 2^8 = 2^16 pixels across the world).
    assert.equal(guessMaxZoom(grid(20, 2 ** -16), 0), 8);
    assert.equal(guessMaxZoom(grid(20, 2 ** -20), 0), 12);
    assert.ok(guessMaxZoom(grid(20, 2 ** -20), 0) > guessMaxZoom(grid(20, 2 ** -12), 0), 'denser data, deeper zoom');
  });

  it('clamps to the minimum zoom and to 18, and falls back to 14 without two distinct positions', () => {
    assert.equal(guessMaxZoom(grid(5, 2 ** -10), 9), 9);
    assert.equal(guessMaxZoom(grid(5, 2 ** -26), 0), 18);
    assert.equal(
      guessMaxZoom(
        [
          [0.5, 0.5],
          [0.5, 0.5],
        ],
        0,
      ),
      14,
    );
    assert.equal(guessMaxZoom([], 16), 16);
  });
});
