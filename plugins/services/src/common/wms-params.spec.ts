import assert from 'node:assert/strict';
import {
  bgcolor,
  featureCount,
  imageFormat,
  kvp,
  scaleDenominator,
  wmsBbox,
  wmsCrs,
  wmsRequest,
  wmsSize,
  wmsVersion,
  WmsProblem,
} from './wms-params';

const problem = (fn: () => unknown, code: string) =>
  assert.throws(fn, (e: unknown) => e instanceof WmsProblem && e.code === code, `expected ${code}`);

describe('WMS parameters', () => {
  it('reads FEATURE_COUNT as a whole number of 1 or more, 1 when missing', () => {
    assert.equal(featureCount(kvp({})), 1);
    assert.equal(featureCount(kvp({ Feature_Count: ' 12 ' })), 12);
    for (const raw of ['0', '-1', '2.5', 'x', '1234567'])
      problem(() => featureCount(kvp({ FEATURE_COUNT: raw })), 'InvalidParameterValue');
  });

  it('reads names in any case and the version with its default', () => {
    const p = kvp({ SERVICE: 'wms', Request: 'getmap', version: ['1.1.1', '1.3.0'] });
    assert.equal(wmsRequest(p), 'GetMap');
    assert.equal(wmsVersion(p), '1.1.1');
    assert.equal(wmsVersion(kvp({})), '1.3.0');
    problem(() => wmsRequest(kvp({ REQUEST: 'GetCapabilities' })), 'MissingParameterValue');
    problem(() => wmsRequest(kvp({ SERVICE: 'WFS', REQUEST: 'GetMap' })), 'InvalidParameterValue');
    problem(() => wmsRequest(kvp({ SERVICE: 'WMS', REQUEST: 'Delete' })), 'OperationNotSupported');
  });

  it('reads BBOX north first for EPSG:4326 and Gauss–Krüger in 1.3.0, east first otherwise', () => {
    const box = (crs: string, bbox: string, v: '1.3.0' | '1.1.1') => wmsBbox(kvp({ BBOX: bbox }), crs, v);
    assert.deepEqual(box('EPSG:4326', '50,6,51,7', '1.3.0'), [6, 50, 7, 51]);
    assert.deepEqual(box('CRS:84', '6,50,7,51', '1.3.0'), [6, 50, 7, 51]);
    assert.deepEqual(box('EPSG:4326', '6,50,7,51', '1.1.1'), [6, 50, 7, 51]);
    assert.deepEqual(box('EPSG:31467', '5600000,3400000,5610000,3410000', '1.3.0'), [3400000, 5600000, 3410000, 5610000]);
    assert.deepEqual(box('EPSG:25832', '350000,5600000,360000,5610000', '1.3.0'), [350000, 5600000, 360000, 5610000]);
    problem(() => box('CRS:84', '7,50,6,51', '1.3.0'), 'InvalidParameterValue');
    problem(() => box('CRS:84', '-200,50,6,51', '1.3.0'), 'InvalidParameterValue');
    problem(() => box('CRS:84', '1,2,3', '1.3.0'), 'InvalidParameterValue');
  });

  it('knows the offered CRSs (SRS in 1.1.1) and limits the size', () => {
    assert.equal(wmsCrs(kvp({ crs: 'epsg:25833' }), '1.3.0'), 'EPSG:25833');
    problem(() => wmsCrs(kvp({ CRS: 'EPSG:2056' }), '1.3.0'), 'InvalidCRS');
    problem(() => wmsCrs(kvp({ SRS: 'EPSG:2056' }), '1.1.1'), 'InvalidSRS');
    assert.equal(wmsSize(kvp({ WIDTH: '4096' }), 'width', 4096), 4096);
    problem(() => wmsSize(kvp({ WIDTH: '4097' }), 'width', 4096), 'InvalidParameterValue');
    problem(() => wmsSize(kvp({ WIDTH: '0' }), 'width', 4096), 'InvalidParameterValue');
  });

  it('reads formats, colours and the OGC scale', () => {
    assert.equal(imageFormat('image/png; mode=8bit'), 'image/png');
    assert.equal(imageFormat('image/jpeg'), 'image/jpeg');
    problem(() => imageFormat('image/gif'), 'InvalidFormat');
    assert.equal(bgcolor(kvp({ BGCOLOR: '0xAbCdEf' })), '#abcdef');
    problem(() => bgcolor(kvp({ BGCOLOR: 'red' })), 'InvalidParameterValue');
    // 1,000 m over 1,000 px of 0.28 mm: 1:3571.
    assert.equal(Math.round(scaleDenominator([0, 0, 1000, 1000], 1000, 'EPSG:25832')), 3571);
  });
});
