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
});
