import assert from 'node:assert/strict';
import { VectorTile } from '@mapbox/vector-tile';
import GeoJSONVT from 'geojson-vt';
import { PbfReader } from 'pbf';
import { cutVectorTile, directTile } from './vector-tile-task';
import { seededRandom as random } from '@werkbank/testing/random';

const OPTIONS = { maxZoom: 24, indexMaxZoom: 0, extent: 4096, buffer: 64 };

/** Lon/lat of a point in tile z/x/y at fractions (u, v) of its width and height (beyond 0–1: outside it). */
function at(z: number, x: number, y: number, u: number, v: number): GeoJSON.Position {
  const n = 2 ** z;
  const lon = ((x + u) / n) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + v)) / n))) * 180) / Math.PI;
  return [lon, lat];
}

/**
 * Features around tile z/x/y: points in the tile and its buffer, lines that wander across it and far
 * beyond, polygons with holes cut by its edges, a multipolygon over several tiles.
 */
function featuresAround(z: number, x: number, y: number, seed: number): GeoJSON.Feature[] {
  const r = random(seed);
  const out: GeoJSON.Feature[] = [];
  const p = (u: number, v: number) => at(z, x, y, u, v);
  for (let i = 0; i < 60; i++)
    out.push({
      type: 'Feature',
      id: i,
      geometry: { type: 'Point', coordinates: p(r() * 1.1 - 0.05, r() * 1.1 - 0.05) },
      properties: { k: 'p', i },
    });
  for (let i = 0; i < 20; i++) {
    const line: GeoJSON.Position[] = [];
    let [u, v] = [r() * 3 - 1, r() * 3 - 1];
    for (let j = 0; j < 80; j++) line.push(p((u += r() * 0.2 - 0.1), (v += r() * 0.2 - 0.1)));
    out.push({ type: 'Feature', id: 1000 + i, geometry: { type: 'LineString', coordinates: line }, properties: { k: 'l' } });
  }
  for (let i = 0; i < 30; i++) {
    const [cu, cv, d] = [r() * 1.6 - 0.3, r() * 1.6 - 0.3, 0.05 + r() * 0.4];
    const ring = (s: number): GeoJSON.Position[] => {
      const pts: GeoJSON.Position[] = [];
      for (let a = 0; a < 24; a++) {
        const t = (a / 24) * 2 * Math.PI;
        pts.push(p(cu + Math.cos(t) * d * s * (0.8 + r() * 0.4), cv + Math.sin(t) * d * s * (0.8 + r() * 0.4)));
      }
      return [...pts, pts[0]];
    };
    out.push({
      type: 'Feature',
      id: 2000 + i,
      // Wound as RFC 7946 asks (outer ring counterclockwise) and, every other one, the other way round.
      geometry: { type: 'Polygon', coordinates: i % 2 ? [ring(1).reverse(), ring(0.4)] : [ring(1), ring(0.4).reverse()] },
      properties: { k: 'a', d },
    });
  }
  out.push({
    type: 'Feature',
    geometry: {
      type: 'MultiPolygon',
      coordinates: [
        [[p(-2, -2), p(3, -2), p(3, 0.5), p(-2, 0.5), p(-2, -2)]],
        [[p(0.2, 0.7), p(0.8, 0.7), p(0.8, 3), p(0.2, 3), p(0.2, 0.7)]],
      ],
    },
    properties: { k: 'm' },
  });
  return out;
}

type Tile = ReturnType<GeoJSONVT['getTile']>;

/**
 * A tile's features with every closed ring started at its smallest point: clipping a ring to nested
 * boxes or to the innermost box alone gives the same ring, perhaps starting at another corner.
 */
function canonical(tile: Tile): unknown {
  const ring = (r: number[][]) => {
    if (r.length < 3 || r[0][0] !== r[r.length - 1][0] || r[0][1] !== r[r.length - 1][1]) return r;
    const open = r.slice(0, -1);
    let k = 0;
    for (let i = 1; i < open.length; i++)
      if (open[i][0] < open[k][0] || (open[i][0] === open[k][0] && open[i][1] < open[k][1])) k = i;
    const turned = [...open.slice(k), ...open.slice(0, k)];
    return [...turned, turned[0]];
  };
  return (tile?.features ?? []).map((f) => ({
    ...f,
    geometry: f.type === 1 ? f.geometry : (f.geometry as number[][][]).map(ring),
  }));
}

