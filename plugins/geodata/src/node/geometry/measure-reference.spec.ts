import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Feature, LineString, Point, Position } from 'geojson';
import { run, values } from './geometry-test-helpers';

/**
 * Country-like shapes (lon/lat, WGS 84): a rough Germany, a long thin Chile, South Africa with
 * Lesotho as a hole, Japan-like islands as one MultiPolygon, Greenland far north, a triangle with
 * edges thousands of kilometres long, and a route as LineString and MultiLineString.
 */
const SHAPES: Record<string, string> = {
  germany:
    'POLYGON((6.0 51.8,6.8 53.6,8.6 53.9,8.9 54.9,10.0 54.8,11.1 54.0,13.0 54.4,14.2 53.9,14.6 52.6,14.7 51.0,12.1 50.3,13.8 48.8,13.0 47.5,10.2 47.3,7.6 47.6,8.2 49.0,6.4 49.5,6.1 50.7,6.0 51.8))',
  chile:
    'POLYGON((-70.4 -18.3,-69.5 -18.0,-68.2 -21.5,-68.6 -27.5,-70.0 -33.0,-71.0 -40.0,-72.0 -45.0,-71.7 -50.0,-68.5 -52.3,-68.6 -55.0,-72.0 -54.0,-75.0 -50.0,-74.0 -44.0,-73.7 -37.0,-71.6 -32.0,-71.4 -25.0,-70.1 -21.0,-70.4 -18.3))',
  southafrica:
    'POLYGON((16.5 -28.6,20.0 -24.8,20.0 -22.0,25.0 -25.7,27.0 -22.5,31.3 -22.4,32.9 -26.8,30.0 -31.3,25.6 -34.0,18.4 -34.3,17.9 -31.0,16.5 -28.6),(27.0 -29.6,28.6 -28.6,29.4 -29.3,29.0 -30.6,27.5 -30.6,27.0 -29.6))',
  islands:
    'MULTIPOLYGON(((129.5 33.0,131.0 31.0,132.0 33.5,130.5 34.0,129.5 33.0)),((132.0 34.0,136.0 33.5,140.0 35.0,141.5 38.0,142.0 41.0,140.0 41.0,139.5 38.5,136.5 37.0,132.0 34.0)),((140.0 42.0,143.0 42.0,145.5 43.5,142.0 45.5,140.0 42.0)))',
  greenland: 'POLYGON((-73 78,-20 82,-12 81,-22 70,-43 60,-52 64,-73 78))',
  triangle: 'POLYGON((-10 0,60 0,20 60,-10 0))',
  route: 'LINESTRING(13.4 52.5,11.6 48.1,10.0 53.55,6.96 50.94)',
  routes: 'MULTILINESTRING((13.4 52.5,11.6 48.1),(10.0 53.55,6.96 50.94,8.68 50.11))',
};

const dir = mkdtempSync(path.join(tmpdir(), 'measure-ref-'));
const gpkg = path.join(dir, 'shapes.gpkg');

