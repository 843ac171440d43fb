import assert from 'node:assert/strict';
import type { ApiError, FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { rowsToFeaturesFunction } from './rows-to-features';
import { fakeRunContext } from '@werkbank/testing/node';

const one = (value: unknown): FrameItems => [{ value }];
const rows = (...values: Record<string, unknown>[]): FrameItems => values.map((value) => ({ value }));

async function features(items: FrameItems, params: FunctionInputs = {}) {
  const out = await rowsToFeaturesFunction.run({ rows: items, ...params }, fakeRunContext());
  return out.features;
}

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown>) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

describe('rows.to_features', () => {
  it('makes points from the x and y columns, the other columns becoming properties', async () => {
    const out = await features(rows({ x: 13.4, y: 52.5, name: 'Berlin' }, { x: '9,99', y: ' 53.55 ', name: 'Hamburg' }));
    assert.deepEqual(out, [
      { feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [13.4, 52.5] }, properties: { name: 'Berlin' } } },
      { feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [9.99, 53.55] }, properties: { name: 'Hamburg' } } },
    ]);
  });

  it('labels the features with the CRS crs names, and refuses one that is no EPSG code (issue 14 item 3)', async () => {
    const [out] = await features(rows({ x: 470000, y: 5550000 }), { crs: one('25832') });
    assert.deepEqual((out.feature as { crs?: unknown }).crs, {
      type: 'name',
      properties: { name: 'urn:ogc:def:crs:EPSG::25832' },
    });
    const [wgs84] = await features(rows({ x: 8.5, y: 50 }), { crs: one('EPSG:4326') });
    assert.equal('crs' in (wgs84.feature as object), false);
    await rejectsWith(features(rows({ x: 1, y: 2 }), { crs: one('UTM 32') }), 'crs_invalid', { crs: 'UTM 32' });
  });

  it('takes the coordinate columns named by x and y', async () => {
    const out = await features(rows({ rechts: 389000, hoch: 5819000, id: 1 }), { x: one('rechts'), y: one('hoch') });
    assert.deepEqual(out[0].feature, {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [389000, 5819000] },
      properties: { id: 1 },
    });
  });

  it('gives a feature without geometry for a row whose coordinates are both empty', async () => {
    const out = await features(rows({ x: null, y: '', id: 1 }));
    assert.deepEqual(out[0].feature, { type: 'Feature', geometry: null, properties: { id: 1 } });
  });

  it('names the row and column of a coordinate that is not a number, empty alone, or missing', async () => {
    await rejectsWith(features(rows({ x: 1, y: 2 }, { x: 'Nord', y: 2 })), 'not_a_coordinate', {
      row: 1,
      column: 'x',
      value: 'Nord',
    });
    await rejectsWith(features(rows({ x: 1, y: null })), 'missing_coordinate', { row: 0, column: 'y' });
    await rejectsWith(features(rows({ lon: 1, lat: 2 })), 'missing_column', { row: 0, column: 'x' });
  });

  it('reads geometries from a WKT column, EWKT with an SRID prefix too', async () => {
    const out = await features(
      rows(
        { geom: 'POLYGON ((0 0, 1 0, 1 1, 0 0))', id: 1 },
        { geom: 'SRID=25833;POINT (389000 5819000)', id: 2 },
        { geom: '', id: 3 },
      ),
      { wkt: one('geom') },
    );
    assert.deepEqual(
      out.map((f) => f.feature),
      [
        {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
          properties: { id: 1 },
        },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [389000, 5819000] }, properties: { id: 2 } },
        { type: 'Feature', geometry: null, properties: { id: 3 } },
      ],
    );
  });

  it('names the row, column and character of broken WKT', async () => {
    await rejectsWith(features(rows({ geom: 'POINT (1 2)' }, { geom: 'POINT (1' }), { wkt: one('geom') }), 'invalid_wkt', {
      row: 1,
      column: 'geom',
      position: 9,
    });
  });

  it('refuses items that are not rows', async () => {
    await rejectsWith(features([{ value: 5 }]), 'not_a_row', { item: 'rows[0]' });
  });
});