const drilled = (features: GeoJSON.Feature[], z: number, x: number, y: number) =>
  canonical(new GeoJSONVT({ type: 'FeatureCollection', features: structuredClone(features) }, OPTIONS).getTile(z, x, y));

const direct = (features: GeoJSON.Feature[], z: number, x: number, y: number) =>
  canonical(directTile(new GeoJSONVT({ type: 'FeatureCollection', features: structuredClone(features) }, OPTIONS), z, x, y));

describe('services: the vector tile task', () => {
  it('splits a tile from its parent into the tile getTile drills down to (the same features and positions), at every zoom and at the world’s edges', () => {
    const tiles: Array<[number, number, number]> = [
      [1, 1, 0],
      [2, 0, 1],
      [5, 16, 10],
      [8, 134, 86],
      [8, 0, 100],
      [8, 255, 20],
      [11, 1070, 692],
      [14, 8520, 5480],
      [18, 136_000, 87_000],
      [22, 2_180_000, 1_400_000],
    ];
    let compared = 0;
    for (const [k, [z, x, y]] of tiles.entries()) {
      const features = featuresAround(z, x, y, k + 1);
      const want = drilled(features, z, x, y) as unknown[];
      assert.ok(want.length > 50, `tile ${z}/${x}/${y} holds features`);
      assert.deepEqual(direct(features, z, x, y), want, `tile ${z}/${x}/${y}`);
      // Its neighbours from the same features, with what reaches them from beyond their edges.
      for (const [dx, dy] of [
        [1, 0],
        [0, 1],
      ]) {
        const [nx, ny] = [(x + dx) % 2 ** z, Math.min(y + dy, 2 ** z - 1)];
        assert.deepEqual(direct(features, z, nx, ny), drilled(features, z, nx, ny), `tile ${z}/${nx}/${ny}`);
      }
      compared++;
    }
    assert.equal(compared, tiles.length);
  });

  it('cuts a tile from the datums’ text: their features with ids, attributes without nulls, rings wound for MVT', () => {
    const [z, x, y] = [12, 2140, 1380];
    const features = featuresAround(z, x, y, 7);
    const datums = features.map((feature, index) => ({
      index,
      text: JSON.stringify({ feature: { ...feature, properties: { ...feature.properties, gone: null } } }),
    }));
    const bytes = cutVectorTile({ z, x, y, layerName: 't', datums });
    assert.ok(bytes);
    const layer = new VectorTile(new PbfReader(bytes)).layers.t;
    assert.ok(layer.length > 50, `${layer.length} features`);
    const byId = new Map(features.map((f, index) => [(f.id as number | undefined) ?? index, f]));
    const kinds = new Set<number>();
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      // Datums without an id of their own carry their index (the multipolygon is the last datum).
      const source = byId.get(f.id!)!;
      assert.ok(source, `feature ${f.id}`);
      assert.deepEqual({ ...f.properties }, source.properties, 'the attributes, the null one left out');
      kinds.add(f.type);
      if (f.type !== 3) continue;
      // Exterior rings clockwise on screen (positive area with y down), holes the other way.
      const rings = f.loadGeometry();
      const area = (ring: { x: number; y: number }[]) =>
        ring.reduce((a, p, j) => (j ? a + (ring[j - 1].x * p.y - p.x * ring[j - 1].y) : a), 0);
      assert.ok(area(rings[0]) > 0, `feature ${f.id}: exterior ring counterclockwise`);
    }
    assert.deepEqual([...kinds].sort(), [1, 2, 3]);
    assert.equal(
      cutVectorTile({ z, x, y: y + 40, layerName: 't', datums: datums.slice(0, 60) }),
      undefined,
      'a tile no feature reaches',
    );
  });
});
