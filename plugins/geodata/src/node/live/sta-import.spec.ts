import assert from 'node:assert/strict';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { GuardedFetcher } from '@werkbank/testing/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { sensorthingsImport } from './sta-import';
import { startStaTestServer, type StaTestServer } from './sta-test-server';
import { STA_LIVEDATASET } from './live-dataset-types';

/** A fetcher as the server configures it with FETCH_ALLOWED_HOSTS=127.0.0.1 (or nothing allowed). */
const fetcher = (allowedHosts = ['127.0.0.1']) => new GuardedFetcher({ allowPrivate: false, allowedHosts, maxBytes: 1e8 });

type Props = Record<string, unknown>;
const featuresOf = (items: FrameItems) =>
  items.map((i) => i.feature as { geometry: { type: string; coordinates: number[] }; properties: Props });

describe('sensorthings.import', () => {
  let sta: StaTestServer;
  beforeEach(async () => (sta = await startStaTestServer()));
  afterEach(() => sta.close());

  const dataset = (fields: Props = {}) => ({ ...STA_LIVEDATASET.template, origin: sta.origin, ...fields });
  const run = (inputs: FunctionInputs, ctx = fakeRunContext(), net = fetcher()) => sensorthingsImport(() => net).run(inputs, ctx);

  it('gives one feature per Thing location with the Thing’s properties and each datastream’s latest observation', async () => {
    const ctx = fakeRunContext();
    const out = await run({ dataset: [dataset()] }, ctx);
    const [oven, gauge] = featuresOf(out.features);
    assert.equal(out.features.length, 2, 'the thing without a location gives no feature');
    assert.deepEqual(oven.geometry, { type: 'Point', coordinates: [-114.133, 51.08] });
    assert.equal(oven.properties.thing_id, 1);
    assert.equal(oven.properties.name, 'Oven');
    assert.equal(oven.properties.owner, 'Noah Liang');
    assert.equal(oven.properties.location_name, 'CCIT');
    assert.equal(oven.properties['oven temperature'], 71.2, 'the newest observation');
    assert.equal(oven.properties['oven temperature_time'], '2015-01-01T00:00:00.00+08:00');
    assert.equal(oven.properties['oven temperature_unit'], '°C');
    assert.equal(oven.properties['oven humidity'], null, 'a datastream without observations');
    assert.deepEqual(gauge.geometry, { type: 'Point', coordinates: [6.963, 50.937] }, 'a location given as a GeoJSON Feature');
    assert.equal(gauge.properties['water level'], 312);
    assert.equal(ctx.progresses.at(-1), 1);
    assert.match(ctx.logs.join('\n'), /3 things, 2 features, 1 things without a GeoJSON location/);
  });

  it('asks for batch_size Things per page and follows @iot.nextLink', async () => {
    const out = await run({ dataset: [dataset({ batch_size: 2 })] });
    assert.equal(out.features.length, 2);
    const pages = sta.requests.filter((r) => r.startsWith('/v1.1/Things'));
    assert.equal(pages.length, 2);
    const first = new URL(pages[0], sta.origin).searchParams;
    assert.equal(first.get('$top'), '2');
    assert.equal(first.get('$expand'), 'Locations,Datastreams($expand=Observations($top=1;$orderby=phenomenonTime desc))');
    assert.equal(new URL(pages[1], sta.origin).searchParams.get('$skip'), '2');
  });

  it('asks for 100 Things per page by default', async () => {
    await run({ dataset: [{ origin: sta.origin }] });
    assert.equal(new URL(sta.requests[0], sta.origin).searchParams.get('$top'), '100');
  });

  it('passes thing_filter and datastream_filter to the service', async () => {
    const out = await run({
      dataset: [dataset({ thing_filter: "name eq 'Oven'", datastream_filter: "name eq 'oven humidity'" })],
    });
    const [oven] = featuresOf(out.features);
    assert.equal(out.features.length, 1);
    assert.equal(oven.properties.name, 'Oven');
    assert.ok('oven humidity' in oven.properties);
    assert.ok(!('oven temperature' in oven.properties), 'the filtered datastream is left out');
    const query = new URL(sta.requests[0], sta.origin).searchParams;
    assert.equal(query.get('$filter'), "name eq 'Oven'");
    assert.match(query.get('$expand')!, /^Locations,Datastreams\(\$filter=name eq 'oven humidity';\$expand=/);
  });

  it('refuses any version but v1.1 with a message in both languages, before asking the service', async () => {
    const before: Props = { ...dataset() };
    delete before.sta_version;
    // sta_version, and version as frames written before hold it.
    for (const given of [dataset({ sta_version: 'v1.0' }), { ...before, version: 'v1.0' }]) {
      await assert.rejects(run({ dataset: [given] }), (e: ApiError) => {
        assert.equal(e.code, 'sta_version');
        assert.equal(e.key, 'geodata-live:errors.sta_version');
        assert.deepEqual(e.params, { dataset: 'dataset[0]', version: 'v1.0', supported: 'v1.1' });
        return true;
      });
    }
    assert.deepEqual(sta.requests, []);
  });

  it('takes an origin given with its version, as services show their root', async () => {
    const out = await run({ dataset: [dataset({ origin: `${sta.origin}/v1.1/` })] });
    assert.equal(out.features.length, 2);
    await assert.rejects(run({ dataset: [dataset({ origin: `${sta.origin}/v1.0` })] }), {
      code: 'sta_version',
      params: { dataset: 'dataset[0]', version: 'v1.0', supported: 'v1.1' },
    });
  });

  it('refuses an origin that is no http(s) address, a bad batch size, a non-MQTT broker address and a missing dataset', async () => {
    const code = async (inputs: FunctionInputs) => {
      try {
        await run(inputs);
      } catch (e) {
        return (e as ApiError).code;
      }
      return 'none';
    };
    assert.equal(await code({ dataset: [dataset({ origin: 'file:///etc/passwd' })] }), 'origin_invalid');
    assert.equal(await code({ dataset: [dataset({ batch_size: 0 })] }), 'setting_invalid');
    assert.equal(await code({ dataset: [dataset({ mqtt_uri: 'http://127.0.0.1:1883' })] }), 'mqtt_uri_invalid');
    assert.equal(await code({}), 'no_dataset');
  });

  it('reaches a loopback service only when the server allows it', async () => {
    await assert.rejects(run({ dataset: [dataset()] }, fakeRunContext(), fetcher([])), { code: 'url_refused' });
  });

  it('names line and column of a broken answer, and stops on a next link that repeats', async () => {
    await assert.rejects(run({ dataset: [dataset({ origin: `${sta.origin}/broken` })] }), (e: ApiError) => {
      assert.equal(e.code, 'sta_invalid_json');
      assert.equal(e.params?.line, 2);
      assert.equal(e.params?.column, 12);
      return true;
    });
    await assert.rejects(run({ dataset: [dataset({ origin: `${sta.origin}/loop` })] }), { code: 'sta_paging_loop' });
    await assert.rejects(run({ dataset: [dataset({ origin: `${sta.origin}/nothing` })] }), { code: 'fetch_status' });
  });

  it('fails an invalid location geometry naming the thing and the dataset', async () => {
    sta.things[0].locations[0].location = { type: 'Point', coordinates: 'here' };
    await assert.rejects(run({ dataset: [dataset()] }), (e: ApiError) => {
      assert.equal(e.code, 'sta_location_invalid');
      assert.deepEqual(e.params, { thing: '1', index: 0, source: 'dataset[0]', context: 'source' });
      return true;
    });
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run({ dataset: [dataset()] }, ctx), /stopped/);
  });
});
