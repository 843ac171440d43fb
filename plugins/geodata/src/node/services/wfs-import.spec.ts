import assert from 'node:assert/strict';
import type { ApiError, FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { fixture, one, param, serviceFunction, startService, type Answer, type TestService } from './services-test-server';
import { near } from '../vector/vector-test-helpers';

type Feature = { id?: string; geometry: { type: string; coordinates: any } | null; properties: Record<string, unknown> };
const features = (out: Record<string, FrameItems>) => out.features.map((f) => f.feature as Feature);

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

/** Called on every request before it is answered (a spec aborts a run in the middle of paging). */
let onRequest: (url: URL) => void = () => undefined;

/** A WFS 2.0 with paging, a WFS 1.1 that refuses AcceptVersions and offers GeoJSON, and broken services. */
function route(url: URL, base: string): Answer {
  onRequest(url);
  const request = param(url, 'request');
  const xml = (name: string) => ({ body: fixture(name, base) });
  if (url.pathname === '/wfs2' && request === 'GetCapabilities') return xml('wfs-2.0.0-capabilities.xml');
  if (url.pathname === '/wfs2/features' && request === 'GetFeature') {
    const type = param(url, 'typeNames');
    if (type === 'app:haltestellen') return xml(`wfs-2.0.0-haltestellen-${param(url, 'startIndex')}.xml`);
    if (type === 'app:flurstuecke') return xml('wfs-2.0.0-flurstuecke.xml');
    return xml('ows-exception-report.xml');
  }
  if (url.pathname === '/wfs11' && request === 'GetCapabilities')
    return xml(param(url, 'acceptVersions') ? 'ows-exception-report.xml' : 'wfs-1.1.0-capabilities.xml');
  if (url.pathname === '/wfs11' && request === 'GetFeature' && param(url, 'map') === 'gewaesser')
    return { type: 'application/json', body: fixture('wfs-1.1.0-pegel.json') };
  if (url.pathname === '/wfs11-status' && request === 'GetCapabilities')
    return param(url, 'acceptVersions')
      ? { status: 400, body: fixture('ows-exception-report.xml') }
      : { body: fixture('wfs-1.1.0-capabilities.xml', base) };
  if (url.pathname === '/proxied' && request === 'GetCapabilities')
    return { body: fixture('wfs-2.0.0-capabilities.xml', 'http://localhost:8080/geoserver') };
  if (url.pathname === '/proxied' && request === 'GetFeature') return xml('wfs-2.0.0-flurstuecke.xml');
  if (url.pathname === '/exception') return xml('ows-exception-report.xml');
  if (url.pathname === '/exception-status') return { status: 400, body: fixture('ows-exception-report.xml') };
  if (url.pathname === '/html') return { type: 'text/html', body: '<!-- portal --><html><body>Geoportal</body></html>' };
  if (url.pathname === '/wfs10')
    return { body: '<WFS_Capabilities version="1.0.0" xmlns="http://www.opengis.net/wfs"><FeatureTypeList/></WFS_Capabilities>' };
  if (url.pathname === '/broken' && request === 'GetCapabilities')
    return { body: fixture('wfs-2.0.0-capabilities.xml', base).split('/wfs2/features').join('/broken') };
  if (url.pathname === '/broken') return { body: '<wfs:FeatureCollection xmlns:wfs="x"><wfs:member>' };
  if (url.pathname === '/xxe')
    return {
      body: '<?xml version="1.0"?>\n<!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<WFS_Capabilities>&x;</WFS_Capabilities>',
    };
  return undefined;
}

describe('wfs.import', () => {
  let service: TestService;
  before(async () => {
    service = await startService(route);
  });
  after(() => service.close());
  beforeEach(() => {
    service.requests.length = 0;
    onRequest = () => undefined;
  });

  const run = (inputs: FunctionInputs, ctx: FakeRunContext = fakeRunContext()) => serviceFunction('wfs.import').run(inputs, ctx);

  it('reads a WFS 2.0 feature type page by page (count 2 from CountDefault, startIndex 0, 2, 4), latitude/longitude GML as longitude/latitude', async () => {
    const ctx = fakeRunContext();
    const out = features(await run({ url: one(`${service.base}/wfs2?SERVICE=WFS&typeNames=app:haltestellen`) }, ctx));
    assert.deepEqual(
      out.map((f) => [f.id, f.properties.name]),
      [
        ['haltestellen.1', 'Postplatz'],
        ['haltestellen.2', 'Albertplatz'],
        ['haltestellen.3', 'Hauptbahnhof'],
        ['haltestellen.4', 'Pirnaischer Platz'],
        ['haltestellen.5', 'Straßburger Platz'],
      ],
    );
    assert.deepEqual(out[0].geometry, { type: 'Point', coordinates: [13.7336, 51.0507] });
    assert.deepEqual(out[4].geometry?.coordinates, [13.7625, 51.0456], 'http URI form, also latitude first');
    assert.equal(out[0].properties.linien, '1 2 4 8 9 11 12');
    const pages = service.requests.filter((r) => r.includes('GetFeature'));
    assert.deepEqual(
      pages.map((r) => [param(new URL(r, service.base), 'startIndex'), param(new URL(r, service.base), 'count')]),
      [
        ['0', '2'],
        ['2', '2'],
        ['4', '2'],
      ],
    );
    assert.ok(service.requests[0].includes('ACCEPTVERSIONS=2.0.0%2C1.1.0'));
    assert.ok(pages.every((r) => r.startsWith('/wfs2/features?') && r.includes('VERSION=2.0.0')));
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('reads every feature type when neither the address nor typename names one, reprojecting EPSG:25833', async () => {
    const out = features(await run({ url: one(`${service.base}/wfs2`) }));
    assert.equal(out.length, 6);
    const parcel = out[5];
    assert.equal(parcel.geometry?.type, 'MultiPolygon');
    near(parcel.geometry?.coordinates[0][0][0], [13.7383, 51.0504], 1e-5);
    assert.deepEqual(parcel.properties, { kennzeichen: '146100-001-00023', flaeche: 400 });
  });

  it('takes the typename setting and max_features (which shrinks the last page)', async () => {
    const out = features(await run({ url: one(`${service.base}/wfs2`), typename: one('haltestellen'), max_features: one(3) }));
    assert.equal(out.length, 3);
    const counts = service.requests.filter((r) => r.includes('GetFeature')).map((r) => param(new URL(r, service.base), 'count'));
    assert.deepEqual(counts, ['2', '1']);
  });

  it('falls back to WFS 1.1.0 when AcceptVersions is refused, reads GeoJSON when offered and keeps other parameters of the address', async () => {
    const out = features(await run({ url: one(`${service.base}/wfs11?map=gewaesser&request=GetCapabilities`) }));
    assert.equal(out.length, 2);
    near(out[0].geometry?.coordinates as number[], [13.7383, 51.0504], 1e-5);
    assert.deepEqual(out[1], {
      type: 'Feature',
      id: 'pegel.2',
      geometry: null,
      properties: { name: 'ohne Lage', gewaesser: 'Weißeritz' },
    });
    const getFeature = new URL(
      service.requests.find((r) => r.includes('GetFeature'))!,
      service.base,
    );
    assert.equal(param(getFeature, 'outputFormat'), 'application/json');
    assert.equal(param(getFeature, 'typeName'), 'gw:pegel');
    assert.equal(param(getFeature, 'version'), '1.1.0');
    assert.equal(param(getFeature, 'startIndex'), '', 'no paging without ImplementsResultPaging');
  });

  it('also falls back to 1.1.0 when AcceptVersions is refused with an HTTP error status', async () => {
    const out = features(await run({ url: one(`${service.base}/wfs11-status`) }));
    assert.equal(out.length, 2);
  });

  it('asks the address the user gave when the capabilities name another host (a service behind a proxy)', async () => {
    const out = features(await run({ url: one(`${service.base}/proxied`), typename: one('app:flurstuecke') }));
    assert.equal(out.length, 1);
    assert.ok(service.requests.some((r) => r.startsWith('/proxied?') && r.includes('GetFeature')));
  });

  it('reports an ExceptionReport with its code and text', async () => {
    await rejectsWith(run({ url: one(`${service.base}/exception`) }), 'service_exception', {
      code: 'InvalidParameterValue',
      text: 'Feature type app:strassen unknown',
    });
  });

  it("shows the service's own text when it refuses a request with an error status and an exception report", async () => {
    await rejectsWith(run({ url: one(`${service.base}/exception-status`) }), 'service_exception', {
      code: 'InvalidParameterValue',
      text: 'Feature type app:strassen unknown',
    });
  });

  it('fails for an unknown type name, listing the offered ones', async () => {
    await rejectsWith(run({ url: one(`${service.base}/wfs2`), typename: one('app:strassen') }), 'wfs_unknown_typename', {
      typename: 'app:strassen',
      available: 'app:haltestellen, app:flurstuecke',
    });
  });

  it('fails for answers that are no WFS: a web page, WFS 1.0, broken GML, no address', async () => {
    await rejectsWith(run({ url: one(`${service.base}/html`) }), 'not_a_service', { root: 'html', service: 'WFS' });
    await rejectsWith(run({ url: one(`${service.base}/wfs10`) }), 'wfs_version_unsupported', { version: '1.0.0' });
    await rejectsWith(run({ url: one(`${service.base}/broken`), typename: one('app:flurstuecke') }), 'xml_invalid');
    await rejectsWith(run({ url: one(`${service.base}/nothing`) }), 'fetch_status');
    await rejectsWith(run({ url: one('  ') }), 'url_missing');
    await rejectsWith(run({ url: one('ftp://example.org/wfs') }), 'url_invalid');
  });

  it('refuses capabilities that declare entities (XXE)', async () => {
    await rejectsWith(run({ url: one(`${service.base}/xxe`) }), 'xml_doctype', { line: 2 });
  });

  it('stops paging when the run is aborted', async () => {
    const ctx = fakeRunContext();
    onRequest = (url) => {
      if (param(url, 'startIndex') === '2') ctx.controller.abort(new Error('stopped by the user'));
    };
    await assert.rejects(
      run({ url: one(`${service.base}/wfs2`), typename: one('app:haltestellen') }, ctx),
      /stopped by the user/,
    );
    assert.equal(service.requests.filter((r) => r.includes('STARTINDEX=4')).length, 0);
  });
});
