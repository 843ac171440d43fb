import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expectStatus, type TestClient, type TestServer } from '@werkbank/testing/node';
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
  __werkbankMapProbe?: ProbedWidget[];
}

/** The texts the flow clicks, per language (the layers plugin's own translations). */
const TEXT = {
  en: {
    tabs: ['Settings', 'Data', 'Services', 'Presentation', 'Selection window', 'Filter', 'Permissions', 'Events', 'Metadata'],
    saved: 'Object was saved',
    legend: 'Legend of Eichen',
    ruleFilter: 'Filter',
    noValues: 'No values assigned',
    savedAs: 'The style was saved as',
    approved: 'Moment was approved',
  },
  de: {
    tabs: [
      'Einstellungen',
      'Daten',
      'Dienste',
      'Darstellung',
      'Auswahlfenster',
      'Filter',
      'Berechtigungen',
      'Ereignisse',
      'Metadaten',
    ],
    saved: 'Objekt wurde gespeichert',
    legend: 'Legende von Eichen',
    ruleFilter: 'Filter',
    noValues: 'Keine Werte zugewiesen',
    savedAs: 'Der Stil wurde als',
    approved: 'Moment wurde freigegeben',
  },
} as const;

/**
 * Issue 16's closing flow in Chromium, once in German and once in English: a feature depot filled
 * from a GDAL-made GeoJSON, its moment approved, shown as a layer; every tab of the layer editor
 * edited or looked at (each passes WCAG 2.1 AA), the style given two rules whose effect the preview
 * map shows (its entities' colours), saved as a style datum of a style depot and linked (decision
 * 0068), a filter set from suggested values; after a reload everything is kept.
 */
