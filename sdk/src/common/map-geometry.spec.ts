import assert from 'node:assert/strict';
import { featuresBbox, fitBbox, hasCoordinates, isBbox, mappableFeatures, tileUrlTemplate } from './map-geometry';

describe('map geometry (spec 001 §5.2, spec 000 §2)', () => {
  it('accepts a Point only with at least 2 coordinates', () => {
    assert.equal(hasCoordinates({ type: 'Point', coordinates: [7, 51] }), true);
    assert.equal(hasCoordinates({ type: 'Point', coordinates: [7, 51, 100] }), true);
    assert.equal(hasCoordinates({ type: 'Point', coordinates: [7] }), false);
    assert.equal(hasCoordinates({ type: 'Point', coordinates: [] }), false);
  });

  it('accepts a line with at least 1 point and a polygon only with a ring of more than 2 points', () => {
    assert.equal(hasCoordinates({ type: 'LineString', coordinates: [[7, 51]] }), true);
    assert.equal(hasCoordinates({ type: 'LineString', coordinates: [] }), false);
    const ring = [
      [7, 51],
      [8, 51],
      [8, 52],
    ];
    assert.equal(hasCoordinates({ type: 'Polygon', coordinates: [ring] }), true);
    assert.equal(hasCoordinates({ type: 'Polygon', coordinates: [ring.slice(0, 2)] }), false);
    assert.equal(hasCoordinates({ type: 'MultiPolygon', coordinates: [[ring]] }), true);
    assert.equal(hasCoordinates({ type: 'MultiPolygon', coordinates: [] }), false);
  });

  it('refuses geometry without a type or coordinates, and collections without members that pass', () => {
    assert.equal(hasCoordinates(null), false);
    assert.equal(hasCoordinates({ coordinates: [7, 51] }), false);
    assert.equal(hasCoordinates({ type: 'Point' }), false);
    assert.equal(hasCoordinates({ type: 'Point', coordinates: ['7', '51'] }), false);
    assert.equal(hasCoordinates({ type: 'GeometryCollection', geometries: [] }), false);
    assert.equal(hasCoordinates({ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] }), true);
  });

  it('keeps only the mappable features and finds their bbox together with an extra one', () => {
    const features = [
      { geometry: { type: 'Point', coordinates: [7, 51] } },
      { geometry: { type: 'Point', coordinates: [9, 53] }, properties: { a: 1 } },
      { geometry: null },
    ];
    assert.equal(mappableFeatures(features).features.length, 2);
    assert.deepEqual(featuresBbox(features), [7, 51, 9, 53]);
    assert.deepEqual(featuresBbox(features, [6, 50, 8, 52]), [6, 50, 9, 53]);
    assert.equal(featuresBbox([{ geometry: null }]), undefined);
  });

  it('pads a fitted bbox by 7 px and never zooms past level 19', () => {
    const [w, s, e, n] = fitBbox([0, 0, 10, 10], 114, 114);
    assert.ok(Math.abs(w - -0.7) < 1e-9 && Math.abs(e - 10.7) < 1e-9, `${w} ${e}`);
    assert.ok(Math.abs(s - -0.7) < 1e-9 && Math.abs(n - 10.7) < 1e-9);
    // A point: the span is what 100 px show at zoom 19 at the equator (about 30 m, 0.00027°).
    const p = fitBbox([7, 0, 7, 0], 100, 100);
    assert.ok(p[2] - p[0] > 0.00025 && p[2] - p[0] < 0.0003, String(p[2] - p[0]));
  });

  it('checks bboxes', () => {
    assert.equal(isBbox([0, 0, 1, 1]), true);
    assert.equal(isBbox([1, 0, 0, 1]), false);
    assert.equal(isBbox([0, 0, 1]), false);
    assert.equal(isBbox([0, 0, 1, 100]), false);
  });

  it('turns a tile address into a z/x/y template with png as the default extension', () => {
    assert.equal(tileUrlTemplate('https://tiles.example/{z}/{x}/{y}.jpg'), 'https://tiles.example/{z}/{x}/{y}.jpg');
    assert.equal(tileUrlTemplate('https://tiles.example/osm/'), 'https://tiles.example/osm/{z}/{x}/{y}.png');
    assert.equal(tileUrlTemplate(''), undefined);
    assert.equal(tileUrlTemplate(null), undefined);
  });
});
