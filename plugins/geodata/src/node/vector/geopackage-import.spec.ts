import assert from 'node:assert/strict';
import { fakeRunContext } from '@werkbank/testing/node';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { geopackageImport } from './geopackage-import';
import { sqlite } from './sqlite';
import {
  featuresOf,
  fileItem,
  fixture,
  fixtureFiles,
  near,
  one,
  ORTE_25832,
  ORTE_WGS84,
  rejectsWith,
} from './vector-test-helpers';

const run = (name: string, params: FunctionInputs = {}, ctx = fakeRunContext(), extra: Record<string, Buffer> = {}) =>
  geopackageImport(fixtureFiles(extra))
    .run({ file: fileItem(name), ...params }, ctx)
    .then(featuresOf);

/** zwei-ebenen.gpkg changed by `sql` (run on a copy in memory). */
async function changed(sql: string): Promise<Buffer> {
  const SQL = await sqlite();
  const db = new SQL.Database(fixture('zwei-ebenen.gpkg'));
  try {
    db.run(sql);
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}

describe('geopackage.import', () => {
  it('reads both layers of a GeoPackage written by ogr2ogr, names each feature’s layer and reprojects EPSG:25832 within 1 mm', async () => {
    const ctx = fakeRunContext();
    const features = await run('zwei-ebenen.gpkg', {}, ctx);
    assert.deepEqual(
      features.map((f) => [f.id, f.properties.layer, f.properties.name, f.geometry!.type]),
      [
        [1, 'orte', 'Brandenburger Tor', 'Point'],
        [2, 'orte', 'Rathaus Hamburg', 'Point'],
        [3, 'orte', 'Königsallee', 'Point'],
        [1, 'gebiete', 'Tiergarten Süd', 'Polygon'],
        [2, 'gebiete', 'Außenalster', 'Polygon'],
      ],
    );
    assert.deepEqual(features[2].properties, {
      name: 'Königsallee',
      stadt: 'Düsseldorf',
      einwohner: 629047,
      flaeche: 217.4,
      layer: 'orte',
    });
    features.slice(0, 3).forEach((f, i) => near(f.geometry!.coordinates, ORTE_WGS84[i], 1e-8));
    assert.deepEqual(features[4].geometry!.coordinates[1][0], [10.004, 53.564]);
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('reads the layer the setting names, in its own CRS when auto_transform is off', async () => {
    const orte = await run('zwei-ebenen.gpkg', { layer: one('orte'), auto_transform: one(false) });
    assert.equal(orte.length, 3);
    assert.equal('layer' in orte[0].properties, false);
    orte.forEach((f, i) => near(f.geometry!.coordinates, ORTE_25832[i], 0.001));
  });

  it('takes the crs setting over the layer’s srs', async () => {
    const [first] = await run('zwei-ebenen.gpkg', { layer: one('orte'), crs: one('EPSG:25833') });
    assert.ok(first.geometry!.coordinates[0] > 19);
  });

  it('fails for a missing layer naming the layers, and gives no features with ignore_missing_layer', async () => {
    await rejectsWith(run('zwei-ebenen.gpkg', { layer: one('strassen') }), 'layer_missing', {
      layers: 'orte, gebiete',
      source: 'zwei-ebenen.gpkg',
    });
    assert.deepEqual(await run('zwei-ebenen.gpkg', { layer: one('strassen'), ignore_missing_layer: one(true) }), []);
  });

  it('names the feature whose geometry blob is broken, and reads a NULL geometry as null', async () => {
    const broken = await changed("UPDATE gebiete SET geom = x'47500003E6100000010300' WHERE fid = 2");
    await rejectsWith(
      run('kaputt.gpkg', { layer: one('gebiete') }, fakeRunContext(), { 'kaputt.gpkg': broken }),
      'gpkg_geometry_broken',
      {
        index: 1,
        source: 'kaputt.gpkg',
      },
    );
    const empty = await changed('UPDATE gebiete SET geom = NULL WHERE fid = 1');
    const [first] = await run('leer.gpkg', { layer: one('gebiete') }, fakeRunContext(), { 'leer.gpkg': empty });
    assert.equal(first.geometry, null);
  });

  it('refuses a file that is no SQLite database and a database that is no GeoPackage', async () => {
    await rejectsWith(run('orte.kml'), 'gpkg_invalid', { source: 'orte.kml' });
    const plain = await changed('DROP TABLE gpkg_contents');
    await rejectsWith(run('plain.gpkg', {}, fakeRunContext(), { 'plain.gpkg': plain }), 'gpkg_invalid');
  });

  it('refuses layers and GeoPackage tables that are views or hold generated columns, whose SQL would run on reading', async () => {
    // A view that could recurse as long as its author likes, in place of the layer "gebiete".
    const view = await changed(
      'ALTER TABLE gebiete RENAME TO gebiete_alt; ' +
        'CREATE VIEW gebiete AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT g.* FROM gebiete_alt g, n',
    );
    await rejectsWith(run('view.gpkg', { layer: one('gebiete') }, fakeRunContext(), { 'view.gpkg': view }), 'gpkg_invalid', {
      reason: '"gebiete" is a view, not a table',
    });
    const contents = await changed(
      'ALTER TABLE gpkg_contents RENAME TO contents_alt; CREATE VIEW gpkg_contents AS SELECT * FROM contents_alt',
    );
    await rejectsWith(run('contents.gpkg', {}, fakeRunContext(), { 'contents.gpkg': contents }), 'gpkg_invalid', {
      reason: '"gpkg_contents" is a view, not a table',
    });
    const generated = await changed('ALTER TABLE gebiete ADD COLUMN gross TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL');
    await rejectsWith(
      run('generated.gpkg', { layer: one('gebiete') }, fakeRunContext(), { 'generated.gpkg': generated }),
      'gpkg_invalid',
      { reason: '"gebiete" has generated columns (gross)' },
    );
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run('zwei-ebenen.gpkg', {}, ctx), /stopped/);
  });
});
