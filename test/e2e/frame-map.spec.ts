import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { addFrame, newSwitchboard, SWITCHBOARD_PLUGINS, type Obj } from '@werkbank/plugin-switchboards/testing';
import { browserSuite, expectAccessible } from './browser';

interface ProbedWidget {
  isDestroyed(): boolean;
  dataSources: { length: number; get(i: number): { entities: { values: Array<{ show: boolean }> } } };
}
interface MapProbe {
  __werkbankMapProbe: ProbedWidget[];
}

const point = (x: number, y: number, name: string) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties: { name } },
});

/** Issue 16: the frame dialog's read-only Map tab for feature frames, in Chromium, English and German. */
describe('the frame dialog: Map tab of a feature frame (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  browserSuite({ server: { plugins: SWITCHBOARD_PLUGINS }, admin: true }, (s) => ({ t, page, admin } = s));

  async function openFrame(sb: Obj, frame: Obj): Promise<void> {
    await page.goto(`${t.url}/switchboard/${sb.id}`);
    await page.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();
    await page.locator(`[data-testid=canvas-frame][data-uri="${frame.resource_uri}"]`).dblclick();
    await page.getByTestId('frame-tabs').waitFor();
  }

  it('shows the frame’s features on the map, says how many, and is accessible', async () => {
    await page.addInitScript(() => {
      (window as unknown as MapProbe).__werkbankMapProbe = [];
    });
    const sb = await newSwitchboard(admin);
    const items = [
      point(7.1, 50.7, 'Nord'),
      point(7.2, 50.6, 'Süd'),
      { feature: { type: 'Feature', geometry: null, properties: {} } },
    ];
    const frame = await addFrame(admin, sb, 'feature', items, { ui_x: 0, ui_y: 0, name: 'Brunnen' });
    await openFrame(sb, frame);
    await page.getByTestId('frame-tab-map').click();
    await page.getByTestId('frame-map').locator('canvas').waitFor();
    await page.getByTestId('frame-map').getByText('The map shows all 3 datums.').waitFor();
    await page.waitForFunction(() => {
      const w = (window as unknown as MapProbe).__werkbankMapProbe.filter((x) => !x.isDestroyed()).pop();
      return !!w && w.dataSources.length > 0 && w.dataSources.get(0).entities.values.filter((e) => e.show).length === 2;
    });
    assert.equal(await page.getByRole('region', { name: "Map of the frame's features" }).count(), 1);
    await expectAccessible(page);

    // A row frame has no Map tab.
    const rows = await addFrame(admin, sb, 'row', [{ value: { a: 1 } }], { ui_x: 400, ui_y: 0, name: 'Zeilen' });
    await openFrame(sb, rows);
    assert.equal(await page.getByTestId('frame-tab-map').count(), 0);
  });

  it('speaks German', async () => {
    await admin.patch('/api/v2/backend/profile', { language: 'de' });
    await page.context().addCookies([{ name: 'werkbank_lang', value: 'de', url: t.url }]);
    try {
      const sb = await newSwitchboard(admin);
      const frame = await addFrame(admin, sb, 'feature', [point(7.1, 50.7, 'Nord')], { ui_x: 0, ui_y: 0, name: 'Brunnen' });
      await openFrame(sb, frame);
      await page.getByRole('tab', { name: 'Karte', exact: true }).click();
      await page.getByTestId('frame-map').getByText('Die Karte zeigt alle 1 Daten.').waitFor();
      await page.getByRole('region', { name: 'Karte der Features des Frames' }).locator('canvas').waitFor();
      await expectAccessible(page);
    } finally {
      await admin.patch('/api/v2/backend/profile', { language: 'en' });
    }
  });
});
