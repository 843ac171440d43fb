import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { MapServiceFixture, type TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/** Cesium's widget as the map probe hands it out (only what this spec reads). */
interface ProbedWidget {
  isDestroyed(): boolean;
  canvas: HTMLCanvasElement;
  scene: { mode: number; cartesianToCanvasCoordinates(p: unknown): { x: number; y: number } | undefined };
  imageryLayers: { length: number };
  dataSources: {
    length: number;
    get(i: number): {
      entities: {
        values: Array<{
          show: boolean;
          position?: { getValue(t: unknown): unknown };
          point?: { color?: { getValue(t: unknown): { toCssHexString(): string } } };
        }>;
      };
    };
  };
}
interface MapProbe {
  __werkbankMapProbe: ProbedWidget[];
}

const probe = () => {
  (window as unknown as MapProbe).__werkbankMapProbe = [];
};
const liveWidget = (page: Page) =>
  page.waitForFunction(() => (window as unknown as MapProbe).__werkbankMapProbe.some((w) => !w.isDestroyed()));

/**
 * Decision 0067 in Chromium: WMS imagery of a service on another origin reaches the map through
 * the server's guarded relay with the GetMap parameters the map asks for (depot screen of a WMS
 * depot, the Presentation preview of an external map layer); the 2D/3D/Columbus switch works by
 * keyboard, is kept per screen and speaks German and English; the style's hover symbol is drawn
 * for the feature under the pointer.
 */
describe('the map: remote WMS imagery, scene modes, hover (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  const wms = new MapServiceFixture();
  const ids: Record<string, number> = {};
  before(async () => {
    const base = await wms.start();
    ids.port = Number(new URL(base).port);
  });
  after(() => wms.close());
  browserSuite(
    {
      admin: true,
      server: { config: { fetchAllowedHosts: ['127.0.0.1'] } },
      setUp: async (server) => {
        const a = await server.admin();
        ids.wms = (await a.post('/api/v1/depot/', { name: 'Straßenkarte', content_type: '/api/v1/type/wms/' })).body.id;
        await a.post(`/api/v1/datum/create-in-depot/${ids.wms}/`, {
          tms_url: `http://127.0.0.1:${ids.port}/wms?map=strassen`,
          layers: 'roads',
          transparent: true,
          bbox: [6, 50, 8, 52],
        });
        ids.mapLayer = (await a.get(`/api/v1/depot/${ids.wms}/show_as_layer/`)).body.layer_id;
        ids.wmts = (await a.post('/api/v1/depot/', { name: 'Kacheln', content_type: '/api/v1/type/wmts/' })).body.id;
        await a.post(`/api/v1/datum/create-in-depot/${ids.wmts}/`, {
          tms_url: `http://127.0.0.1:${ids.port}/wmts/{Layer}/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png?LAYER=orthofotos&TILEMATRIXSET=GoogleMapsCompatible`,
          bbox: [6, 50, 8, 52],
        });
        ids.trees = (await a.post('/api/v1/depot/', { name: 'Bäume', content_type: '/api/v1/type/feature/' })).body.id;
        await a.post(`/api/v1/datum/create-in-depot/${ids.trees}/`, {
          feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7.1, 51.4] }, properties: { art: 'Eiche' } },
        });
        ids.treeLayer = (await a.get(`/api/v1/depot/${ids.trees}/show_as_layer/`)).body.layer_id;
        const symbol = {
          symbol_type: 'style',
          fill: '#2d72d2',
          fill_opacity: 1,
          stroke: '#184a90',
          stroke_width: 1,
          circle_radius: 30,
        };
        await a.patch(`/api/v1/layer/${ids.treeLayer}/`, {
          style: { rules: [{ name: '', symbol, hover_enabled: true, hover_symbol: { ...symbol, fill: '#ff8800' } }] },
        });
      },
    },
    (s) => ({ t, page } = s),
  );

  /** A button of the map's mode switch (the group is named 'Map view' / 'Kartenansicht'). */
  const modeButton = (name: string, group = 'Map view') =>
    page.getByRole('group', { name: group }).getByRole('button', { name, exact: true });

  const getMap = (test: (p: Record<string, string>) => boolean = () => true) =>
    wms.next((r) => r.path === '/wms' && r.params.REQUEST === 'GetMap' && test(r.params));

  it("shows a WMS depot's map through the server's relay, with the GetMap parameters of WMS 1.3.0", async () => {
    wms.requests.length = 0;
    await page.addInitScript(probe);
    await page.goto(`${t.url}/depot/${ids.wms}/`);
    await page.getByTestId('depot-map').locator('canvas').waitFor();
    const request = await getMap();
    assert.equal(request.params.SERVICE, 'WMS');
    assert.equal(request.params.VERSION, '1.3.0');
    assert.equal(request.params.LAYERS, 'roads');
    assert.equal(request.params.FORMAT, 'image/png');
    assert.equal(request.params.TRANSPARENT, 'true');
    assert.equal(request.params.CRS, 'EPSG:4326');
    assert.equal(request.params.MAP, 'strassen', "the service address's own parameters are kept");
    assert.equal(request.params.WIDTH, '256');
    // EPSG:4326 in WMS 1.3.0 is latitude first: south,west,north,east inside the datum's bbox.
    const [s, w, n, e] = request.params.BBOX.split(',').map(Number);
    assert.ok(s < n && w < e && n > 50 && s < 52 && e > 6 && w < 8, `bbox ${request.params.BBOX} overlaps the datum's`);
    // The browser asked our origin only (the CSP's connect-src); the server asked the service.
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((r) => r.name.includes('/api/v2/backend/map-imagery?url=')),
    );
    await page.waitForFunction(() => (window as unknown as MapProbe).__werkbankMapProbe.at(-1)!.imageryLayers.length === 2);
    await expectAccessible(page);
  });

  it("shows a WMTS depot's tiles (RESTful template) through the relay", async () => {
    await page.goto(`${t.url}/depot/${ids.wmts}/`);
    await page.getByTestId('depot-map').locator('canvas').waitFor();
    const tile = await wms.next((r) => r.path.startsWith('/wmts/'));
    assert.match(tile.path, /^\/wmts\/orthofotos\/default\/GoogleMapsCompatible\/\d+\/\d+\/\d+\.png$/);
  });

  it('switches 2D / 3D / Columbus by keyboard and keeps the choice for the screen, in English and German', async () => {
    await page.addInitScript(probe);
    await page.goto(`${t.url}/depot/${ids.trees}/`);
    await liveWidget(page);
    const flat = modeButton('2D');
    const globe = modeButton('3D');
    assert.equal(await flat.getAttribute('aria-pressed'), 'true');
    await globe.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => {
      const live = (window as unknown as MapProbe).__werkbankMapProbe.filter((w) => !w.isDestroyed());
      return live.length === 1 && live[0].scene.mode === 3; // SceneMode.SCENE3D
    });
    assert.equal(await globe.getAttribute('aria-pressed'), 'true');
    await modeButton('Columbus').focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => (window as unknown as MapProbe).__werkbankMapProbe.filter((w) => !w.isDestroyed())[0]?.scene.mode === 1,
    );
    await modeButton('3D').click();
    await expectAccessible(page);

    // Another screen keeps its own mode; back on the depot screen the globe is still chosen.
    await page.goto(`${t.url}/layers/edit/${ids.treeLayer}`);
    await page.getByRole('tab', { name: 'Presentation' }).click();
    assert.equal(
      await page.getByTestId('style-preview').getByRole('button', { name: '2D', exact: true }).getAttribute('aria-pressed'),
      'true',
    );
    await page.goto(`${t.url}/depot/${ids.trees}/`);
    assert.equal(await modeButton('3D').getAttribute('aria-pressed'), 'true');
    assert.equal(await modeButton('3D').getAttribute('title'), 'Globe (3D)');

    await page.context().addCookies([{ name: 'werkbank_lang', value: 'de', url: t.url }]);
    const admin = await t.admin();
    await admin.patch('/api/v2/backend/profile', { language: 'de' });
    try {
      await page.goto(`${t.url}/depot/${ids.trees}/`);
      await page.getByRole('group', { name: 'Kartenansicht' }).waitFor();
      assert.equal(await modeButton('3D', 'Kartenansicht').getAttribute('aria-pressed'), 'true');
      assert.equal(await modeButton('3D', 'Kartenansicht').getAttribute('title'), 'Globus (3D)');
      assert.equal(await modeButton('2D', 'Kartenansicht').getAttribute('title'), 'Flache Karte (2D)');
      await expectAccessible(page);
    } finally {
      await admin.patch('/api/v2/backend/profile', { language: 'en' });
    }
  });

  it("draws the style's hover symbol for the feature under the pointer in the layer preview", async () => {
    await page.addInitScript(probe);
    await page.goto(`${t.url}/layers/edit/${ids.treeLayer}`);
    await page.getByRole('tab', { name: 'Presentation' }).click();
    const fill = () =>
      page.evaluate(() => {
        const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop();
        const e = w?.dataSources.length ? w.dataSources.get(0).entities.values.find((x) => x.show && x.point) : undefined;
        return e?.point?.color?.getValue(undefined).toCssHexString();
      });
    await page.waitForFunction(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop();
      return !!w && w.dataSources.length > 0 && w.dataSources.get(0).entities.values.some((e) => e.show && e.point);
    });
    assert.equal(await fill(), '#2d72d2');
    await page.getByTestId('style-preview').locator('canvas').scrollIntoViewIfNeeded();
    // Where the tree is on the canvas, then the pointer there.
    const at = await page.evaluate(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop()!;
      const e = w.dataSources.get(0).entities.values.find((x) => x.show && x.point)!;
      const p = w.scene.cartesianToCanvasCoordinates(e.position!.getValue(undefined))!;
      const box = w.canvas.getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y, left: box.left + 20, top: box.top + 20 };
    });
    await page.mouse.move(at.x, at.y, { steps: 4 });
    await page.waitForFunction(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop()!;
      const e = w.dataSources.get(0).entities.values.find((x) => x.show && x.point);
      return e?.point?.color?.getValue(undefined).toCssHexString() === '#ff8800';
    });
    await page.mouse.move(at.left, at.top, { steps: 4 });
    await page.waitForFunction(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop()!;
      const e = w.dataSources.get(0).entities.values.find((x) => x.show && x.point);
      return e?.point?.color?.getValue(undefined).toCssHexString() === '#2d72d2';
    });
  });

  it("previews an external map layer's WMS in the Presentation tab", async () => {
    wms.requests.length = 0;
    await page.goto(`${t.url}/layers/edit/${ids.mapLayer}`);
    await page.getByRole('tab', { name: 'Presentation' }).click();
    await page.getByTestId('style-preview').locator('canvas').waitFor();
    const request = await getMap((p) => p.LAYERS === 'roads');
    assert.equal(request.params.MAP, 'strassen');
    await expectAccessible(page);
  });
});
