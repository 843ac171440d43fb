import assert from 'node:assert/strict';
import type { ApiError, FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { fakeFiles, fixture, one, serviceFunction } from './services-test-server';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { describeReasons } from '../failure-test-reasons';
import { servicesFailure } from './services-failure';
import { near } from '../vector/vector-test-helpers';

type Feature = { id?: string; geometry: { type: string; coordinates: any } | null; properties: Record<string, unknown> };

const features = (out: Record<string, FrameItems>) => out.features.map((f) => f.feature as Feature);
const run = (inputs: FunctionInputs, files = fakeFiles({}), ctx = fakeRunContext()) =>
  serviceFunction('gml.import', files).run(inputs, ctx);
const importText = async (text: string, params: FunctionInputs = {}) => features(await run({ text: one(text), ...params }));

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

const gml32 = (geometry: string, srs = 'EPSG:4326') => `<?xml version="1.0"?>
<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:app="urn:app">
  <wfs:member><app:thing gml:id="t.1"><app:geom>${geometry.replace('SRS', srs)}</app:geom></app:thing></wfs:member>
</wfs:FeatureCollection>`;

describe('gml.import', () => {
  it('reads a GML 3.2 file written by ogr2ogr in latitude/longitude order (urn:ogc:def:crs:EPSG::4326) as longitude/latitude', async () => {
    const out = features(
      await run({ file: one('places-gml32.gml') }, fakeFiles({ 'places-gml32.gml': fixture('places-gml32.gml') })),
    );
    assert.equal(out.length, 3);
    assert.deepEqual(out[0], {
      type: 'Feature',
      id: 'places.0',
      geometry: { type: 'Point', coordinates: [13.7383, 51.0504] },
      properties: { name: 'Rathaus Dresden', plz: '01067', height: 42.5 },
    } as unknown as Feature);
    assert.deepEqual(out[1].geometry?.coordinates, [
      [13.73, 51.05],
      [13.74, 51.06],
      [13.75, 51.055],
    ]);
    assert.equal(out[2].geometry?.type, 'Polygon');
    assert.equal(out[2].geometry?.coordinates.length, 2, 'exterior and interior ring');
    assert.deepEqual(out[2].geometry?.coordinates[1][0], [13.76, 51.035]);
    assert.equal(out[2].properties.height, null, 'xsi:nil is null');
    assert.equal(out[2].properties.name, 'Großer Garten');
  });

  it('reads GML 2 (coordinates, outerBoundaryIs/innerBoundaryIs) in EPSG:25833 and reprojects it to WGS 84', async () => {
    const out = await importText(fixture('places-gml2-utm.gml'));
    near(out[0].geometry?.coordinates, [13.7383, 51.0504]);
    assert.equal(out[2].geometry?.coordinates.length, 2);
    near(out[2].geometry?.coordinates[1][0], [13.76, 51.035]);
    const kept = await importText(fixture('places-gml2-utm.gml'), { auto_transform: one(false) });
    near(kept[0].geometry?.coordinates, [411564.458287192, 5656186.89256792], 1e-3);
  });

  it('reads GML 3.1 MultiPoint, MultiCurve and MultiSurface in ETRS89-LAEA, whose URN puts northing first', async () => {
    const out = await importText(fixture('places-gml31-laea-multi.gml'));
    assert.deepEqual(
      out.map((f) => f.geometry?.type),
      ['MultiPoint', 'MultiLineString', 'MultiPolygon'],
    );
    near(out[0].geometry?.coordinates[0], [13.7383, 51.0504]);
    near(out[1].geometry?.coordinates[0][2], [13.75, 51.055]);
    near(out[2].geometry?.coordinates[0][1][0], [13.76, 51.035]);
  });

  it('keeps longitude first for EPSG:4326 and swaps for the http URI form', async () => {
    const point = '<gml:Point srsName="SRS"><gml:pos>13.7 51.0</gml:pos></gml:Point>';
    assert.deepEqual((await importText(gml32(point)))[0].geometry?.coordinates, [13.7, 51.0]);
    const uri = 'http://www.opengis.net/def/crs/EPSG/0/4326';
    assert.deepEqual((await importText(gml32(point, uri)))[0].geometry?.coordinates, [51.0, 13.7]);
  });

  it('reads 3D posLists, gml:coord, Curve segments and Surface patches', async () => {
    const line3d = '<gml:LineString srsName="SRS" srsDimension="3"><gml:posList>1 2 3 4 5 6</gml:posList></gml:LineString>';
    assert.deepEqual((await importText(gml32(line3d)))[0].geometry?.coordinates, [
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const coord = '<gml:Point srsName="SRS"><gml:coord><gml:X>7</gml:X><gml:Y>8</gml:Y></gml:coord></gml:Point>';
    assert.deepEqual((await importText(gml32(coord)))[0].geometry?.coordinates, [7, 8]);
    const curve =
      '<gml:Curve srsName="SRS"><gml:segments><gml:LineStringSegment><gml:posList>0 0 1 1</gml:posList></gml:LineStringSegment>' +
      '<gml:LineStringSegment><gml:posList>1 1 2 0</gml:posList></gml:LineStringSegment></gml:segments></gml:Curve>';
    assert.deepEqual((await importText(gml32(curve)))[0].geometry?.coordinates, [
      [0, 0],
      [1, 1],
      [2, 0],
    ]);
    const surface =
      '<gml:Surface srsName="SRS"><gml:patches><gml:PolygonPatch><gml:exterior><gml:LinearRing>' +
      '<gml:posList>0 0 1 0 1 1 0 0</gml:posList></gml:LinearRing></gml:exterior></gml:PolygonPatch></gml:patches></gml:Surface>';
    assert.equal((await importText(gml32(surface)))[0].geometry?.type, 'Polygon');
    const composite =
      '<gml:CompositeCurve srsName="SRS"><gml:curveMember><gml:LineString><gml:posList>0 0 1 1</gml:posList></gml:LineString></gml:curveMember>' +
      '<gml:curveMember><gml:LineString><gml:posList>1 1 2 2</gml:posList></gml:LineString></gml:curveMember></gml:CompositeCurve>';
    assert.deepEqual((await importText(gml32(composite)))[0].geometry?.coordinates, [
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    const ring =
      '<gml:Polygon srsName="SRS"><gml:exterior><gml:Ring><gml:curveMember><gml:LineString><gml:posList>0 0 2 0 2 2</gml:posList>' +
      '</gml:LineString></gml:curveMember><gml:curveMember><gml:LineString><gml:posList>2 2 0 0</gml:posList></gml:LineString>' +
      '</gml:curveMember></gml:Ring></gml:exterior></gml:Polygon>';
    assert.deepEqual((await importText(gml32(ring)))[0].geometry?.coordinates, [
      [
        [0, 0],
        [2, 0],
        [2, 2],
        [0, 0],
      ],
    ]);
    const box =
      '<gml:Envelope srsName="SRS"><gml:lowerCorner>1 2</gml:lowerCorner><gml:upperCorner>3 4</gml:upperCorner></gml:Envelope>';
    assert.deepEqual((await importText(gml32(box)))[0].geometry?.coordinates[0][2], [3, 4]);
  });

  it('decodes the predefined entities and character references in text and attributes, nothing else', async () => {
    const text = `<FeatureCollection><featureMember><a:x xmlns:a="urn:a" id="x&amp;1"><a:name>Kies &amp; Sand &lt;M&#228;rz&#x21;&gt;</a:name>
      <a:raw>&unknown;</a:raw></a:x></featureMember></FeatureCollection>`;
    const [f] = await importText(text);
    assert.equal(f.id, 'x&1');
    assert.deepEqual(f.properties, { name: 'Kies & Sand <März!>', raw: '&unknown;' });
    assert.equal(f.geometry, null);
  });

  it('reads featureMembers, nested collections in wfs:member, comments and CDATA between and inside members', async () => {
    const text = `<?xml version="1.0"?>
<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:a="urn:a">
  <gml:boundedBy><gml:Envelope srsName="EPSG:25833"><gml:lowerCorner>0 0</gml:lowerCorner><gml:upperCorner>1 1</gml:upperCorner></gml:Envelope></gml:boundedBy>
  <!-- <wfs:member> in a comment is no member -->
  <gml:featureMembers>
    <a:p gml:id="p1" note="a > b"><a:geom><gml:Point><gml:pos>411564.458287192 5656186.89256792</gml:pos></gml:Point></a:geom></a:p>
    <a:p gml:id="p2"><a:text><![CDATA[</gml:featureMembers> <x>]]></a:text></a:p>
  </gml:featureMembers>
  <wfs:member>
    <wfs:FeatureCollection><wfs:member><a:q gml:id="q1"><a:n>1</a:n></a:q></wfs:member><wfs:member><a:q gml:id="q2"/></wfs:member></wfs:FeatureCollection>
  </wfs:member>
  <wfs:member/>
</wfs:FeatureCollection>`;
    const out = await importText(text);
    assert.deepEqual(
      out.map((f) => f.id),
      ['p1', 'p2', 'q1', 'q2'],
    );
    near(out[0].geometry?.coordinates, [13.7383, 51.0504]);
    assert.equal(out[1].properties.text, '</gml:featureMembers> <x>');
    assert.deepEqual(out[2].properties, { n: 1 });
  });

  it('uses the crs setting instead of the srsName', async () => {
    const point = '<gml:Point srsName="EPSG:4326"><gml:pos>411564.458287192 5656186.89256792</gml:pos></gml:Point>';
    const out = await importText(gml32(point), { crs: one('EPSG:25833') });
    near(out[0].geometry?.coordinates, [13.7383, 51.0504]);
  });

  it('fails naming the feature index for a broken geometry, and line and column for broken XML', async () => {
    const text = gml32('<gml:LineString srsName="SRS"><gml:posList>1 2 3</gml:posList></gml:LineString>');
    await rejectsWith(importText(text), 'gml_geometry_invalid', { index: 0, type: 'LineString', source: 'text[0]' });
    await rejectsWith(importText(gml32('<gml:Point><gml:pos>1 x</gml:pos></gml:Point>')), 'gml_geometry_invalid');
    await rejectsWith(importText('<a>\n  <b></a>'), 'xml_invalid', { line: 2, source: 'text[0]' });
    await rejectsWith(importText('<html><body>no GML</body></html>'), 'gml_no_collection', { root: 'html' });
    await rejectsWith(run({}), 'no_gml_input');
    await rejectsWith(run({ file: one('missing.gml') }), 'file_unreadable');
  });

  it('refuses XXE and billion-laughs documents before parsing', async () => {
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<FeatureCollection>&x;</FeatureCollection>';
    await rejectsWith(importText(xxe), 'xml_doctype', { line: 2 });
    const lol = '<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><FeatureCollection>&b;</FeatureCollection>';
    await rejectsWith(importText(lol), 'xml_doctype');
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run({ text: one(fixture('places-gml32.gml')) }, fakeFiles({}), ctx), /stopped/);
  });
});

describeReasons('geodata-services', servicesFailure, en, de);
