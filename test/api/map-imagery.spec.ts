import assert from 'node:assert/strict';
import { assertError, expectStatus, MapServiceFixture, startTestServer, type TestServer } from '@werkbank/testing/node';

const RELAY = '/api/v2/backend/map-imagery';
const relayed = (url: string) => `${RELAY}?url=${encodeURIComponent(url)}`;

/**
 * Decision 0067: the map loads WMS/WMTS imagery of other origins through the server, which fetches
 * the user-given address only through its URL guard and passes only images on.
 */
describe('map imagery relay: remote WMS/WMTS images through the URL guard', function () {
  let t: TestServer;
  const wms = new MapServiceFixture();
  let base: string;
  before(async () => {
    base = await wms.start();
    t = await startTestServer({ config: { fetchAllowedHosts: ['127.0.0.1'] } });
  });
  after(async () => {
    await t?.close();
    await wms.close();
  });

  it('answers a GetMap image of an allowed service, with the parameters the map asked for', async () => {
    const u = await t.user();
    const getMap = `${base}/wms?SERVICE=WMS&REQUEST=GetMap&VERSION=1.3.0&LAYERS=roads&STYLES=&FORMAT=image/png&TRANSPARENT=TRUE&CRS=EPSG:4326&BBOX=50,7,51,8&WIDTH=256&HEIGHT=256`;
    const res = await u.client.get(relayed(getMap));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.match(String(res.body), /^.PNG/);
    const seen = await wms.next((r) => r.params.LAYERS === 'roads');
    assert.equal(seen.params.BBOX, '50,7,51,8');
    assert.equal(seen.params.CRS, 'EPSG:4326');
  });

  it('refuses private addresses the administrator did not allow, before connecting', async () => {
    const u = await t.user();
    assertError(await u.client.get(relayed('http://10.255.255.1/wms?REQUEST=GetMap')), 400, 'url_refused', /FETCH_ALLOWED_HOSTS/);
    assertError(await u.client.get(relayed('file:///etc/passwd')), 400, 'url_invalid');
  });

  it('passes only images on: a page or a service exception stays on the server', async () => {
    const u = await t.user();
    const page = await u.client.get(relayed(`${base}/page`));
    assertError(page, 502, 'imagery_not_image', /did not answer with an image/);
    assert.doesNotMatch(JSON.stringify(page.body), /secret/);
    assertError(await u.client.get(relayed(`${base}/wms?REQUEST=GetCapabilities`)), 502, 'imagery_not_image');
  });

  it('needs a signed-in user and an address', async () => {
    assertError(await t.client().get(relayed(`${base}/wms?REQUEST=GetMap`)), 401, 'not_authenticated');
    const u = await t.user();
    assertError(await u.client.get(RELAY), 400, 'url_missing');
    expectStatus(await u.client.get(relayed(`${base}/wmts/roads/default/GoogleMapsCompatible/3/2/4.png`)), 200);
  });
});