describe('layers: the issue 16 flow from an approved depot to a styled, filtered layer (Chromium)', function () {
  this.timeout(240_000);
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  const depots: Record<string, number> = {};
  const styleDepots: Record<string, number> = {};
  const dir = mkdtempSync(join(tmpdir(), 'werkbank-layers-flow-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Three trees as GDAL writes them: a CSV with WKT through ogr2ogr into GeoJSON (EPSG:4326). */
  function gdalFeatures(): Array<{ type: 'Feature'; geometry: unknown; properties: Record<string, unknown> }> {
    const csv = join(dir, 'baeume.csv');
    writeFileSync(
      csv,
      'wkt,art,hoehe\n"POINT (7.10 51.40)",Eiche,21\n"POINT (7.12 51.41)",Buche,17\n"POINT (7.14 51.42)",Eiche,25\n',
    );
    const out = join(dir, 'baeume.geojson');
    rmSync(out, { force: true });
    execFileSync('ogr2ogr', [
      '-f',
      'GeoJSON',
      out,
      csv,
      '-oo',
      'GEOM_POSSIBLE_NAMES=wkt',
      '-oo',
      'KEEP_GEOM_COLUMNS=NO',
      '-oo',
      'AUTODETECT_TYPE=YES',
      '-a_srs',
      'EPSG:4326',
    ]);
    return JSON.parse(readFileSync(out, 'utf8')).features;
  }

  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        const features = gdalFeatures();
        for (const lang of ['en', 'de']) {
          const depot = expectStatus<{ id: number }>(
            await a.post('/api/v1/depot/', { name: `Stadtbäume ${lang}`, content_type: '/api/v1/type/feature/' }),
            201,
          );
          expectStatus(
            await a.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects: features.map((feature) => ({ feature })) }),
            201,
          );
          depots[lang] = depot.id;
          styleDepots[lang] = expectStatus<{ id: number }>(
            await a.post('/api/v1/depot/', { name: `Stile ${lang}`, content_type: '/api/v1/type/style/' }),
            201,
          ).id;
        }
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  const openTab = async (name: string) => {
    await page.getByRole('tab', { name, exact: true }).first().click();
  };
  /** The preview's shown points and how many of them are green (the second rule's colour). */
  const preview = () =>
    page.evaluate(() => {
      const widget = ((window as unknown as MapProbe).__werkbankMapProbe ?? []).filter((w) => !w.isDestroyed()).pop();
      if (!widget || !widget.dataSources.length) return { points: -1, green: -1 };
      const points = widget.dataSources
        .get(0)
        .entities.values.filter((e) => e.show && e.point)
        .map((e) => e.point!.color!.getValue(undefined));
      return { points: points.length, green: points.filter((c) => c.green > 0.9 && c.red < 0.1).length };
    });

  for (const lang of ['de', 'en'] as const) {
    it(`shows the approved depot as a layer, edits every tab, styles and filters it, and keeps it all (${lang})`, async () => {
      const tx = TEXT[lang];
      await admin.patch('/api/v2/backend/profile', { language: lang });
      await page.context().addCookies([{ name: 'werkbank_lang', value: lang, url: t.url }]);
      await page.addInitScript(() => {
        (window as unknown as MapProbe).__werkbankMapProbe = [];
      });
      // The author approves the depot's moment on its screen.
      await page.goto(`${t.url}/depot/${depots[lang]}/`);
      await page.getByTestId('depot-screen').waitFor();
      const moments = page.getByTestId('moment-list').locator('tbody tr');
      await moments.first().waitFor();
      const moment = (await moments.first().getAttribute('data-testid'))!.replace('moment-', '');
      await page.getByTestId(`moment-menu-${moment}`).click();
      await page.getByTestId('moment-approve').click();
      await page.getByText(tx.approved).first().waitFor();
      await page.goto(`${t.url}/api/v1/depot/${depots[lang]}/show_as_layer/?redirect=1`);
      await page.waitForURL(/\/layers\/edit\/\d+$/);
      const layerId = Number(new URL(page.url()).pathname.split('/').pop());
      await page.locator('#layer-name').waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), lang);

      // Settings, by keyboard.
      await page.locator('#layer-name').focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(`Bäume ${lang}`);
      await page.fill('#layer-slug', `baeume-${lang}`);
      await page.selectOption('#layer-max_zoom', '18');
      await expectAccessible(page);

      // Data: the depot is the layer's pile. Reached by the arrow keys on the tab list.
      await page.getByRole('tab', { name: tx.tabs[0], exact: true }).first().focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.getByText(`Stadtbäume ${lang}`).first().waitFor();
      await expectAccessible(page);

      await openTab(tx.tabs[2]);
      await page.getByTestId('layer-service-wms').waitFor();
      await expectAccessible(page);

      // Presentation: a second rule for oaks in green; the preview draws the oaks twice, once green.
      await openTab(tx.tabs[3]);
      await page.getByTestId('style-rule-editor').waitFor();
      await page.waitForFunction(() => {
        const w = ((window as unknown as MapProbe).__werkbankMapProbe ?? []).filter((x) => !x.isDestroyed()).pop();
        return !!w && w.dataSources.length > 0 && w.dataSources.get(0).entities.values.length > 0;
      });
      assert.deepEqual(await preview(), { points: 3, green: 0 });
      await page.getByTestId('style-add-rule').click();
      await page.fill('#style-rule-name', 'Eichen');
      await page.fill('#style-symbol-fill', '#00ff00');
      await page.fill('#style-symbol-fill-opacity', '100');
      await page.getByTestId('style-rule-editor').getByRole('tab', { name: tx.ruleFilter }).click();
      await page.getByTestId('style-filter-add').click();
      await page.selectOption('#style-cond-attr-0', 'art');
      await page.fill('#style-cond-value-0', 'Eiche');
      await page.waitForFunction(() => {
        const w = ((window as unknown as MapProbe).__werkbankMapProbe ?? []).filter((x) => !x.isDestroyed()).pop();
        return (
          !!w && w.dataSources.length > 0 && w.dataSources.get(0).entities.values.filter((e) => e.show && e.point).length === 5
        );
      });
      assert.deepEqual(await preview(), { points: 5, green: 2 });
      assert.ok(await page.getByRole('img', { name: tx.legend }).first().isVisible());
      await expectAccessible(page);
      // The style goes into a style depot and the layer links it (decision 0068).
      await page.getByTestId('style-save-as').click();
      await page.selectOption('#style-save-as-depot', { label: `Stile ${lang}` });
      await page.locator('#style-save-as-name').fill(`Baumstil ${lang}`);
      // Judged once the dialog's opening transition has ended (mid-fade colours are no real contrast).
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await expectAccessible(page);
      await page.getByTestId('style-save-as-submit').click();
      await page.getByText(tx.savedAs).first().waitFor();
      await page.getByTestId('style-source-linked').waitFor();

      await openTab(tx.tabs[4]);
      await page.fill('#layer-selection-title', `Baum ${lang}`);
      await page.getByTestId('selection-add-all').click();
      await page.getByTestId('selection-field').first().waitFor();
      await expectAccessible(page);

      await openTab(tx.tabs[5]);
      await page.getByTestId('filter-add').click();
      await page.getByText(tx.noValues).waitFor();
      await page.getByTestId('filter-suggest').click();
      await page.getByTestId('filter-suggestion').filter({ hasText: 'Eiche' }).click();
      await page.getByTestId('filter-value').filter({ hasText: 'Eiche' }).waitFor();
      await expectAccessible(page);

      for (const tab of [tx.tabs[6], tx.tabs[7], tx.tabs[8]]) {
        await openTab(tab);
        await page.waitForLoadState('networkidle');
        await expectAccessible(page);
      }

      // Save by keyboard.
      await page.getByTestId('layer-save').focus();
      await page.keyboard.press('Enter');
      await page.getByText(tx.saved).first().waitFor();

      await page.reload();
      await page.waitForLoadState('networkidle');
      await page.locator('#layer-name').waitFor();
      assert.equal(await page.inputValue('#layer-name'), `Bäume ${lang}`);
      assert.equal(await page.inputValue('#layer-slug'), `baeume-${lang}`);
      assert.equal(await page.inputValue('#layer-max_zoom'), '18');
      await openTab(tx.tabs[3]);
      await page.getByTestId('style-source-linked').waitFor();
      await page.getByTestId('style-rules').getByText('Eichen').waitFor();
      await openTab(tx.tabs[4]);
      assert.equal(await page.inputValue('#layer-selection-title'), `Baum ${lang}`);
      await openTab(tx.tabs[5]);
      await page.getByTestId('filter-value').filter({ hasText: 'Eiche' }).waitFor();

      const stored = expectStatus<Record<string, any>>(await admin.get(`/api/v1/layer/${layerId}/`), 200);
      assert.equal(stored.slug, `baeume-${lang}`);
      assert.ok(stored.style_datum, 'the layer links the style datum');
      assert.equal(stored.layerpiles[0].active, true, 'the pile’s depot has an approved moment');
      const effective = expectStatus<Record<string, any>>(await admin.get(`/api/v1/layer/${layerId}/effective_style/`), 200);
      assert.equal(effective.source, 'datum');
      assert.equal(effective.depot, `/api/v1/depot/${styleDepots[lang]}/`);
      assert.deepEqual(effective.style.rules[1].filter, { op: '==', attribute: 'art', value: 'Eiche' });
      assert.deepEqual(stored.attribute_filters[0].filter, {
        filter_type: 'allowed-values',
        filter_arguments: { allowed_values: ['Eiche'] },
      });
      assert.deepEqual(stored.selection_fields.map((f: { key: string }) => f.key).sort(), ['art', 'hoehe']);
    });
  }
});
