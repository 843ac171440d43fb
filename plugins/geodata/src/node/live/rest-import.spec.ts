import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { GuardedFetcher } from '@werkbank/testing/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { restImport } from './rest-import';
import { REST_LIVEDATASET } from './live-dataset-types';
import { select } from './rest-jsonpath';

/** Bike stations as city JSON services send them: a list under a member, coordinates as numbers or texts. */
const STATIONS = {
  network: {
    name: 'Stadtrad',
    stations: [
      { id: 'a1', name: 'Rathaus', position: { lat: 53.5503, lng: 9.9922 }, free: 7, meta: { operator: 'DB' } },
      { id: 'a2', name: 'Jungfernstieg', position: { lat: '53.5531', lng: '9.9930' }, free: 0, meta: { operator: 'DB' } },
    ],
  },
};

describe('rest.import', () => {
  let server: http.Server;
  let base: string;
  /** What the service answers at /stations, changed by tests. */
  let body: string;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/stations') res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
      else if (req.url === '/list')
        res.writeHead(200, { 'content-type': 'application/json' }).end('[{"lat":50,"lon":7,"n":"x"}]');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => (body = JSON.stringify(STATIONS)));
  after(() => {
    server.close();
    server.closeAllConnections();
  });

  const net = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes: 1e8 });
  const run = (inputs: FunctionInputs, ctx = fakeRunContext()) => restImport(() => net).run(inputs, ctx);
  const stations = (fields: Record<string, unknown> = {}) => ({
    dataset: [
      {
        ...REST_LIVEDATASET.template,
        origin: `${base}/stations`,
        jp_obj_root: '$.network.stations[*]',
        jp_lat: '$.position.lat',
        jp_lon: '$.position.lng',
        ...fields,
      },
    ],
  });
  const features = (items: FrameItems) =>
    items.map((i) => i.feature as { geometry: { coordinates: number[] }; properties: Record<string, unknown> });

  it('turns the objects jp_obj_root selects into points at jp_lon/jp_lat, keeping the listed properties', async () => {
    const ctx = fakeRunContext();
    const out = await run(stations({ properties: ['$.name', '$.free', '$.meta.operator'] }), ctx);
    assert.deepEqual(features(out.features), [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [9.9922, 53.5503] },
        properties: { name: 'Rathaus', free: 7, operator: 'DB' },
      },
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [9.993, 53.5531] },
        properties: { name: 'Jungfernstieg', free: 0, operator: 'DB' },
      },
    ]);
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('keeps every member without a properties list, and reads a top-level array with the default root $[*]', async () => {
    const out = await run(stations());
    assert.deepEqual(Object.keys(features(out.features)[0].properties), ['id', 'name', 'position', 'free', 'meta']);
    const list = await run({ dataset: [{ origin: `${base}/list`, jp_lat: '$.lat', jp_lon: '$.lon' }] });
    assert.deepEqual(features(list.features)[0].geometry.coordinates, [7, 50]);
  });

  it('refuses script and filter expressions, and jsonpath-plus refuses them too (eval: false)', async () => {
    for (const path of ['$[?(@.free > 0)]', '$[(@.length-1)]'])
      await assert.rejects(run(stations({ jp_obj_root: path })), (e: ApiError) => {
        assert.equal(e.code, 'jsonpath_script');
        assert.deepEqual(e.params, { setting: 'jp_obj_root', path, source: 'dataset[0]', context: 'source' });
        return true;
      });
    // The second line of defence: the library itself does not evaluate a script.
    let evaluated = false;
    (globalThis as Record<string, unknown>).__jsonpathProbe = () => (evaluated = true);
    assert.throws(() => select('$[?(__jsonpathProbe())]', [{ a: 1 }], 'jp_obj_root'), { code: 'jsonpath_script' });
    delete (globalThis as Record<string, unknown>).__jsonpathProbe;
    assert.equal(evaluated, false);
  });

  it('names the object with a missing or out-of-range coordinate', async () => {
    body = JSON.stringify({ network: { stations: [STATIONS.network.stations[0], { name: 'nowhere', position: {} }] } });
    await assert.rejects(run(stations()), (e: ApiError) => {
      assert.equal(e.code, 'coordinate_invalid');
      assert.deepEqual(e.params, {
        index: 1,
        setting: 'jp_lon',
        path: '$.position.lng',
        value: 'null',
        source: 'dataset[0]',
        context: 'source',
      });
      return true;
    });
    body = JSON.stringify([{ lat: 95, lon: 7 }]);
    await assert.rejects(run(stations({ jp_obj_root: '$[*]', jp_lat: '$.lat', jp_lon: '$.lon' })), {
      code: 'coordinate_invalid',
      params: { index: 0, setting: 'jp_lat', path: '$.lat', value: '95', source: 'dataset[0]', context: 'source' },
    });
  });

  it('names line and column of broken JSON, and refuses items that are no objects', async () => {
    body = '{\n  "network": {\n    "stations": [1, 2,]\n  }\n}';
    await assert.rejects(run(stations()), (e: ApiError) => {
      assert.equal(e.code, 'rest_invalid_json');
      assert.deepEqual([e.params.line, e.params.column], [3, 23]);
      return true;
    });
    body = '{"network": {"stations": [1]}}';
    await assert.rejects(run(stations()), {
      code: 'rest_not_object',
      params: { index: 0, path: '$.network.stations[*]', source: 'dataset[0]', context: 'source' },
    });
  });

  it('reports progress while it turns many objects into features, and stops there when the run is aborted', async () => {
    body = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ lat: 50, lon: 7, i })));
    const ctx = fakeRunContext();
    const progress = ctx.progress;
    ctx.progress = (f) => {
      progress(f);
      ctx.controller.abort(new Error('stopped by the user'));
    };
    await assert.rejects(run(stations({ jp_obj_root: '$[*]', jp_lat: '$.lat', jp_lon: '$.lon' }), ctx), /stopped by the user/);
    assert.deepEqual(ctx.progresses, [0.4]);
  });

  it('refuses empty coordinate paths, paths not starting at $, and an update interval below one second', async () => {
    await assert.rejects(run(stations({ jp_lat: '' })), { code: 'jsonpath_missing' });
    await assert.rejects(run(stations({ jp_lat: 'position.lat' })), { code: 'jsonpath_invalid' });
    await assert.rejects(run(stations({ update_interval: 0 })), { code: 'setting_invalid' });
  });
});
