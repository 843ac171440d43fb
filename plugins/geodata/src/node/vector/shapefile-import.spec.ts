import assert from 'node:assert/strict';
import { fakeRunContext } from '@werkbank/testing/node';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { shapefileImport } from './shapefile-import';
import { crsOfWkt } from './prj-crs';
import { featuresOf, fileItem, fixtureFiles, near, one, ORTE_25832, ORTE_WGS84, rejectsWith } from './vector-test-helpers';

const run = (name: string, params: FunctionInputs = {}, ctx = fakeRunContext()) =>
  shapefileImport(fixtureFiles())
    .run({ file: fileItem(name), ...params }, ctx)
    .then(featuresOf);

describe('shapefile.import', () => {
  it('reads a zipped Shapefile in windows-1252 (from its .cpg) and reprojects ESRI WKT ETRS89 / UTM 32N to WGS 84 within 1 mm', async () => {
    const ctx = fakeRunContext();
    const features = await run('orte-shp.zip', {}, ctx);
    assert.deepEqual(
      features.map((f) => f.properties),
      [
        { name: 'Brandenburger Tor', stadt: 'Berlin', einwohner: 3755251, flaeche: 891.1 },
        { name: 'Rathaus Hamburg', stadt: 'Hamburg', einwohner: 1892122, flaeche: 755.2 },
        { name: 'Königsallee', stadt: 'Düsseldorf', einwohner: 629047, flaeche: 217.4 },
      ],
    );
    // 1e-8 degrees is about 1 mm.
    features.forEach((f, i) => near(f.geometry!.coordinates, ORTE_WGS84[i], 1e-8));
    assert.ok(ctx.logs.some((l) => l.includes('EPSG:25832')));
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('keeps the coordinates of the .prj (as cs2cs computes them) when auto_transform is off', async () => {
    const features = await run('orte-shp.zip', { auto_transform: one(false) });
    assert.equal(features.length, ORTE_25832.length);
    features.forEach((f, i) => near(f.geometry!.coordinates, ORTE_25832[i], 0.001));
  });

  it('decodes attributes in the encoding setting rather than the .cpg', async () => {
    const [, , third] = await run('orte-shp.zip', { encoding: one('utf-8') });
    assert.equal(third.properties.name, 'K\uFFFDnigsallee');
    const [, , latin1] = await run('orte-shp.zip', { encoding: one('ISO-8859-1') });
    assert.equal(latin1.properties.stadt, 'Düsseldorf');
    await rejectsWith(run('orte-shp.zip', { encoding: one('ebcdic') }), 'invalid_choice', {
      port: 'encoding',
      allowed: 'utf-8, windows-1252, iso-8859-1',
    });
  });

  it('takes the crs setting over the .prj', async () => {
    // Declared as ETRS89 / UTM 33N, the same numbers land about 6° further east.
    const [first] = await run('orte-shp.zip', { crs: one('EPSG:25833') });
    assert.ok(first.geometry!.coordinates[0] > 19, String(first.geometry!.coordinates));
  });

  it('reads every Shapefile of an archive with its layer name, or the one the layer setting names', async () => {
    const all = await run('zwei-shp.zip');
    assert.deepEqual(
      all.map((f) => [f.properties.layer, f.geometry!.type]),
      [
        ['orte', 'Point'],
        ['orte', 'Point'],
        ['orte', 'Point'],
        ['gebiete', 'Polygon'],
        ['gebiete', 'Polygon'],
      ],
    );
    const gebiete = await run('zwei-shp.zip', { layer: one('gebiete') });
    assert.deepEqual(
      gebiete.map((f) => f.properties),
      [
        { name: 'Tiergarten Süd', art: 'Grünfläche' },
        { name: 'Außenalster', art: 'Gewässer' },
      ],
    );
    // The hole of the Außenalster survives; the outer ring closes on its start within 1 mm.
    const rings = gebiete[1].geometry!.coordinates as number[][][];
    assert.equal(rings.length, 2);
    near(rings[0][0], [10.0, 53.56], 1e-8);
  });

  it('fails for a missing layer naming the layers there are, and gives no features with ignore_missing_layer', async () => {
    await rejectsWith(run('zwei-shp.zip', { layer: one('strassen') }), 'layer_missing', {
      layer: 'strassen',
      layers: 'orte, gebiete',
      source: 'zwei-shp.zip',
    });
    const ctx = fakeRunContext();
    assert.deepEqual(await run('zwei-shp.zip', { layer: one('strassen'), ignore_missing_layer: one(true) }, ctx), []);
    assert.ok(ctx.logs.some((l) => l.includes('strassen')));
  });

  it('refuses an archive without .shp, a Shapefile without .dbf and a cut-off .shp naming the feature', async () => {
    await rejectsWith(run('keine-shp.zip'), 'shp_missing', { source: 'keine-shp.zip' });
    await rejectsWith(run('ohne-dbf-shp.zip'), 'dbf_missing', { layer: 'orte' });
    await rejectsWith(run('kaputt-shp.zip'), 'shp_broken', { layer: 'orte', index: 1 });
  });

  it('refuses a zip-slip archive before extracting anything, and a file that is no ZIP', async () => {
    await rejectsWith(run('zip-slip-shp.zip'), 'zip_unsafe_path', { name: '../orte.shp' });
    await rejectsWith(run('orte.kml'), 'zip_invalid');
  });

  it('refuses a .prj of a CRS nobody knows, unless the crs setting says what the data is or auto_transform is off', async () => {
    await rejectsWith(run('fremd-crs-shp.zip'), 'prj_crs_unknown', { name: 'Hausnetz', source: 'fremd-crs-shp.zip' });
    const [declared] = await run('fremd-crs-shp.zip', { crs: one('EPSG:25832') });
    near(declared.geometry!.coordinates, ORTE_WGS84[0], 1e-8);
    const [raw] = await run('fremd-crs-shp.zip', { auto_transform: one(false) });
    near(raw.geometry!.coordinates, ORTE_25832[0], 0.001);
    await rejectsWith(
      crsOfWkt(
        'PROJCS["Hausnetz",GEOGCS["x",DATUM["y",SPHEROID["z",6000000,300]],PRIMEM["Greenwich",0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator"],UNIT["Meter",1]]',
      ),
      'prj_crs_unknown',
      { name: 'Hausnetz' },
    );
    assert.equal(
      await crsOfWkt('GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],AUTHORITY["EPSG","4326"]]'),
      'EPSG:4326',
    );
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run('orte-shp.zip', {}, ctx), /stopped/);
  });

  it('fails without a file and for a file the user may not read', async () => {
    await rejectsWith(shapefileImport(fixtureFiles()).run({}, fakeRunContext()), 'no_file_input');
    await rejectsWith(run('fehlt.zip'), 'file_unreadable', { name: 'fehlt.zip' });
  });
});
