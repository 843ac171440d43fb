import assert from 'node:assert/strict';
import type { ApiError, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { fixture, one, serviceFunction, startService, type Answer, type TestService } from './services-test-server';

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

function route(url: URL, base: string): Answer {
  const atom = (name: string) => ({ type: 'application/atom+xml', body: fixture(name, base) });
  const json = (name: string) => ({ type: 'application/json', body: fixture(name, base) });
  if (url.pathname === '/feeds/service.atom') return atom('inspire-service-feed.atom');
  if (url.pathname === '/feeds/datasets/gewaesser.atom') return atom('inspire-dataset-feed.atom');
  if (url.pathname === '/dcat/dataset') return json('dcat-dataset.json');
  if (url.pathname === '/api/3/action/package_show') return json('ckan-package.json');
  if (url.pathname === '/empty.atom') return { body: '<feed xmlns="http://www.w3.org/2005/Atom"><title>leer</title></feed>' };
  if (url.pathname === '/rss') return { body: '<rss version="2.0"><channel/></rss>' };
  if (url.pathname === '/broken.json') return { type: 'application/json', body: '{\n  "result": [1, }' };
  if (url.pathname === '/xxe.atom')
    return { body: '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "http://169.254.169.254/">]><feed>&x;</feed>' };
  return undefined;
}

describe('file.urls_from_dataset', () => {
  let service: TestService;
  before(async () => {
    service = await startService(route);
  });
  after(() => service.close());

  const run = (inputs: FunctionInputs, ctx: FakeRunContext = fakeRunContext()) =>
    serviceFunction('file.urls_from_dataset').run(inputs, ctx);
  const urls = async (url: string) => (await run({ url: one(url) })).urls.map((i) => i.value);

  it('lists the download links of an INSPIRE service feed, following its dataset feed one level (relative links resolved)', async () => {
    const b = service.base;
    assert.deepEqual(await urls(`${b}/feeds/service.atom`), [
      `${b}/data/pegel.gml`,
      `${b}/data/gewaesser_25833_teil1.gml.zip`,
      `${b}/data/gewaesser_25833_teil2.gml.zip`,
      `${b}/data/gewaesser_25833.gml.zip`,
      `${b}/data/gewaesser_shp.zip`,
    ]);
  });

  it('lists the links of a dataset feed directly', async () => {
    assert.equal((await urls(`${service.base}/feeds/datasets/gewaesser.atom`)).length, 4);
  });

  it('reads DCAT distributions (downloadURL, else accessURL) and CKAN resources, each address once', async () => {
    assert.deepEqual(await urls(`${service.base}/dcat/dataset`), [
      'https://opendata.example.org/baeume.csv',
      'https://opendata.example.org/baeume/wfs',
      'https://opendata.example.org/baeume.geojson',
    ]);
    assert.deepEqual(await urls(`${service.base}/api/3/action/package_show?id=strassenbaeume`), [
      'https://ckan.example.org/dataset/strassenbaeume/resource/r1/download/baeume.csv',
      'https://ckan.example.org/dataset/strassenbaeume/resource/r2/download/baeume.geojson',
    ]);
  });

  it('fails for listings without links, other documents, broken JSON and entity declarations', async () => {
    await rejectsWith(run({ url: one(`${service.base}/empty.atom`) }), 'no_download_links');
    await rejectsWith(run({ url: one(`${service.base}/rss`) }), 'not_a_listing', { root: 'rss' });
    await rejectsWith(run({ url: one(`${service.base}/broken.json`) }), 'not_json', { line: 2 });
    await rejectsWith(run({ url: one(`${service.base}/xxe.atom`) }), 'xml_doctype');
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run({ url: one(`${service.base}/feeds/service.atom`) }, ctx), /stopped/);
  });
});
