import assert from 'node:assert/strict';
import { esc, GmlWriter } from './wfs-gml';

describe('services: GML text of the WFS', () => {
  it('escapes the five XML specials, drops control characters XML cannot hold and keeps tabs and line breaks', () => {
    assert.equal(esc('Straße 1'), 'Straße 1');
    assert.equal(esc(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&apos;f');
    assert.equal(esc('x\u0000y\u0007z\u001f'), 'xyz');
    assert.equal(esc('a\tb\nc\rd'), 'a\tb\nc\rd');
  });

  it('writes a feature with its properties as XML names, escaped, nulls left out', () => {
    const gml = new GmlWriter('3.2', 'urn:ogc:def:crs:EPSG::4326', true);
    const one = gml.feature(
      'baeume',
      7,
      { type: 'Point', coordinates: [7, 51] },
      { 'art name': 'Eiche & Buche', leer: null, n: 2 },
    );
    assert.equal(
      one,
      '<wb:baeume gml:id="baeume.7"><wb:geometry><gml:Point gml:id="baeume.7.geom" srsName="urn:ogc:def:crs:EPSG::4326">' +
        '<gml:pos srsDimension="2">51 7</gml:pos></gml:Point></wb:geometry><wb:art_name>Eiche &amp; Buche</wb:art_name><wb:n>2</wb:n></wb:baeume>',
    );
    // The second feature reuses the names worked out for the first.
    assert.match(gml.feature('baeume', 8, null, { 'art name': 'Linde' }), /<wb:art_name>Linde<\/wb:art_name>/);
  });

  it('writes multi geometries with their members named, holes, any id made a gml:id, and GML 3.1.1 without geometry ids', () => {
    const gml = new GmlWriter('3.2', 'urn:ogc:def:crs:EPSG::4326', true);
    const multi = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
        [
          [
            [2, 2],
            [3, 2],
            [3, 3],
            [2, 2],
          ],
          [
            [2.1, 2.1],
            [2.2, 2.1],
            [2.2, 2.2],
            [2.1, 2.1],
          ],
        ],
      ],
    };
    assert.equal(
      gml.feature('wald', 'a b&c', multi, { n: 1.5, o: { a: [1, '<'] }, b: false }),
      '<wb:wald gml:id="wald.a_b_c"><wb:geometry><gml:MultiSurface gml:id="wald.a_b_c.geom" srsName="ur' +
        'n:ogc:def:crs:EPSG::4326"><gml:surfaceMember><gml:Polygon gml:id="wald.a_b_c.geom.0"><gml:exteri' +
        'or><gml:LinearRing><gml:posList srsDimension="2">0 0 0 1 1 1 0 0</gml:posList></gml:LinearRing><' +
        '/gml:exterior></gml:Polygon></gml:surfaceMember><gml:surfaceMember><gml:Polygon gml:id="wald.a_b' +
        '_c.geom.1"><gml:exterior><gml:LinearRing><gml:posList srsDimension="2">2 2 2 3 3 3 2 2</gml:posL' +
        'ist></gml:LinearRing></gml:exterior><gml:interior><gml:LinearRing><gml:posList srsDimension="2">' +
        '2.1 2.1 2.1 2.2 2.2 2.2 2.1 2.1</gml:posList></gml:LinearRing></gml:interior></gml:Polygon></gml' +
        ':surfaceMember></gml:MultiSurface></wb:geometry><wb:n>1.5</wb:n><wb:o>{&quot;a&quot;:[1,&quot;&l' +
        't;&quot;]}</wb:o><wb:b>false</wb:b></wb:wald>',
    );
    const old = new GmlWriter('3.1.1', 'EPSG:25832', false);
    const collection = {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 2] },
        {
          type: 'MultiLineString',
          coordinates: [
            [
              [1, 2],
              [3, 4],
            ],
          ],
        },
      ],
    };
    assert.equal(
      old.feature('wald', -3, collection, null),
      '<wb:wald gml:id="wald.-3"><wb:geometry><gml:MultiGeometry srsName="EPSG:25832"><gml:geometryMemb' +
        'er><gml:Point><gml:pos srsDimension="2">1 2</gml:pos></gml:Point></gml:geometryMember><gml:geome' +
        'tryMember><gml:MultiCurve><gml:curveMember><gml:LineString><gml:posList>1 2 3 4</gml:posList></g' +
        'ml:LineString></gml:curveMember></gml:MultiCurve></gml:geometryMember></gml:MultiGeometry></wb:g' +
        'eometry></wb:wald>',
    );
  });
});
