import assert from 'node:assert/strict';
import { fakeRunContext } from '@werkbank/testing/node';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { kmlImport } from './kml-import';
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
  kmlImport(fixtureFiles(extra))
    .run({ file: fileItem(name), ...params }, ctx)
    .then(featuresOf);

const kmlText = (body: string) =>
  Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">${body}</kml>`);

describe('kml.import', () => {
  it('reads the placemarks of a KML written by ogr2ogr: points, a polygon with a hole, ExtendedData as properties', async () => {
    const ctx = fakeRunContext();
    const features = await run('orte.kml', {}, ctx);
    assert.deepEqual(
      features.map((f) => [f.properties.name, f.geometry!.type]),
      [
        ['Brandenburger Tor', 'Point'],
        ['Rathaus Hamburg', 'Point'],
        ['Königsallee', 'Point'],
        ['Tiergarten Süd', 'Polygon'],
        ['Außenalster', 'Polygon'],
      ],
    );
    assert.equal(features[2].properties.stadt, 'Düsseldorf');
    assert.equal(features[3].properties.art, 'Grünfläche');
    features.slice(0, 3).forEach((f, i) => near(f.geometry!.coordinates, ORTE_WGS84[i], 1e-9));
    assert.equal((features[4].geometry!.coordinates as number[][][]).length, 2);
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('reads the doc.kml of a KMZ archive', async () => {
    const features = await run('orte.kmz');
    assert.equal(features.length, 5);
    assert.equal(features[0].properties.name, 'Brandenburger Tor');
  });

  it('keeps only the placemarks of the Folder the layer setting names; a missing one fails or, if allowed, gives none', async () => {
    const gebiete = await run('orte.kml', { layer: one('gebiete') });
    assert.deepEqual(
      gebiete.map((f) => f.properties.name),
      ['Tiergarten Süd', 'Außenalster'],
    );
    await rejectsWith(run('orte.kml', { layer: one('strassen') }), 'layer_missing', {
      layers: 'orte, gebiete',
      source: 'orte.kml',
    });
    const ctx = fakeRunContext();
    assert.deepEqual(await run('orte.kml', { layer: one('strassen'), ignore_missing_layer: one(true) }, ctx), []);
    assert.ok(ctx.logs.some((l) => l.includes('strassen')));
  });

  it('finds a layer by the name of a Document too, with the placemarks of its nested Folders', async () => {
    const text = kmlText(
      '<Document><name>Stadtplan</name><Folder><name>Innen</name><Placemark><name>a</name><Point><coordinates>1,2</coordinates></Point></Placemark></Folder></Document>',
    );
    const features = await run('plan.kml', { layer: one('Stadtplan') }, fakeRunContext(), { 'plan.kml': text });
    assert.deepEqual(
      features.map((f) => f.geometry!.coordinates),
      [[1, 2]],
    );
  });

  it('decodes windows-1252 when the encoding setting says so', async () => {
    const text = Buffer.concat([
      Buffer.from('<kml><Placemark><name>'),
      Buffer.from([0x4b, 0xf6, 0x6c, 0x6e]), // "Köln" in windows-1252
      Buffer.from('</name><Point><coordinates>6.95,50.94</coordinates></Point></Placemark></kml>'),
    ]);
    const [feature] = await run('koeln.kml', { encoding: one('windows-1252') }, fakeRunContext(), { 'koeln.kml': text });
    assert.equal(feature.properties.name, 'Köln');
  });

  it('reprojects only when the crs setting names another CRS than WGS 84', async () => {
    const text = kmlText(`<Placemark><Point><coordinates>${ORTE_25832[0].join(',')}</coordinates></Point></Placemark>`);
    const [feature] = await run('utm.kml', { crs: one('EPSG:25832') }, fakeRunContext(), { 'utm.kml': text });
    near(feature.geometry!.coordinates, ORTE_WGS84[0], 1e-8);
  });

  it('refuses a KML with a DOCTYPE and an ENTITY (XXE) before parsing it', async () => {
    await rejectsWith(run('doctype.kml'), 'xml_doctype', { line: 2, source: 'doctype.kml' });
  });

  it('names line and column of broken XML, and refuses XML that is no KML and a KMZ without KML', async () => {
    // The Placemark opened on line 4 is never closed: xmldom reports the end of that line.
    await rejectsWith(run('kaputt.kml'), 'xml_invalid', { line: 4, column: 107, source: 'kaputt.kml' });
    await rejectsWith(
      run('gml.kml', {}, fakeRunContext(), { 'gml.kml': Buffer.from('<gml:FeatureCollection xmlns:gml="x"/>') }),
      'kml_not_kml',
      {
        root: 'gml:FeatureCollection',
      },
    );
    await rejectsWith(run('leer.kmz', {}, fakeRunContext(), { 'leer.kmz': fixture('orte-shp.zip') }), 'kmz_no_kml');
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run('orte.kml', {}, ctx), /stopped/);
  });
});
