import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * The public viewer (issue 18, decision 0088): a signed-out visitor opens a published view by its
 * short name, sees its layer tree and the layers drawn, switches layers by keyboard, clicks a
 * feature for its selection window, runs a tour and reads the view in French; internal views stay
 * closed. Every state passes WCAG 2.1 AA (axe-core).
 */
describe('viewer: a published view in the 3D viewer, signed out (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let viewId = 0;
  let parkDatum = { id: 0, feature: {} as Record<string, unknown> };

  /** The Cesium canvas is a drawing surface without content for axe to judge; its region is labelled. */
  const CANVAS = ['.wbv-globe canvas'];

  browserSuite(
    {
      admin: true,
      signIn: false,
      setUp: async (server) => {
        const a = await server.admin();
        const depot = await a.post('/api/v1/depot/', { name: 'Grünflächen', content_type: '/api/v1/type/feature/' });
        assert.equal(depot.status, 201, JSON.stringify(depot.body));
        const park: Record<string, unknown> = {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [6.9, 50.9],
                [7.0, 50.9],
                [7.0, 51.0],
                [6.9, 51.0],
                [6.9, 50.9],
              ],
            ],
          },
          properties: {
            name: 'Stadtwald',
            flaeche: 1234.567,
            web: 'https://example.org/stadtwald',
            info: '**Größter** Wald der Stadt',
            angelegt: '2015-05-01',
          },
        };
        const made = await a.post(`/api/v1/datum/create-in-depot/${depot.body.id}/`, { feature: park });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        parkDatum = { id: made.body.id, feature: park };
        assert.equal((await a.post(`/api/v1/moment/${made.body.moment_id}/approve/`, {})).status, 200);
        const layer = await a.post('/api/v1/layer/', {
          name: 'Parks',
          slug: 'parks_e2e',
          public: true,
          description: 'Öffentliche Grünflächen',
          layerpiles: [depot.body.resource_uri],
          selection_title: 'Park',
          selection_fields: [
            { key: 'name', displayName: 'Name', type: 'title' },
            { key: 'flaeche', displayName: 'Fläche', type: 'float_two_decimals', unit: 'm²' },
            { key: 'web', displayName: 'Webseite', type: 'link' },
            { key: 'info', displayName: 'Info', type: 'markdown' },
          ],
          attribute_filters: [
            {
              attribute_key: 'name',
              display_name: 'Park',
              filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: ['Stadtwald', 'Volksgarten'] } },
            },
            {
              attribute_key: 'angelegt',
              display_name: 'Angelegt',
              filter: { filter_type: 'temporal-bounds', filter_arguments: { time_min: null, time_max: null } },
            },
          ],
        });
        assert.equal(layer.status, 201, JSON.stringify(layer.body));
        const view = await a.post('/api/v1/view/', {
          name: 'Stadtgrün',
          subline: 'Parks und Wälder',
          slug: 'stadtgruen_e2e',
          public: true,
          layergroup: {
            layers: [
              {
                layer: layer.body.resource_uri,
                queryable: true,
                opacity_editable: true,
                exportable: true,
                time_min: '2010-01-01T00:00:00.000Z',
                time_max: '2020-12-31T00:00:00.000Z',
              },
            ],
          },
          poigroup: {
            poigroups: [
              {
                name: 'Rundgang',
                is_tour: true,
                init_expanded: true,
                pois: [
                  { name: 'Dom', lon: 6.958, lat: 50.941, fly_duration: 0.2, wait_duration: 0.2 },
                  { name: 'Stadtwald', lon: 6.95, lat: 50.95, fly_duration: 0.2, wait_duration: 0.2 },
                ],
              },
            ],
          },
        });
        assert.equal(view.status, 201, JSON.stringify(view.body));
        viewId = view.body.id;
        const fr = await a.post(`/api/v2/presenting/view/${viewId}/translations`, [
          { key: 'Stadtgrün', values: { fr: 'Verdure urbaine', en: 'Urban green' } },
          { key: 'Rundgang', values: { fr: 'Promenade' } },
        ]);
        assert.equal(fr.status, 200, JSON.stringify(fr.body));
        assert.equal((await a.post('/api/v1/view/', { name: 'Intern', slug: 'intern_e2e' })).status, 201);
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  /** Opens a viewer address in German (the browser's own language is English). */
  async function open(path: string): Promise<void> {
    await page.goto(`${t.url}${path}?lang=de`);
  }

  const imagery = () => page.locator('.wbv-globe').getAttribute('data-imagery');

  it('opens a public view by its short name with its layer tree and layers drawn, and passes WCAG 2.1 AA', async () => {
    await open('/viewer/stadtgruen_e2e/');
    await page.getByRole('heading', { level: 1, name: 'Stadtgrün' }).waitFor();
    assert.equal(await page.title(), 'Stadtgrün');
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    await page.getByText('Parks und Wälder').waitFor();
    assert.equal(await page.getByRole('checkbox', { name: 'Parks' }).isChecked(), true);
    assert.equal(await imagery(), 'parks_e2e');
    await page.locator('.wbv-globe canvas').waitFor();
    await expectAccessible(page, CANVAS);
    // By keyboard: Tab to the layer's switch, Space switches it off; the opacity slider goes with it.
    await page.getByRole('slider', { name: 'Deckkraft von Parks' }).waitFor();
    await page.getByRole('checkbox', { name: 'Parks' }).focus();
    await page.keyboard.press('Space');
    assert.equal(await imagery(), '');
    assert.equal(await page.getByRole('slider', { name: 'Deckkraft von Parks' }).count(), 0);
    await page.keyboard.press('Space');
    assert.equal(await imagery(), 'parks_e2e');
    // An exportable layer downloads its features in the map's current extent.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Parks in diesem Kartenausschnitt herunterladen (GeoJSON)' }).click(),
    ]);
    assert.match(download.url(), /\/services\/geojson\/parks_e2e\/\?bbox=[-\d.]+,[-\d.]+,[-\d.]+,[-\d.]+$/);
    const { readFile } = await import('node:fs/promises');
    const collection = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      features: Array<{ properties: { name: string } }>;
    };
    assert.deepEqual(
      collection.features.map((f) => f.properties.name),
      ['Stadtwald'],
    );
    // And as CSV, with the geometry as WKT.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Parks in diesem Kartenausschnitt herunterladen (CSV)' }).click(),
    ]);
    assert.match(csv.url(), /\/services\/geojson\/parks_e2e\/\?f=csv&bbox=[-\d.]+,[-\d.]+,[-\d.]+,[-\d.]+$/);
    assert.equal(csv.suggestedFilename(), 'parks_e2e.csv');
    const rows = (await readFile((await csv.path())!, 'utf8')).split('\r\n');
    assert.match(rows[0], /^\ufeffWKT,/);
    assert.match(rows[1], /^"POLYGON \(\(6\.9 50\.9, 7 50\.9, 7 51, 6\.9 51, 6\.9 50\.9\)\)",.*Stadtwald/);
    // The same view by its id.
    await open(`/viewer/${viewId}/`);
    await page.getByRole('heading', { level: 1, name: 'Stadtgrün' }).waitFor();
  });

  it('shows the selection window of a clicked feature, built from the layer’s selection fields', async () => {
    await open('/viewer/stadtgruen_e2e/');
    await page.locator('.wbv-globe canvas').waitFor();
    // Home is 'Automatic': the extent of the park, so the middle of the map lies inside it.
    const box = (await page.locator('.wbv-globe').boundingBox())!;
    await page.waitForFunction(() => document.querySelector('.wbv-globe canvas') !== null);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const selection = page.getByRole('region', { name: 'Ausgewähltes Objekt' });
    await selection.waitFor();
    await selection.getByRole('heading', { name: 'Stadtwald' }).waitFor();
    assert.match(await selection.innerText(), /Fläche\s+1\.234,57 m²/);
    assert.equal(
      await selection.getByRole('link', { name: 'https://example.org/stadtwald' }).getAttribute('rel'),
      'noopener noreferrer',
    );
    assert.equal(await selection.locator('.wbv-sel-markdown strong').innerText(), 'Größter');
    await expectAccessible(page, CANVAS);
    await page.keyboard.press('Escape');
    assert.equal(await selection.count(), 0);
  });

  it('filters a layer by its attributes and shows its data as it was at the time slider’s day', async () => {
    await open('/viewer/stadtgruen_e2e/');
    await page.locator('.wbv-globe canvas').waitFor();
    const box = (await page.locator('.wbv-globe').boundingBox())!;
    const click = () => page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const selection = page.getByRole('region', { name: 'Ausgewähltes Objekt' });
    const nothing = page.getByRole('status').getByText('An dieser Stelle wurde nichts gefunden.');
    const found = async () => {
      await click();
      await selection.getByRole('heading', { name: 'Stadtwald' }).waitFor();
      await page.keyboard.press('Escape');
    };
    // The park's filter: without 'Stadtwald' the map service draws and finds nothing here.
    await page.getByRole('button', { name: 'Parks filtern' }).click();
    const filters = page.locator('.wbv-filters');
    await filters.getByRole('checkbox', { name: 'Stadtwald' }).uncheck();
    await click();
    await nothing.waitFor();
    assert.equal(await selection.count(), 0);
    await expectAccessible(page, CANVAS);
    await filters.getByRole('button', { name: 'Wieder alles zeigen' }).click();
    await found();
    // The time slider: on 1 January 2010 the park (laid out in 2015) was not there yet.
    const slider = page.getByRole('slider', { name: 'Zeit' });
    await slider.focus();
    await page.keyboard.press('Home');
    await page.getByText('Gezeigt: der Stand vom 1.1.2010').waitFor();
    await click();
    await nothing.waitFor();
    await slider.focus();
    await page.keyboard.press('End');
    await page.getByText('Gezeigt: der Stand vom 31.12.2020').waitFor();
    await found();
    await expectAccessible(page, CANVAS);
  });

  it('measures a distance and an area geodesically and reads out the pointer in WGS 84 and UTM 32N', async () => {
    await open('/viewer/stadtgruen_e2e/');
    await page.locator('.wbv-globe canvas').waitFor();
    const box = (await page.locator('.wbv-globe').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page
      .locator('.wbv-coords')
      .getByText(/WGS 84: 50,9\d{4} N, 6,9\d{4} O · ETRS89 \/ UTM 32N: 3\d\d\.\d{3} O, 5\.6\d\d\.\d{3} N/)
      .waitFor();
    await page.getByRole('button', { name: 'Messen' }).click();
    const result = page.getByRole('region', { name: 'Messung' });
    await result.waitFor();
    await page.mouse.click(box.x + box.width / 2 - 100, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width / 2 + 100, box.y + box.height / 2);
    await result.getByText(/^Strecke: [\d.,]+ (m|km)$/).waitFor();
    assert.equal(await result.getByText(/Fläche/).count(), 0);
    // By keyboard: the map's centre is a third point, which closes an area.
    await result.getByRole('button', { name: 'Kartenmitte hinzufügen' }).focus();
    await page.keyboard.press('Enter');
    await result.getByText(/Fläche: [\d.,]+ (m²|ha|km²)/).waitFor();
    await expectAccessible(page, CANVAS);
    // While measuring, clicks add points instead of selecting features.
    assert.equal(await page.getByRole('region', { name: 'Ausgewähltes Objekt' }).count(), 0);
    await page.getByRole('button', { name: 'Messen beenden' }).click();
    assert.equal(await result.count(), 0);
  });

  it('runs a tour from place to place and reads the view in French', async () => {
    await open('/viewer/stadtgruen_e2e/');
    await page.getByRole('button', { name: 'Tour Rundgang starten' }).click();
    const status = page.getByRole('status');
    await page.waitForFunction(() => /\(2 von 2\)/.test(document.querySelector('.wbv-status')?.textContent ?? ''));
    assert.match(await status.innerText(), /Tour Rundgang: Stadtwald \(2 von 2\)/);
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('fr');
    await page.getByRole('heading', { level: 1, name: 'Verdure urbaine' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    await page.getByRole('button', { name: 'Démarrer la visite Promenade' }).waitFor();
    // Untranslated texts read as their author wrote them.
    await page.getByRole('checkbox', { name: 'Parks' }).waitFor();
    assert.match(page.url(), /lang=fr/);
    await expectAccessible(page, CANVAS);
  });

  it('keeps internal views closed to visitors; a frozen view keeps its data after a change while the live view shows it', async () => {
    await open('/viewer/intern_e2e/');
    await page.getByRole('heading', { level: 1, name: 'Diese Ansicht gibt es nicht, oder sie ist nicht öffentlich.' }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Anmelden' }).getAttribute('href'),
      '/accounts/login/?next=%2Fviewer%2Fintern_e2e%2F',
    );
    await expectAccessible(page);
    // A frozen copy of the public view opens for visitors, and says what it is.
    const frozen = await admin.get(`/switchboard/create-finalview/?slug=stadtgruen_2026&view=${viewId}`);
    assert.equal(frozen.status, 200, JSON.stringify(frozen.body));
    await open('/finalview/stadtgruen_2026/');
    await page.getByText('Eingefrorene Ansicht: Sie zeigt die Daten so, wie sie beim Einfrieren waren.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Stadtgrün' }).waitFor();
    assert.equal(await imagery(), 'parks_e2e');
    await expectAccessible(page, CANVAS);

    // The data changes and the change is approved: the live view shows it, the frozen view does not.
    const feature = parkDatum.feature as { properties: Record<string, unknown> };
    const changed = await admin.patch(`/api/v1/datum/${parkDatum.id}/`, {
      feature: { ...feature, properties: { ...feature.properties, name: 'Stadtwald Nord' } },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await admin.post(`/api/v1/moment/${changed.body.moment_id}/approve/`, {})).status, 200);
    const selectedName = async (path: string) => {
      await open(path);
      await page.locator('.wbv-globe canvas').waitFor();
      const box = (await page.locator('.wbv-globe').boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      return page.getByRole('region', { name: 'Ausgewähltes Objekt' }).getByRole('heading', { level: 3 }).innerText();
    };
    assert.equal(await selectedName('/viewer/stadtgruen_e2e/'), 'Stadtwald Nord');
    assert.equal(await selectedName('/finalview/stadtgruen_2026/'), 'Stadtwald');
  });

  it('opens a public portal page signed out: cards of its views, its layers with their services, by keyboard into the viewer', async () => {
    const portal = await admin.post('/api/v1/portal/', {
      name: 'Grünes Köln',
      slug: 'gruenes_koeln',
      public: true,
      views: [
        { view: `/api/v1/view/${viewId}/`, attr: { headline_icon: 'plant', infobox_text: 'Mit Rundgang' } },
        { name: 'Stadtatlas', attr: { external_url: 'https://atlas.example.org/' } },
      ],
      layers: [{ layer: '/api/v1/layer/1/', attr: { exportable: true } }],
    });
    assert.equal(portal.status, 201, JSON.stringify(portal.body));
    await page.context().setExtraHTTPHeaders({ 'Accept-Language': 'de' });
    await page.goto(`${t.url}/portal/gruenes_koeln/`);
    await page.getByRole('heading', { level: 1, name: 'Grünes Köln' }).waitFor();
    await page.getByText('Mit Rundgang').waitFor();
    await page.getByRole('link', { name: 'Stadtatlas' }).waitFor();
    await page.getByRole('link', { name: 'Herunterladen (GeoJSON)' }).waitFor();
    await expectAccessible(page);
    // Tab reaches the view's card link first; Enter opens the view in the viewer.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Stadtgrün');
    await Promise.all([page.waitForURL(/\/viewer\/stadtgruen_e2e\/$/), page.keyboard.press('Enter')]);
    // The browser speaks English: the view's English translation.
    await page.getByRole('heading', { level: 1, name: 'Urban green' }).waitFor();
  });
});
