import assert from 'node:assert/strict';
import type { ApiError, FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { esriToGeoJson } from './esri-json';
import { fixture, one, param, serviceFunction, startService, type Answer, type TestService } from './services-test-server';
import { near } from '../vector/vector-test-helpers';

type Feature = { id?: unknown; geometry: { type: string; coordinates: any } | null; properties: Record<string, unknown> };
const features = (out: Record<string, FrameItems>) => out.features.map((f) => f.feature as Feature);

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

const json = (body: unknown): Answer => ({
  type: 'application/json',
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** Query pages of the trees (GeoJSON, resultOffset/resultRecordCount) as ArcGIS answers them. */
function treesPage(url: URL): Answer {
  if (param(url, 'f') !== 'geojson' || param(url, 'where') !== '1=1' || param(url, 'outFields') !== '*')
    return json({ error: { code: 400, message: 'Invalid query' } });
  const all = JSON.parse(fixture('arcgis-baeume.geojson')) as { features: unknown[] };
  const offset = Number(param(url, 'resultOffset'));
  const count = Number(param(url, 'resultRecordCount'));
  const more = offset + count < all.features.length;
  return json({
    type: 'FeatureCollection',
    features: all.features.slice(offset, offset + count),
    properties: { exceededTransferLimit: more },
  });
}

/** The green spaces layer without pagination: ids first, then features by id (Esri JSON in EPSG:25833). */
function greenPage(url: URL): Answer {
  const all = JSON.parse(fixture('arcgis-gruenflaechen-esri.json')) as { features: Array<{ attributes: { OBJECTID: number } }> };
  if (param(url, 'returnIdsOnly') === 'true') return json({ objectIdFieldName: 'OBJECTID', objectIds: [2, 1] });
  const ids = param(url, 'objectIds');
  if (!ids) return json({ ...all, features: all.features.slice(0, 1), exceededTransferLimit: true });
  const wanted = ids.split(',').map(Number);
  return json({ ...all, features: all.features.filter((f) => wanted.includes(f.attributes.OBJECTID)) });
}

let onRequest: (url: URL) => void = () => undefined;

function route(url: URL): Answer {
  onRequest(url);
  const path = url.pathname.replace(/^\/arcgis\/rest\/services/, '');
  const layers: Record<string, string> = {
    '/Gruen/FeatureServer': 'arcgis-featureserver.json',
    '/Gruen/FeatureServer/0': 'arcgis-layer-0.json',
    '/Gruen/FeatureServer/1': 'arcgis-layer-1.json',
    '/Stadt/MapServer': 'arcgis-mapserver.json',
    '/Stadt/MapServer/0': 'arcgis-layer-0.json',
    '/Stadt/MapServer/1': 'arcgis-layer-raster.json',
    '/Token/FeatureServer': 'arcgis-error.json',
    '/Broken/FeatureServer': 'arcgis-featureserver.json',
    '/Broken/FeatureServer/0': 'arcgis-layer-0.json',
    '/Repeat/FeatureServer': 'arcgis-featureserver.json',
    '/Repeat/FeatureServer/0': 'arcgis-layer-0.json',
  };
  if (layers[path] && param(url, 'f') === 'json') return json(fixture(layers[path]));
  if (path === '/Gruen/FeatureServer/0/query' || path === '/Stadt/MapServer/0/query') return treesPage(url);
  if (path === '/Gruen/FeatureServer/1/query') return greenPage(url);
  if (path === '/Broken/FeatureServer/0/query') return json({ features: 'none' });
  if (path === '/Repeat/FeatureServer/0/query') return treesPage(new URL(url.href.replace(/resultOffset=\d+/, 'resultOffset=0')));
  if (path === '/Html/FeatureServer') return { type: 'text/html', body: '<html>Anmeldung</html>' };
  return undefined;
}

describe('arcgis.featureserver.import and arcgis.mapserver.import', () => {
  let service: TestService;
  let root: string;
  before(async () => {
    service = await startService(route);
    root = `${service.base}/arcgis/rest/services`;
  });
  after(() => service.close());
  beforeEach(() => {
    service.requests.length = 0;
    onRequest = () => undefined;
  });

  const run = (id: string, inputs: FunctionInputs, ctx: FakeRunContext = fakeRunContext()) =>
    serviceFunction(id).run(inputs, ctx);

  it('pages a GeoJSON layer in steps of maxRecordCount while exceededTransferLimit is set', async () => {
    const out = features(await run('arcgis.featureserver.import', { url: one(`${root}/Gruen/FeatureServer/0`) }));
    assert.deepEqual(
      out.map((f) => f.properties.art),
      ['Linde', 'Eiche', 'Ahorn', 'Kastanie', 'Buche'],
    );
    assert.deepEqual(out[0].geometry, { type: 'Point', coordinates: [13.7383, 51.0504] });
    const queries = service.requests.filter((r) => r.includes('/query')).map((r) => new URL(r, service.base));
    assert.deepEqual(
      queries.map((q) => [param(q, 'resultOffset'), param(q, 'resultRecordCount'), param(q, 'orderByFields')]),
      [
        ['0', '2', 'OBJECTID'],
        ['2', '2', 'OBJECTID'],
        ['4', '2', 'OBJECTID'],
      ],
    );
  });

  it('reads every layer of a service root; Esri JSON without pagination by object ids, polygons with holes, reprojected', async () => {
    const ctx = fakeRunContext();
    const out = features(await run('arcgis.featureserver.import', { url: one(`${root}/Gruen/FeatureServer/?f=pjson`) }, ctx));
    assert.equal(out.length, 7);
    const [garden, beds] = out.slice(5);
    assert.equal(garden.id, 1);
    assert.deepEqual(garden.properties, { OBJECTID: 1, name: 'Großer Garten' });
    assert.equal(garden.geometry?.type, 'Polygon');
    assert.equal(garden.geometry?.coordinates.length, 2, 'the counter-clockwise ring is a hole');
    near(garden.geometry?.coordinates[0][0], [13.7383, 51.0504], 1e-4);
    assert.equal(beds.geometry?.type, 'MultiPolygon', 'two clockwise rings are two polygons');
    assert.ok(service.requests.some((r) => r.includes('returnIdsOnly=true')));
    assert.ok(service.requests.some((r) => r.includes('objectIds=1&') || r.endsWith('objectIds=1')));
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('stops when the service repeats a page (it ignores resultOffset)', async () => {
    const ctx = fakeRunContext();
    const out = features(await run('arcgis.featureserver.import', { url: one(`${root}/Repeat/FeatureServer/0`) }, ctx));
    assert.deepEqual(
      out.map((f) => f.id),
      [1, 2],
    );
    assert.equal(service.requests.filter((r) => r.includes('/query')).length, 2);
    assert.ok(ctx.logs.some((l) => l.includes('ignores resultOffset')));
  });

  it('max_features stops reading', async () => {
    const out = features(
      await run('arcgis.featureserver.import', { url: one(`${root}/Gruen/FeatureServer/0`), max_features: one(3) }),
    );
    assert.equal(out.length, 3);
  });

  it('mapserver: feature layers through query (raster layers skipped) and the tile cache as a wmts datum', async () => {
    const out = await run('arcgis.mapserver.import', { url: one(`${root}/Stadt/MapServer`) });
    assert.equal(out.features.length, 5);
    assert.equal(out.tiles.length, 1);
    const tiles = out.tiles[0] as { tms_url: string; bbox: number[] };
    assert.equal(tiles.tms_url, `${root}/Stadt/MapServer/tile/{z}/{y}/{x}`);
    near(tiles.bbox, [13.56456, 50.87946, 14.01372, 51.162], 1e-5); // cs2cs EPSG:3857 EPSG:4326
    assert.equal(service.requests.filter((r) => r.includes('MapServer/1/query')).length, 0);
  });

  it('reports ArcGIS error JSON, answers that are no ArcGIS and addresses of the wrong kind', async () => {
    await rejectsWith(run('arcgis.featureserver.import', { url: one(`${root}/Token/FeatureServer`) }), 'arcgis_error', {
      code: '499',
      message: 'Token Required',
    });
    await rejectsWith(
      run('arcgis.featureserver.import', { url: one(`${root}/Broken/FeatureServer/0`) }),
      'arcgis_answer_invalid',
    );
    await rejectsWith(run('arcgis.featureserver.import', { url: one(`${root}/Html/FeatureServer`) }), 'not_json', {
      line: 1,
      column: 1,
    });
    await rejectsWith(run('arcgis.featureserver.import', { url: one(`${root}/Stadt/MapServer`) }), 'arcgis_url_invalid', {
      kind: 'FeatureServer',
    });
    await rejectsWith(run('arcgis.mapserver.import', { url: one(`${root}/Missing/MapServer`) }), 'fetch_status');
  });

  it('stops paging when the run is aborted', async () => {
    const ctx = fakeRunContext();
    onRequest = (url) => {
      if (param(url, 'resultOffset') === '2') ctx.controller.abort(new Error('stopped by the user'));
    };
    await assert.rejects(
      run('arcgis.featureserver.import', { url: one(`${root}/Gruen/FeatureServer/0`) }, ctx),
      /stopped by the user/,
    );
    assert.equal(service.requests.filter((r) => r.includes('resultOffset=4')).length, 0);
  });

  it('converts Esri JSON geometries: points, multipoints, paths, envelopes, empty and invalid ones', () => {
    assert.deepEqual(esriToGeoJson({ x: 1, y: 2, z: 3 }, 0), { type: 'Point', coordinates: [1, 2, 3] });
    assert.equal(esriToGeoJson({ x: null, y: null }, 0), null);
    assert.deepEqual(esriToGeoJson({ points: [[1, 2]] }, 0), { type: 'MultiPoint', coordinates: [[1, 2]] });
    assert.deepEqual(
      esriToGeoJson(
        {
          paths: [
            [
              [0, 0],
              [1, 1],
            ],
          ],
        },
        0,
      ),
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    );
    assert.equal(
      esriToGeoJson(
        {
          paths: [
            [
              [0, 0],
              [1, 1],
            ],
            [
              [2, 2],
              [3, 3],
            ],
          ],
        },
        0,
      )?.type,
      'MultiLineString',
    );
    assert.deepEqual(esriToGeoJson({ xmin: 0, ymin: 0, xmax: 1, ymax: 2 }, 0)?.coordinates, [
      [
        [0, 0],
        [1, 0],
        [1, 2],
        [0, 2],
        [0, 0],
      ],
    ]);
    const ring = esriToGeoJson(
      {
        rings: [
          [
            [0, 0],
            [0, 1],
            [1, 1],
            [1, 0],
            [0, 0],
          ],
        ],
      },
      0,
    );
    assert.deepEqual(
      ring?.coordinates,
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
          [0, 0],
        ],
      ],
      'written counter-clockwise (RFC 7946)',
    );
    assert.throws(
      () => esriToGeoJson({ paths: [[['a', 1]]] }, 4),
      (e: ApiError) => e.code === 'esri_geometry_invalid' && e.params.index === 4,
    );
  });
});
