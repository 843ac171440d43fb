import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * The Tiles tab of a pmtiles layer in Chromium (issue 16, decision 0062): building the tile archive
 * by keyboard shows its result and the download link; the tab passes WCAG 2.1 AA in English and German.
 */
describe('layers: the tile archive of a pmtiles layer (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let layerId = 0;
  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        const depot = (await a.post('/api/v1/depot/', { name: 'Bäume', content_type: '/api/v1/type/feature/' })).body;
        for (const [art, x] of [
          ['Eiche', 7.1],
          ['Buche', 7.2],
          ['Linde', 7.3],
        ] as const)
          await a.post(`/api/v1/datum/create-in-depot/${depot.id}/`, {
            feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, 51.4] }, properties: { art } },
          });
        const layer = await a.post('/api/v1/layer/', {
          name: 'Baumkacheln',
          type: 'pmtiles',
          layerpiles: [{ depot: depot.resource_uri }],
        });
        assert.equal(layer.status, 201, JSON.stringify(layer.body));
        layerId = layer.body.id;
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  async function openTiles(): Promise<void> {
    await page.goto(`${t.url}/layers/edit/${layerId}`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('tab', { name: /^(Tiles|Kacheln)$/ }).click();
    await page.getByTestId('layer-tiles').waitFor();
  }

  it('builds the tile archive by keyboard and offers it for download', async () => {
    await openTiles();
    await page.getByTestId('tiles-build').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('tiles-result').waitFor();
    assert.match(await page.getByTestId('tiles-result').innerText(), /Tile archive built: \d+ tiles/);
    const href = await page.getByTestId('tiles-download').getAttribute('href');
    assert.equal(href, `/api/v1/layer/${layerId}/tiles.pmtiles`);
    const archive = await admin.get(href!);
    assert.equal(archive.status, 200);
    const layer = (await admin.get(`/api/v1/layer/${layerId}/`)).body;
    assert.ok(layer.persistent_size > 0, JSON.stringify(layer.tile_archive));
  });

  it('passes WCAG 2.1 AA on the Tiles tab, in English and German', async () => {
    for (const lang of ['en', 'de']) {
      await admin.patch('/api/v2/backend/profile', { language: lang });
      await page.context().addCookies([{ name: 'werkbank_lang', value: lang, url: t.url }]);
      await openTiles();
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      await expectAccessible(page);
    }
    await admin.patch('/api/v2/backend/profile', { language: 'en' });
  });
});
