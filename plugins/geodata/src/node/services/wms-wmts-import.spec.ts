import assert from 'node:assert/strict';
import type { ApiError, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { fixture, one, param, serviceFunction, startService, type Answer, type TestService } from './services-test-server';

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

/** WMS 1.3.0 and 1.1.1, WMTS by KVP and RESTful, and broken answers. */
function route(url: URL, base: string): Answer {
  const capabilities = param(url, 'request') === 'GetCapabilities';
  const xml = (name: string) => ({ body: fixture(name, base) });
  if (url.pathname === '/wms130' && capabilities && param(url, 'service') === 'WMS') return xml('wms-1.3.0-capabilities.xml');
  if (url.pathname === '/wms111' && capabilities) return xml('wms-1.1.1-capabilities.xml');
  if (url.pathname === '/wmts/kvp' && capabilities && param(url, 'service') === 'WMTS') return xml('wmts-1.0.0-capabilities.xml');
  if (url.pathname === '/wmts/rest/1.0.0/WMTSCapabilities.xml') return xml('wmts-1.0.0-capabilities.xml');
  if (url.pathname === '/exception') return xml('ogc-service-exception.xml');
  if (url.pathname === '/wfs') return xml('wfs-2.0.0-capabilities.xml');
  if (url.pathname === '/json') return { type: 'application/json', body: '{"layers":[]}' };
  if (url.pathname === '/lol')
    return {
      body: '<!DOCTYPE l [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><WMS_Capabilities>&b;</WMS_Capabilities>',
    };
  return undefined;
}

describe('wms.import and wmts.import', () => {
  let service: TestService;
  before(async () => {
    service = await startService(route);
  });
  after(() => service.close());

  const run = (id: string, inputs: FunctionInputs, ctx: FakeRunContext = fakeRunContext()) =>
    serviceFunction(id).run(inputs, ctx);

  it('wms.import: one wms datum per named layer of WMS 1.3.0, inheriting CRS and extent', async () => {
    const ctx = fakeRunContext();
    const out = await run('wms.import', { url: one(`${service.base}/wms130?request=GetMap&layers=x`) }, ctx);
    assert.deepEqual(out.layers, [
      {
        tms_url: `${service.base}/wms130/map?`,
        bbox: [13.57, 50.97, 13.97, 51.18],
        layers: 'strassen',
        srs: ['EPSG:4326', 'EPSG:25833', 'EPSG:3857'],
        transparent: true,
      },
      {
        tms_url: `${service.base}/wms130/map?`,
        bbox: [13.6, 51.0, 13.9, 51.1],
        layers: 'luftbild',
        srs: ['EPSG:4326', 'EPSG:25833'],
        transparent: false,
      },
    ]);
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('wms.import: WMS 1.1.1 with LatLonBoundingBox and space-separated SRS; layer picks one', async () => {
    const out = await run('wms.import', { url: one(`${service.base}/wms111`), layer: one('hoehenlinien') });
    assert.deepEqual(out.layers, [
      {
        tms_url: `${service.base}/wms111?map=dgm&`,
        bbox: [11.8, 50.1, 15.1, 51.7],
        layers: 'hoehenlinien',
        srs: ['EPSG:4326', 'EPSG:31468'],
        transparent: false,
      },
    ]);
    await rejectsWith(run('wms.import', { url: one(`${service.base}/wms111`), layer: one('gewaesser') }), 'unknown_layer', {
      available: 'hoehenlinien',
    });
  });

  it('wms.import: a service exception, another service, JSON and entity declarations fail clearly', async () => {
    await rejectsWith(run('wms.import', { url: one(`${service.base}/exception`) }), 'service_exception', {
      code: 'InvalidFormat',
      text: 'Unknown request format.',
    });
    await rejectsWith(run('wms.import', { url: one(`${service.base}/wfs`) }), 'not_a_service', { root: 'WFS_Capabilities' });
    await rejectsWith(run('wms.import', { url: one(`${service.base}/json`) }), 'not_xml', { mime_type: 'application/json' });
    await rejectsWith(run('wms.import', { url: one(`${service.base}/lol`) }), 'xml_doctype');
  });

  it('wmts.import: RESTful ResourceURL filled for the Web Mercator set as {z}/{y}/{x}; KVP GetTile template otherwise', async () => {
    for (const url of [`${service.base}/wmts/kvp?SERVICE=WMTS`, `${service.base}/wmts/rest/1.0.0/WMTSCapabilities.xml`]) {
      const out = await run('wmts.import', { url: one(url) });
      assert.deepEqual(out.layers, [
        {
          tms_url: `${service.base}/wmts/rest/etopo2/default/2026-01-01/GoogleMapsCompatible/{z}/{y}/{x}.png`,
          bbox: [-180, -90, 180, 90],
        },
        {
          tms_url:
            `${service.base}/wmts/kvp?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=AdminBoundaries&STYLE=default` +
            '&TILEMATRIXSET=BigWorld&TILEMATRIX={TileMatrix}&TILEROW={TileRow}&TILECOL={TileCol}&FORMAT=image%2Fpng',
          bbox: [-180, -90, 180, 84],
        },
      ]);
    }
  });

  it('wmts.import: layer picks one; unknown layers, exceptions and other services fail', async () => {
    const out = await run('wmts.import', { url: one(`${service.base}/wmts/kvp`), layer: one('AdminBoundaries') });
    assert.equal(out.layers.length, 1);
    await rejectsWith(run('wmts.import', { url: one(`${service.base}/wmts/kvp`), layer: one('x') }), 'unknown_layer', {
      available: 'etopo2, AdminBoundaries',
    });
    await rejectsWith(run('wmts.import', { url: one(`${service.base}/exception`) }), 'service_exception');
    await rejectsWith(run('wmts.import', { url: one(`${service.base}/wfs`) }), 'not_a_service', { service: 'WMTS' });
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run('wms.import', { url: one(`${service.base}/wms130`) }, ctx), /stopped/);
    await assert.rejects(run('wmts.import', { url: one(`${service.base}/wmts/kvp`) }, ctx), /stopped/);
  });
});
