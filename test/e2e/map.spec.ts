import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

const root = resolve(import.meta.dirname, '..', '..');
const point = (x: number, y: number, name: string) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties: { name } },
});

interface MapProbe {
  __werkbankMapProbe: Array<{ isDestroyed(): boolean }>;
  __webglContexts: WebGLRenderingContext[];
}

/**
 * Before the page loads: collects every Cesium widget the map creates (the SDK's test hook) and
 * every WebGL context any canvas hands out, so the test can count the live ones.
 */
function probe(): void {
  const w = window as unknown as MapProbe;
  w.__werkbankMapProbe = [];
  w.__webglContexts = [];
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
    const context = (original as (...a: unknown[]) => unknown).call(this, type, ...rest) as WebGLRenderingContext | null;
    if (context && type.startsWith('webgl') && !w.__webglContexts.includes(context)) w.__webglContexts.push(context);
    return context;
  } as typeof original;
}

const liveContexts = (page: Page) =>
  page.evaluate(() => (window as unknown as MapProbe).__webglContexts.filter((c) => !c.isContextLost()).length);

/** The SDK's map building block (issue 16) on the Magazine's depot screen, in Chromium with software GL. */
describe('the map building block in a browser', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  const ids: Record<string, number> = {};
  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        ids.wells = (await a.post('/api/v1/depot/', { name: 'Brunnen', content_type: '/api/v1/type/feature/' })).body.id;
        for (const [x, y, name] of [
          [7.1, 50.7, 'Nord'],
          [7.2, 50.6, 'Süd'],
        ] as const)
          await a.post(`/api/v1/datum/create-in-depot/${ids.wells}/`, point(x, y, name));
        ids.empty = (await a.post('/api/v1/depot/', { name: 'Ohne Ort', content_type: '/api/v1/type/feature/' })).body.id;
        await a.post(`/api/v1/datum/create-in-depot/${ids.empty}/`, {
          feature: { type: 'Feature', geometry: null, properties: { name: 'nirgends' } },
        });
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  const mapCanvas = () => page.getByTestId('depot-map').locator('canvas');
  const widgets = () => page.evaluate(() => (window as unknown as MapProbe).__werkbankMapProbe.length);

  it('keeps Cesium out of what the workbench loads at start', () => {
    const out = execFileSync('node', [resolve(root, 'scripts/check-main-chunk.mjs')], { cwd: root, encoding: 'utf8' });
    assert.match(out, /main entry/);
  });

  it('draws a depot of features with WebGL and disposes its viewer: 20 times opened and closed, no context left behind', async function () {
    this.timeout(240_000);
    await page.addInitScript(probe);
    await page.goto(`${t.url}/depot/${ids.wells}/`);
    await mapCanvas().waitFor();
    await page.waitForFunction(() => (window as unknown as MapProbe).__werkbankMapProbe.length === 1);
    assert.equal(await page.locator('.cesium-widget-errorPanel').count(), 0, 'Cesium started without an error');
    const open = await liveContexts(page);
    assert.ok(open >= 1, 'the map holds a WebGL context');

    for (let i = 1; i <= 20; i++) {
      await page.getByTestId('main-menu').getByText('Magazine').click();
      await page.getByTestId('depot-screen').waitFor({ state: 'detached' });
      await page.goBack();
      await mapCanvas().waitFor();
      await page.waitForFunction((n) => (window as unknown as MapProbe).__werkbankMapProbe.length === n, i + 1);
    }

    assert.equal(await widgets(), 21);
    const destroyed = await page.evaluate(() => (window as unknown as MapProbe).__werkbankMapProbe.map((w) => w.isDestroyed()));
    assert.deepEqual(destroyed, [...Array(20).fill(true), false], 'every closed map destroyed its viewer, the open one lives');
    // The contexts of closed maps are dropped right after their viewer is destroyed.
    await page.waitForFunction(
      (n) => (window as unknown as MapProbe).__webglContexts.filter((c) => !c.isContextLost()).length <= n,
      open,
    );
    assert.equal(await liveContexts(page), open);
    assert.equal(await page.locator('.cesium-widget-errorPanel').count(), 0);
  });

  it('is accessible, and says when the features have no coordinates, in English and German', async () => {
    await page.goto(`${t.url}/depot/${ids.wells}/`);
    await mapCanvas().waitFor();
    await page.getByRole('region', { name: 'Map of the data' }).waitFor();
    await expectAccessible(page);

    await page.goto(`${t.url}/depot/${ids.empty}/`);
    await page.getByTestId('depot-map').getByText('No coordinates available').waitFor();
    await expectAccessible(page);

    await admin.patch('/api/v2/backend/profile', { language: 'de' });
    await page.context().addCookies([{ name: 'werkbank_lang', value: 'de', url: t.url }]);
    try {
      await page.goto(`${t.url}/depot/${ids.empty}/`);
      await page.getByTestId('depot-map').getByText('Keine Koordinaten vorhanden').waitFor();
      await page.goto(`${t.url}/depot/${ids.wells}/`);
      await page.getByRole('region', { name: 'Karte der Daten' }).locator('canvas').waitFor();
      await expectAccessible(page);
    } finally {
      await admin.patch('/api/v2/backend/profile', { language: 'en' });
    }
  });
});
