import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * "Show as layer" on the Magazine's depot screen (decision 0064), contributed by the layers plugin:
 * offered for a depot a layer can show, by keyboard, accessible; the layer editor opens; a depot
 * of a type no layer shows gets no button.
 */
describe('layers: show a depot as a layer from the depot screen (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let trees = 0;
  let words = 0;
  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        trees = (await a.post('/api/v1/depot/', { name: 'Straßenbäume', content_type: '/api/v1/type/feature/' })).body.id;
        await a.post(`/api/v1/datum/create-in-depot/${trees}/`, {
          feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [9.9, 53.5] }, properties: { art: 'Linde' } },
        });
        words = (await a.post('/api/v1/depot/', { name: 'Wörter', content_type: '/api/v1/type/string/' })).body.id;
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  async function visit(path: string): Promise<void> {
    await page.goto(`${t.url}${path}`);
    await page.waitForLoadState('networkidle');
  }

  it('offers Show as layer on the depot screen, accessible and by keyboard, and opens the layer', async () => {
    await visit(`/depot/${trees}/`);
    const show = page.getByTestId('depot-action-layers.show-as-layer');
    await show.waitFor();
    await page.getByTestId('depot-action-layers.edit-as-layer').waitFor();
    await expectAccessible(page);
    await show.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/layers\/edit\/\d+$/);
    await page.locator('#layer-name').waitFor();
    assert.equal(await page.inputValue('#layer-name'), 'Straßenbäume');
    const layers = (await admin.get('/api/v1/layer/')).body.objects as Array<{ layerpiles: Array<{ depot_id: number }> }>;
    assert.deepEqual(
      layers.map((l) => l.layerpiles.map((p) => p.depot_id)),
      [[trees]],
    );
  });

  it('offers no layer action for a depot of a type no layer shows', async () => {
    await visit(`/depot/${words}/`);
    await page.getByTestId('depot-header').waitFor();
    assert.equal(await page.getByTestId('depot-action-layers.show-as-layer').count(), 0);
  });
});
