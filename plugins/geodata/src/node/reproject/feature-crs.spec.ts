import assert from 'node:assert/strict';
import type { ApiError, FrameItems } from '@werkbank/sdk/node';
import { epsgCode } from './crs-definitions';
import { allDegrees, crsMember, featureCrs, itemsCrs, knownCrs, labelItems, labelled, portsCrs } from './feature-crs';

const point = (coordinates: unknown, crs?: string) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates },
  properties: {},
  ...(crs ? { crs: crsMember(crs) } : {}),
});
const items = (...features: unknown[]): FrameItems => features.map((feature) => ({ feature }));

const refusal = (code: string, params: Record<string, unknown>) => (e: ApiError) => {
  assert.deepEqual([e.code, e.params], [code, params]);
  return true;
};

describe('geodata reproject: the CRS of features', () => {
  it('reads an EPSG code in every spelling users write, and nothing else', () => {
    const spellings: Array<[string, number | undefined]> = [
      ['EPSG:25832', 25832],
      ['epsg:25832', 25832],
      [' 25832 ', 25832],
      ['urn:ogc:def:crs:EPSG::25832', 25832],
      ['urn:ogc:def:crs:EPSG:9.8.15:25832', 25832],
      ['URN:OGC:DEF:CRS:EPSG::3035', 3035],
      ['https://www.opengis.net/def/crs/EPSG/0/3035', 3035],
      ['http://www.opengis.net/def/crs/EPSG/0/3035', 3035],
      ['CRS84', 4326],
      ['crs84', 4326],
      ['urn:ogc:def:crs:OGC:1.3:CRS84', 4326],
      ['urn:ogc:def:crs:OGC::CRS84', 4326],
      ['http://www.opengis.net/def/crs/OGC/1.3/CRS84', 4326],
      ['EPSG:0', undefined],
      ['EPSG:1234567', undefined],
      ['EPSG:', undefined],
      ['EPSG:25832x', undefined],
      ['x25832', undefined],
      ['urn:ogc:def:crs:EPSG::25832:x', undefined],
      ['http://www.opengis.net/def/crs/EPSG/0/3035/x', undefined],
      ['http://example.org/def/crs/EPSG/0/3035', undefined],
      ['xCRS84', undefined],
      ['CRS84x', undefined],
      ['', undefined],
    ];
    for (const [name, code] of spellings) assert.equal(epsgCode(name), code, name);
  });

  it('names a CRS in the GeoJSON member by its URN', () => {
    assert.deepEqual(crsMember('EPSG:25832'), { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } });
    assert.deepEqual(crsMember('25833'), { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25833' } });
  });

  it('takes a feature without a crs member as WGS 84 and reads the member of one with it', () => {
    assert.equal(featureCrs(point([7, 50])), 'EPSG:4326');
    assert.equal(featureCrs({ ...point([7, 50]), crs: null }), 'EPSG:4326');
    assert.equal(featureCrs(undefined), 'EPSG:4326');
    assert.equal(featureCrs(point([500000, 5500000], 'EPSG:25832')), 'EPSG:25832');
    assert.equal(featureCrs({ crs: { type: 'name', properties: { name: 'CRS84' } } }), 'EPSG:4326');
  });

  it('refuses a crs member that names no EPSG code, showing what it says', () => {
    assert.throws(
      () => featureCrs({ crs: { type: 'name', properties: { name: 'Gauss-Krüger' } } }),
      refusal('crs_invalid', { crs: 'Gauss-Krüger' }),
    );
    const linked = { type: 'link', properties: { href: 'http://example.org/crs' } };
    assert.throws(() => featureCrs({ crs: linked }), refusal('crs_invalid', { crs: JSON.stringify(linked) }));
  });

  it('labels a feature with its CRS, and without a member for WGS 84, keeping the rest', () => {
    const utm = labelled({ ...point([500000, 5500000]), id: 3 }, 'EPSG:25832');
    assert.deepEqual(utm, { ...point([500000, 5500000], 'EPSG:25832'), id: 3 });
    const back = labelled(utm, 'EPSG:4326');
    assert.deepEqual(back, { ...point([500000, 5500000]), id: 3 });
    assert.equal('crs' in back, false);
  });

  it('labels the features of a frame and leaves other items as they are', () => {
    const frame: FrameItems = [{ feature: point([500000, 5500000]) }, { value: 'no feature' }, { feature: null }];
    const out = labelItems(frame, 'EPSG:25832');
    assert.deepEqual(out[0].feature, point([500000, 5500000], 'EPSG:25832'));
    assert.deepEqual(out.slice(1), frame.slice(1));
    // WGS 84 features without members are given back as they are; labelled ones lose their member.
    const plain = items(point([7, 50]));
    assert.equal(labelItems(plain, 'EPSG:4326'), plain);
    assert.deepEqual(labelItems(items(point([7, 50], 'EPSG:25832')), 'EPSG:4326'), plain);
    assert.deepEqual(
      labelItems(items(point([7, 50], 'EPSG:25832'), point([7, 50])), 'EPSG:4326'),
      items(point([7, 50]), point([7, 50])),
    );
    // An item whose feature is no object stays as it is.
    assert.deepEqual(labelItems([{ feature: 'text' }], 'EPSG:25832'), [{ feature: 'text' }]);
  });

  it('finds the one CRS of a frame; features in two CRSs are refused, naming the port and both', () => {
    assert.equal(itemsCrs([], 'features'), 'EPSG:4326');
    assert.equal(itemsCrs([{ value: 1 }, { feature: 'text' }], 'features'), 'EPSG:4326');
    const utm = point([500000, 5500000], 'EPSG:25832');
    assert.equal(itemsCrs([{ value: 1 }, ...items(utm, utm)], 'features'), 'EPSG:25832');
    // Items without a feature object do not count, wherever they are.
    assert.equal(itemsCrs([null as never, { feature: 'text' }, ...items(utm)], 'features'), 'EPSG:25832');
    assert.throws(
      () => itemsCrs(items(utm, utm, point([7, 50])), 'a'),
      refusal('crs_mixed', { port: 'a', first: 'EPSG:25832', second: 'EPSG:4326' }),
    );
  });

  it('finds the one CRS of several ports; ports in different CRSs are refused, naming both', () => {
    const utm = items(point([500000, 5500000], 'EPSG:25832'));
    assert.equal(portsCrs([]), 'EPSG:4326');
    assert.equal(
      portsCrs([
        ['a', []],
        ['b', utm],
        ['c', utm],
      ]),
      'EPSG:25832',
    );
    assert.throws(
      () =>
        portsCrs([
          ['a', utm],
          ['b', []],
          ['c', items(point([7, 50]))],
        ]),
      refusal('crs_differs', { a: 'a', crsA: 'EPSG:25832', b: 'c', crsB: 'EPSG:4326' }),
    );
  });

  it('asks for the CRS of unlabelled features whose positions are no degrees', () => {
    assert.equal(knownCrs(items(point([7, 50])), 'features'), 'EPSG:4326');
    assert.equal(knownCrs(items(point([500000, 5500000], 'EPSG:25832')), 'features'), 'EPSG:25832');
    assert.throws(() => knownCrs(items(point([500000, 5500000])), 'features'), refusal('crs_missing', { port: 'features' }));
  });

  it('tells positions that could be longitudes and latitudes, at every depth and at the edges', () => {
    const g = (geometry: unknown) => items({ type: 'Feature', geometry, properties: {} });
    assert.equal(allDegrees(g({ type: 'Point', coordinates: [180, 90] })), true);
    assert.equal(allDegrees(g({ type: 'Point', coordinates: [-180, -90] })), true);
    assert.equal(allDegrees(g({ type: 'Point', coordinates: [180.1, 0] })), false);
    assert.equal(allDegrees(g({ type: 'Point', coordinates: [-180.1, 0] })), false);
    assert.equal(allDegrees(g({ type: 'Point', coordinates: [0, 90.1] })), false);
    assert.equal(allDegrees(g({ type: 'Point', coordinates: [0, -90.1] })), false);
    const square = (x: number) => [
      [
        [0, 0],
        [x, 0],
        [x, 1],
        [0, 0],
      ],
    ];
    assert.equal(allDegrees(g({ type: 'MultiPolygon', coordinates: [square(1), square(1)] })), true);
    assert.equal(allDegrees(g({ type: 'MultiPolygon', coordinates: [square(1), square(500000)] })), false);
    const collection = (x: number) => ({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 1] },
        { type: 'LineString', coordinates: [[x, 1]] },
      ],
    });
    assert.equal(allDegrees(g(collection(2))), true);
    assert.equal(allDegrees(g(collection(200))), false);
    // Features without geometry or positions, and items without features, are no evidence.
    assert.equal(allDegrees([...g(null), ...g({ type: 'Point' }), { value: 1 }]), true);
    assert.equal(
      allDegrees([...g({ type: 'Point', coordinates: [1, 1] }), ...g({ type: 'Point', coordinates: [181, 1] })]),
      false,
    );
  });
});
