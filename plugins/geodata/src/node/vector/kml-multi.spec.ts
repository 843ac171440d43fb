import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fakeRunContext } from '@werkbank/testing/node';
import { geopackageExport } from './geopackage-export';
import { kmlImport } from './kml-import';
import { featuresOf, fileItem, fixtureFiles } from './vector-test-helpers';

/** Multi-geometries of each kind, a mixed collection and a plain polygon, as a CSV with WKT for ogr2ogr. */
const CSV = `name,code,WKT
Inseln,056,"MULTIPOLYGON(((6 45,7 45,7 46,6 46,6 45)),((10 45,11 45,11 46,10 46,10 45),(10.2 45.2,10.8 45.2,10.8 45.8,10.2 45.8,10.2 45.2)))"
Wege,040,"MULTILINESTRING((6 45,7 46),(8 47,9 48,10 47))"
Brunnen,7,"MULTIPOINT((6 45),(7 46))"
Gemischt,8,"GEOMETRYCOLLECTION(POINT(6 45),LINESTRING(6 45,7 46))"
Einzeln,9,"POLYGON((8 47,9 47,9 48,8 48,8 47))"
`;

describe('kml.import: multi-geometries and styles of a KML written by ogr2ogr -f KML', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kml-multi-'));
  let kml: Buffer;

  before(() => {
    writeFileSync(path.join(dir, 'teile.csv'), CSV);
    const target = path.join(dir, 'teile.kml');
    execFileSync('ogr2ogr', [
      '-f',
      'KML',
      target,
      path.join(dir, 'teile.csv'),
      '-oo',
      'GEOM_POSSIBLE_NAMES=WKT',
      '-oo',
      'KEEP_GEOM_COLUMNS=NO',
      '-a_srs',
      'EPSG:4326',
    ]);
    kml = readFileSync(target);
    // what GDAL writes: MultiGeometry elements and a Style in each polygon and line placemark
    assert.match(kml.toString(), /<MultiGeometry><Polygon>/);
    assert.match(kml.toString(), /<Style><LineStyle>/);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (bytes: Buffer) =>
    kmlImport(fixtureFiles({ 'teile.kml': bytes }))
      .run({ file: fileItem('teile.kml') }, fakeRunContext())
      .then(featuresOf);

  it('reads a MultiGeometry of polygons as a MultiPolygon, of lines as a MultiLineString, of points as a MultiPoint; a mixed one stays a collection', async () => {
    const features = await run(kml);
    assert.deepEqual(
      features.map((f) => [f.properties.name, f.geometry?.type]),
      [
        ['Inseln', 'MultiPolygon'],
        ['Wege', 'MultiLineString'],
        ['Brunnen', 'MultiPoint'],
        ['Gemischt', 'GeometryCollection'],
        ['Einzeln', 'Polygon'],
      ],
    );
    assert.deepEqual(features[0].geometry?.coordinates[1][1][0], [10.2, 45.2], 'the hole of the second part');
    assert.deepEqual(features[1].geometry?.coordinates, [
      [
        [6, 45],
        [7, 46],
      ],
      [
        [8, 47],
        [9, 48],
        [10, 47],
      ],
    ]);
    assert.deepEqual(features[2].geometry?.coordinates, [
      [6, 45],
      [7, 46],
    ]);
  });

  it('gives a GeoPackage export of the islands a MultiPolygon column, not a generic geometry', async () => {
    const [islands] = await run(kml);
    const ctx = fakeRunContext();
    const out = await geopackageExport.run({ features: [{ feature: islands }, { feature: islands }] }, ctx);
    const target = path.join(dir, 'inseln.gpkg');
    writeFileSync(target, ctx.files.get(String(out.file[0].stored_blob))!.bytes);
    assert.match(execFileSync('ogrinfo', ['-so', target, 'features'], { encoding: 'utf8' }), /Geometry: Multi Polygon/);
  });

  it('keeps the attributes and adds no style properties (inline styles or styleUrl)', async () => {
    const features = await run(kml);
    assert.deepEqual(features[0].properties, { name: 'Inseln', code: '056' });
    assert.deepEqual(features[4].properties, { name: 'Einzeln', code: '9' });
    const shared = kml
      .toString()
      .replace('<Folder>', '<Style id="rot"><LineStyle><color>ff0000ff</color><width>4</width></LineStyle></Style><Folder>')
      .replace('<name>Wege</name>', '<name>Wege</name><styleUrl>#rot</styleUrl>');
    const [, wege] = await run(Buffer.from(shared));
    assert.deepEqual(wege.properties, { name: 'Wege', code: '040' });
  });
});
