import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectStatus, startTestServer, zippedShapefile, type TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  frameUpload,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type User,
} from '@werkbank/plugin-switchboards/testing';

/** Three towns in WGS 84: a name with umlauts, a whole number, a key with a leading zero. */
const TOWNS = [
  { name: 'Görlitz', einwohner: 56324, kennung: '014626', at: [14.98853, 51.15518] },
  { name: 'München', einwohner: 1512491, kennung: '09162', at: [11.57549, 48.13743] },
  { name: 'Köln', einwohner: 1084831, kennung: '05315', at: [6.95, 50.93333] },
];

interface Feature {
  geometry: { type: string; coordinates: number[] };
  properties: Record<string, unknown>;
}

/** How one format is written by GDAL (and iconv), imported, and what the import must give. */
interface Format {
  format: string;
  func: string;
  /** Writes the file(s) into `dir` from the source GeoJSON; the names to upload into one file frame. */
  write(dir: string, source: string): string[];
  out: 'features' | 'rows';
  check(items: unknown[]): void;
}

const ogr = (...args: string[]) => execFileSync('ogr2ogr', args);

/** Features equal to TOWNS: points in degrees, names, and the key with its leading zero as text. */
function expectTowns(items: unknown[]) {
  const features = (items as Array<{ feature: Feature }>).map((i) => i.feature);
  assert.deepEqual(
    features.map((f) => [f.properties.name, String(f.properties.einwohner), f.properties.kennung]),
    TOWNS.map((t) => [t.name, String(t.einwohner), t.kennung]),
  );
  features.forEach((f, i) => {
    assert.equal(f.geometry.type, 'Point');
    assert.ok(Math.abs(f.geometry.coordinates[0] - TOWNS[i].at[0]) < 1e-6, JSON.stringify(f.geometry));
    assert.ok(Math.abs(f.geometry.coordinates[1] - TOWNS[i].at[1]) < 1e-6, JSON.stringify(f.geometry));
  });
}

/** Rows equal to TOWNS with X and Y columns (GDAL's GEOMETRY=AS_XY). */
function expectTownRows(items: unknown[]) {
  const rows = (items as Array<{ value: Record<string, unknown> }>).map((r) => r.value);
  assert.deepEqual(
    rows.map((r) => [r.name, Number(r.einwohner), String(r.kennung), Number(r.X), Number(r.Y)]),
    TOWNS.map((t) => [t.name, t.einwohner, t.kennung, t.at[0], t.at[1]]),
  );
}

const FORMATS: Format[] = [
  {
    format: 'GeoPackage',
    func: 'geopackage.import',
    write: (dir, src) => (ogr('-f', 'GPKG', path.join(dir, 'orte.gpkg'), src, '-nln', 'orte'), ['orte.gpkg']),
    out: 'features',
    check: expectTowns,
  },
  {
    format: 'GeoJSON',
    func: 'geojson.import',
    write: (dir, src) => (ogr('-f', 'GeoJSON', path.join(dir, 'orte-gdal.geojson'), src), ['orte-gdal.geojson']),
    out: 'features',
    check: expectTowns,
  },
  {
    format: 'KML',
    func: 'kml.import',
    write: (dir, src) => (ogr('-f', 'KML', path.join(dir, 'orte.kml'), src, '-nln', 'orte'), ['orte.kml']),
    out: 'features',
    check: expectTowns,
  },
  {
    format: 'GML with its .xsd',
    func: 'gml.import',
    write: (dir, src) => (ogr('-f', 'GML', path.join(dir, 'orte.gml'), src, '-nln', 'orte'), ['orte.gml', 'orte.xsd']),
    out: 'features',
    check: expectTowns,
  },
  {
    format: 'zipped Shapefile of realistic size (400 areas, EPSG:25832)',
    func: 'shapefile.import',
    write: (dir) => [path.basename(zippedShapefile(dir))],
    out: 'features',
    check: (items) => {
      const features = (items as Array<{ feature: Feature }>).map((i) => i.feature);
      assert.equal(features.length, 400);
      assert.equal(features[0].properties.name, 'Gebiet 0-0');
      assert.equal(features[0].geometry.type, 'Polygon');
    },
  },
  {
    format: 'CSV in UTF-8',
    func: 'csv.import',
    write: (dir, src) => {
      ogr('-f', 'CSV', path.join(dir, 'orte.csv'), src, '-lco', 'GEOMETRY=AS_XY', '-lco', 'SEPARATOR=SEMICOLON');
      return ['orte.csv'];
    },
    out: 'rows',
    check: expectTownRows,
  },
  {
    format: 'CSV in windows-1252',
    func: 'csv.import',
    write: (dir, src) => {
      const utf8 = path.join(dir, 'orte-utf8.csv');
      ogr('-f', 'CSV', utf8, src, '-lco', 'GEOMETRY=AS_XY', '-lco', 'SEPARATOR=SEMICOLON');
      const bytes = execFileSync('iconv', ['-f', 'UTF-8', '-t', 'WINDOWS-1252', utf8]);
      writeFileSync(path.join(dir, 'orte-1252.csv'), bytes);
      return ['orte-1252.csv'];
    },
    out: 'rows',
    check: expectTownRows,
  },
  {
    format: 'Excel (.xlsx)',
    func: 'excel.import',
    // GDAL's XLSX driver writes no geometry: the coordinates go into columns X and Y as in the CSVs.
    write: (dir, src) => {
      const sql = 'SELECT ST_X(geometry) AS X, ST_Y(geometry) AS Y, name, einwohner, kennung FROM "orte-source"';
      ogr('-f', 'XLSX', path.join(dir, 'orte.xlsx'), src, '-dialect', 'SQLite', '-sql', sql, '-nln', 'Orte');
      return ['orte.xlsx'];
    },
    out: 'rows',
    check: expectTownRows,
  },
];

/**
 * Every format the geodata plugin reads, written by GDAL's ogr2ogr inside the test (issue 14's
 * closing condition), uploaded into a file frame and imported on a running switchboard.
 */
describe('geodata: every file format the plugin reads, as ogr2ogr writes it', function () {
  this.timeout(120_000);
  let t: TestServer;
  let alice: User;
  let dir: string;
  let source: string;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    alice = await t.user();
    dir = mkdtempSync(path.join(tmpdir(), 'geodata-gdal-formats-'));
    source = path.join(dir, 'orte-source.geojson');
    const features = TOWNS.map((town) => ({
      type: 'Feature',
      properties: { name: town.name, einwohner: town.einwohner, kennung: town.kennung },
      geometry: { type: 'Point', coordinates: town.at },
    }));
    writeFileSync(source, JSON.stringify({ type: 'FeatureCollection', features }));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  for (const f of FORMATS) {
    it(`imports ${f.format} with ${f.func}`, async () => {
      const c = alice.client;
      const names = f.write(dir, source);
      const sb = await newSwitchboard(c);
      const file = await addFrame(c, sb, 'file');
      for (const name of names) expectStatus(await frameUpload(c, file.id, name, readFileSync(path.join(dir, name))), 201);
      const node = await addNode(c, sb, f.func, []);
      const out = await addFrame(c, sb, f.out === 'features' ? 'feature' : 'row');
      await link(c, node, 'file', file, true);
      await link(c, node, f.out, out, false);
      const exec = await runAndWait(t, c, sb);
      assert.equal(exec.status, 'success', JSON.stringify(exec));
      f.check(await contentOf(c, out));
    });
  }
});