/** SpatiaLite's answer (through GDAL's SQLite dialect) for one SQL expression over `geom`, per shape. */
function spatialite(expression: string): string[] {
  const sql = `SELECT ${expression} AS v FROM shapes ORDER BY fid`;
  const out = execFileSync('ogrinfo', ['-q', '-dialect', 'SQLite', '-sql', sql, gpkg], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return [...out.matchAll(/^\s+v \(\w+\) = (.*)$/gm)].map((m) => m[1].trim());
}

/** The length of a path by PROJ's geod (inverse problem per edge, WGS 84). */
function geod(positions: Position[]): number {
  const edges = positions.slice(1).map((p, i) => `${positions[i][1]} ${positions[i][0]} ${p[1]} ${p[0]}`);
  const out = execFileSync('geod', ['+ellps=WGS84', '-I', '-f', '%.9f'], { input: edges.join('\n') + '\n', encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[2]), 0);
}

const relative = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

describe('geodata geometry: area, length and centroid against PROJ and SpatiaLite on shapes written by GDAL', function () {
  this.timeout(30_000);
  let features: Feature[];
  let names: string[];

  before(() => {
    const csv = path.join(dir, 'shapes.csv');
    writeFileSync(
      csv,
      'name,WKT\n' +
        Object.entries(SHAPES)
          .map(([n, w]) => `${n},"${w}"`)
          .join('\n') +
        '\n',
    );
    execFileSync('ogr2ogr', [
      '-f',
      'GPKG',
      gpkg,
      csv,
      '-nln',
      'shapes',
      '-a_srs',
      'EPSG:4326',
      '-oo',
      'GEOM_POSSIBLE_NAMES=WKT',
      '-oo',
      'KEEP_GEOM_COLUMNS=NO',
      '-lco',
      'GEOMETRY_NAME=geom',
    ]);
    const geojson = execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', gpkg, 'shapes'], { encoding: 'utf8' });
    features = (JSON.parse(geojson) as { features: Feature[] }).features;
    names = features.map((f) => String(f.properties?.name));
    assert.deepEqual(names, Object.keys(SHAPES));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const items = () => features.map((feature) => ({ feature }));

  it('gives the geodesic area on WGS 84 within 0.01 % of SpatiaLite ST_Area(geom, 1), holes subtracted and parts summed', async () => {
    const reference = spatialite('ST_Area(geom, 1)').map(Number);
    const out = (await run('geometry.area', { features: items() })).area.map((i) => i.value as number);
    names.forEach((name, i) => {
      if (reference[i] === 0) assert.equal(out[i], 0, name);
      else assert.ok(relative(out[i], reference[i]) < 1e-4, `${name}: ${out[i]} vs ${reference[i]}`);
    });
    // this outline of Germany has about 373,500 km²; the spherical formula was 0.37 % (1,370 km²) short
    assert.ok(Math.abs(out[0] / 1e6 - reference[0] / 1e6) < 35, String(out[0]));
  });

  it('gives the geodesic length of lines and the perimeter of areas within 0.01 % of PROJ geod', async () => {
    const out = (await run('geometry.length', { features: items() })).length.map((i) => i.value as number);
    features.forEach((f, i) => {
      const g = f.geometry;
      const paths =
        g.type === 'LineString'
          ? [g.coordinates]
          : g.type === 'MultiLineString' || g.type === 'Polygon'
            ? g.coordinates
            : g.type === 'MultiPolygon'
              ? g.coordinates.flat()
              : [];
      const expected = paths.reduce((sum, p) => sum + geod(p), 0);
      assert.ok(relative(out[i], expected) < 1e-4, `${names[i]}: ${out[i]} vs ${expected}`);
    });
    const perimeter = spatialite('ST_Perimeter(geom, 1)').map(Number);
    assert.ok(relative(out[0], perimeter[0]) < 1e-4, `${out[0]} vs ${perimeter[0]}`);
  });

  it('gives the area-weighted centroid and a point on the surface as SpatiaLite (GEOS) does', async () => {
    const points = (expression: string) => {
      const [xs, ys] = [spatialite(`ST_X(${expression})`), spatialite(`ST_Y(${expression})`)];
      return xs.map((x, i) => [Number(x), Number(ys[i])]);
    };
    const near = (a: Position, b: number[], name: string) =>
      assert.ok(Math.abs(a[0] - b[0]) < 1e-9 && Math.abs(a[1] - b[1]) < 1e-9, `${name}: ${a} vs ${b}`);
    const centroids = await run('geometry.centroid', { features: items() });
    const expected = points('ST_Centroid(geom)');
    centroids.features.forEach((c, i) => near(((c.feature as Feature).geometry as Point).coordinates, expected[i], names[i]));
    const inside = await run('geometry.centroid', { features: items(), on_surface: values(true) });
    const onSurface = points('ST_PointOnSurface(geom)');
    inside.features.forEach((c, i) => near(((c.feature as Feature).geometry as Point).coordinates, onSurface[i], names[i]));
    assert.deepEqual(centroids.features[0].feature, {
      type: 'Feature',
      geometry: (centroids.features[0].feature as Feature).geometry,
      properties: { name: 'germany' },
    });
  });

  it('measures a line as the geodesic, not the straight line in degrees', async () => {
    // along the 60° parallel the geodesic from 0° to 60° E cuts north of the parallel
    const line: LineString = {
      type: 'LineString',
      coordinates: [
        [0, 60],
        [60, 60],
      ],
    };
    const [len] = (await run('geometry.length', { features: [{ feature: { type: 'Feature', geometry: line, properties: {} } }] }))
      .length;
    assert.ok(relative(len.value as number, geod(line.coordinates)) < 1e-9, String(len.value));
  });
});
