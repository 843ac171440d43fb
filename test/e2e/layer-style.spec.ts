import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/** Cesium's widget as the map probe hands it out (only what this spec reads). */
interface ProbedWidget {
  isDestroyed(): boolean;
  dataSources: {
    length: number;
    get(i: number): {
      entities: {
        values: Array<{ show: boolean; point?: { color?: { getValue(t: unknown): { red: number; green: number } } } }>;
      };
    };
  };
}
interface MapProbe {
  __werkbankMapProbe: ProbedWidget[];
}

/**
 * The map style editor in Chromium (issue 16, decision 0061): a second rule with a filter changes
 * the live preview, is saved with the layer (revision counts) and is there after a reload; the
 * Presentation tab passes WCAG 2.1 AA in English and German.
 */
describe('layers: the map style editor (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let layerId = 0;
  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        const depot = (await a.post('/api/v1/depot/', { name: 'Bäume', content_type: '/api/v1/type/feature/' })).body.id;
        for (const [art, x] of [
          ['Eiche', 7.1],
          ['Buche', 7.2],
        ] as const)
          await a.post(`/api/v1/datum/create-in-depot/${depot}/`, {
            feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, 51.4] }, properties: { art } },
          });
        layerId = (await a.get(`/api/v1/depot/${depot}/show_as_layer/`)).body.layer_id;
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  /** The preview's shown point entities and how many of them are green (the new rule's colour). */
  const preview = () =>
    page.evaluate(() => {
      const widget = (window as unknown as MapProbe).__werkbankMapProbe.filter((w) => !w.isDestroyed()).pop();
      if (!widget || !widget.dataSources.length) return { points: -1, green: -1 };
      const points = widget.dataSources
        .get(0)
        .entities.values.filter((e) => e.show && e.point)
        .map((e) => e.point!.color!.getValue(undefined));
      return { points: points.length, green: points.filter((c) => c.green > 0.9 && c.red < 0.1).length };
    });

  async function openPresentation(): Promise<void> {
    await page.goto(`${t.url}/layers/edit/${layerId}`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('tab', { name: /^(Presentation|Darstellung)$/ }).click();
    await page.getByTestId('style-rule-editor').waitFor();
  }

  it('adds a filtered rule, sees the preview change, saves it and finds it after a reload', async () => {
    await page.addInitScript(() => {
      (window as unknown as MapProbe).__werkbankMapProbe = [];
    });
    await openPresentation();
    await page.waitForFunction(() => (window as unknown as MapProbe).__werkbankMapProbe.length > 0);
    await page.waitForFunction(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.at(-1);
      return !!w && w.dataSources.length > 0;
    });
    assert.deepEqual(await preview(), { points: 2, green: 0 });
    const before = (await admin.get(`/api/v1/layer/${layerId}/`)).body.revision;

    await page.getByTestId('style-add-rule').click();
    await page.fill('#style-rule-name', 'Eichen');
    await page.fill('#style-symbol-fill', '#00ff00');
    await page.fill('#style-symbol-fill-opacity', '100');
    await page.getByTestId('style-rule-editor').getByRole('tab', { name: 'Filter' }).click();
    await page.getByTestId('style-filter-add').click();
    await page.selectOption('#style-cond-attr-0', 'art');
    await page.fill('#style-cond-value-0', 'Eiche');
    // The preview draws the oak twice now: once by the first rule, once in green by "Eichen".
    await page.waitForFunction(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop();
      return (
        !!w && w.dataSources.length > 0 && w.dataSources.get(0).entities.values.filter((e) => e.show && e.point).length === 3
      );
    });
    assert.deepEqual(await preview(), { points: 3, green: 1 });
    assert.ok(await page.getByRole('img', { name: 'Legend of Eichen' }).first().isVisible());

    await page.getByTestId('layer-save').click();
    await page.getByText('Object was saved').first().waitFor();
    const stored = (await admin.get(`/api/v1/layer/${layerId}/`)).body;
    assert.equal(stored.revision, before + 1);
    assert.equal(stored.style.rules.length, 2);
    assert.deepEqual(stored.style.rules[1].filter, { op: '==', attribute: 'art', value: 'Eiche' });
    assert.equal(stored.style.rules[1].symbol.fill, '#00ff00');

    await page.reload();
    await page.waitForLoadState('networkidle');
    await page.getByRole('tab', { name: 'Presentation' }).click();
    await page.getByTestId('style-rules').getByText('Eichen').waitFor();
    const sld = await admin.get(`/api/v1/layer/${layerId}/style.sld`);
    assert.match(sld.body as string, /<se:Name>Eichen<\/se:Name>/);
  });

  it('passes WCAG 2.1 AA on the Presentation tab, in English and German', async () => {
    for (const lang of ['en', 'de']) {
      await admin.patch('/api/v2/backend/profile', { language: lang });
      await page.context().addCookies([{ name: 'werkbank_lang', value: lang, url: t.url }]);
      await openPresentation();
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      await page.getByTestId('style-rule-editor').getByRole('tab', { name: 'Filter' }).click();
      await page.getByTestId('style-filter').waitFor();
      await expectAccessible(page);
      await page
        .getByTestId('style-rule-editor')
        .getByRole('tab', { name: /^(Labeling|Beschriftung)$/ })
        .click();
      await page.locator('#style-text-label').waitFor();
      await expectAccessible(page);
    }
    await admin.patch('/api/v2/backend/profile', { language: 'en' });
  });
});
