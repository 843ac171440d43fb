import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * The public HTML pages of the layer services (issue 17, decision 0083): what a citizen sees who
 * opens an OGC API address in a browser, signed out — the list of public layers, a layer's landing
 * page, its collection, its features and one feature. Each passes WCAG 2.1 AA (BITV 2.0) in English
 * and German, speaks the reader's language, and is used by keyboard alone: Tab reaches each link in
 * order, Enter follows it.
 */
describe('services: the public OGC API pages in Chromium', function () {
  let t: TestServer;
  let page: Page;
  const slug = 'baumkataster_e2e';

  browserSuite(
    {
      admin: true,
      signIn: false,
      setUp: async (server) => {
        const a = await server.admin();
        const depot = await a.post('/api/v1/depot/', { name: 'Bäume', content_type: '/api/v1/type/feature/' });
        assert.equal(depot.status, 201, JSON.stringify(depot.body));
        const trees = [
          { art: 'Eiche', hoehe: 12.5, pflanzjahr: 1987, lon: 6.95, lat: 50.94 },
          { art: 'Buche', hoehe: 9, pflanzjahr: 2003, lon: 6.96, lat: 50.93 },
          { art: 'Linde <Sommer>', hoehe: 15.25, pflanzjahr: 1954, lon: 6.97, lat: 50.92 },
        ];
        let moment = 0;
        for (const { lon, lat, ...properties } of trees) {
          const made = await a.post(`/api/v1/datum/create-in-depot/${depot.body.id}/`, {
            feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties },
          });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          moment = made.body.moment_id;
        }
        const approved = await a.post(`/api/v1/moment/${moment}/approve/`, {});
        assert.equal(approved.status, 200, JSON.stringify(approved.body));
        const layer = await a.post('/api/v1/layer/', {
          name: 'Baumkataster Köln',
          slug,
          public: true,
          description: 'Straßenbäume im Stadtgebiet',
          layerpiles: [depot.body.resource_uri],
        });
        assert.equal(layer.status, 201, JSON.stringify(layer.body));
      },
    },
    (s) => ({ t, page } = s),
  );

  /** Opens `path` as a browser does (Accept: text/html) in `locale`, and checks language and title. */
  async function open(path: string, locale: 'en' | 'de'): Promise<void> {
    await page.context().setExtraHTTPHeaders({ 'Accept-Language': locale });
    const res = await page.goto(`${t.url}${path}`);
    assert.equal(res?.status(), 200, path);
    assert.match(res!.headers()['content-type'], /^text\/html/);
    assert.equal(await page.locator('html').getAttribute('lang'), locale);
    assert.ok((await page.title()).length > 0);
    assert.equal(await page.locator('h1').count(), 1);
  }

  /** Tabs from the top of the page until the focused link's text matches, and follows it with Enter. */
  async function followByKeyboard(name: RegExp): Promise<void> {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent ?? '');
      if (name.test(focused)) {
        await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
        return;
      }
    }
    assert.fail(`no link matching ${String(name)} is reachable by Tab on ${page.url()}`);
  }

  for (const locale of ['en', 'de'] as const) {
    it(`leads a signed-out reader from the list of public layers to one tree by keyboard, every page accessible (${locale})`, async () => {
      await open('/services/ogc/', locale);
      await expectAccessible(page);
      await open('/services/ogc/collections', locale);
      assert.ok(await page.getByText('Baumkataster Köln').first().isVisible());
      await expectAccessible(page);

      await open(`/services/ogc/${slug}/`, locale);
      await expectAccessible(page);
      await followByKeyboard(/Baumkataster Köln|collection|Sammlung/i);
      assert.match(page.url(), new RegExp(`/services/ogc/${slug}/collections`));
      await expectAccessible(page);

      await open(`/services/ogc/${slug}/collections/${slug}/items`, locale);
      const table = page.locator('table');
      assert.equal(await table.locator('tbody tr').count(), 3);
      assert.ok(await table.locator('caption').isVisible());
      // Values are shown as text, never as markup.
      assert.ok(await page.getByText('Linde <Sommer>').isVisible());
      await expectAccessible(page);
      const firstId = (await table.locator('tbody tr th a').first().textContent())!.trim();
      await page.locator('body').focus();
      await followByKeyboard(new RegExp(`^${firstId}$`));
      assert.match(page.url(), new RegExp(`/items/${firstId}`));
      assert.equal(await page.locator('html').getAttribute('lang'), locale);
      assert.ok(await page.locator('table caption').isVisible());
      await expectAccessible(page);
    });
  }
});
