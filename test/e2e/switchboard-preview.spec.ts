import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { addFrame, contentOf, newSwitchboard, type Obj } from '@werkbank/plugin-switchboards/testing';
import { browserSuite, expectAccessible } from './browser';

const point = (lon: number, lat: number, properties: Record<string, unknown> = {}) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties },
});

/**
 * The switchboard preview (issue 18, decision 0090): the canvas's preview frame shows the viewer in
 * switchboard mode with the frames visible on the map; the author draws a feature into a frame
 * edited in the map and finds it in the frame; changes from elsewhere reach the preview live; the
 * viewer asks the canvas to open a frame.
 */
describe('switchboard preview: the viewer in switchboard mode (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let sb: Obj;
  let places: Obj;

  browserSuite(
    {
      admin: true,
      viewport: { width: 1600, height: 1000 },
      setUp: async (server) => {
        const a = await server.admin();
        sb = await newSwitchboard(a, { name: 'Orte am Rhein' });
        places = await addFrame(a, sb, 'feature', [point(6.96, 50.94, { name: 'Köln' }), point(7.1, 50.73, { name: 'Bonn' })], {
          name: 'Orte',
          content_visible: true,
          content_edit: true,
        });
        await addFrame(a, sb, 'feature', [point(7.1, 50.73)], { name: 'Verborgen' });
        // A WMS frame: shown as imagery over the base map (its address need not answer here).
        await addFrame(a, sb, 'wms', [{ tms_url: 'https://geo.example/wms', layers: 'Luftbild', bbox: [6.9, 50.7, 7.2, 51] }], {
          name: 'Luftbild',
          content_visible: true,
        });
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  /** The Cesium canvas is a drawing surface without content for axe to judge; its region is labelled. */
  const CANVAS = ['.wbv-globe canvas'];
  const counted = (v: FrameLocator | Page, text: string) => v.locator('.wbv-frame[data-frame]').getByText(text).waitFor();

  it('opens by itself with the visible frames, their counts and drawing tools, and passes WCAG 2.1 AA', async () => {
    await page.goto(`${t.url}/viewer/switchboard/${sb.id}/?lang=de`);
    await page.getByRole('heading', { level: 1, name: 'Orte am Rhein' }).waitFor();
    await counted(page, '2 von 2 Einträgen in der Karte · in der Karte bearbeitet');
    assert.equal(await page.getByText('Verborgen').count(), 0);
    await counted(page, '1 von 1 Einträgen in der Karte');
    assert.equal(await page.locator('.wbv-globe').getAttribute('data-imagery'), 'Luftbild');
    // Hidden by its switch, the service leaves the map.
    await page.getByRole('checkbox', { name: 'Luftbild' }).uncheck();
    assert.equal(await page.locator('.wbv-globe').getAttribute('data-imagery'), '');
    await page.getByRole('checkbox', { name: 'Luftbild' }).check();
    await page.getByRole('group', { name: 'In Orte zeichnen' }).getByRole('button', { name: 'Punkt zeichnen' }).waitFor();
    // Standing alone (not in the canvas), it offers nothing that needs the canvas.
    assert.equal(await page.getByRole('button', { name: 'Datenrahmen öffnen' }).count(), 0);
    await page.locator('.wbv-globe canvas').waitFor();
    await expectAccessible(page, CANVAS);
    await page.getByRole('button', { name: 'Punkt zeichnen' }).click();
    await page.getByRole('region', { name: 'Zeichnen in Orte' }).waitFor();
    await expectAccessible(page, CANVAS);
  });

  it('draws a point in the canvas’s preview into the frame, follows changes made elsewhere, and opens the frame in the canvas', async () => {
    await page.goto(`${t.url}/switchboard/${sb.id}`);
    await page.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();
    await page.getByTestId('preview-toggle').click();
    const viewer = page.frameLocator('[data-testid=preview] iframe');
    await viewer.getByRole('heading', { level: 1, name: 'Orte am Rhein' }).waitFor();
    await counted(viewer, '2 of 2 items on the map · edited in the map');

    // Draw a point: by keyboard, the map's centre; Save puts it into the frame.
    await viewer.getByRole('button', { name: 'Draw point' }).click();
    const drawing = viewer.getByRole('region', { name: 'Drawing in Orte' });
    await drawing.getByRole('button', { name: 'Add the map’s centre' }).click();
    await drawing.getByText('1 points set (1 needed)').waitFor();
    await drawing.getByRole('button', { name: 'Save' }).click();
    await viewer.getByRole('status').getByText('Saved in Orte.').waitFor();
    await counted(viewer, '3 of 3 items on the map · edited in the map');
    const items = (await contentOf(admin, places)) as Array<{ feature: { geometry: { type: string; coordinates: number[] } } }>;
    assert.equal(items.length, 3);
    assert.equal(items[2].feature.geometry.type, 'Point');
    // The map's centre is the middle of the frame's features, which the map was fitted to.
    const [lon, lat] = items[2].feature.geometry.coordinates;
    assert.ok(Math.abs(lon - 7.03) < 0.05 && Math.abs(lat - 50.835) < 0.05, `${lon}, ${lat}`);

    // A change made elsewhere reaches the canvas live, and the canvas has the preview reload.
    assert.equal((await admin.post(`/api/v1/datum/create-in-frame/${places.id}/`, point(7.0, 51.0))).status, 201);
    await counted(viewer, '4 of 4 items on the map · edited in the map');

    // The viewer asks the canvas to open the frame (switchboard_action openFrame).
    await viewer.locator(`.wbv-frame[data-frame="${places.id}"]`).getByRole('button', { name: 'Open frame' }).click();
    await page.locator('.bp6-dialog').getByText('Orte').first().waitFor();
    await page.keyboard.press('Escape');
    // Once the dialog's backdrop faded out, clicks reach the preview again.
    await page.locator('.bp6-overlay-backdrop').waitFor({ state: 'detached' });

    // The drawn point sits in the middle of the map: clicking it selects it, and it can be deleted.
    const globe = (await viewer.locator('.wbv-globe').boundingBox())!;
    await page.mouse.click(globe.x + globe.width / 2 + 3, globe.y + globe.height / 2 - 3);
    const selected = viewer.getByRole('region', { name: 'Selected feature' });
    await selected.getByRole('heading', { name: 'Orte, item 3' }).waitFor();
    await selected.getByRole('button', { name: 'Delete feature' }).click();
    await viewer.getByRole('status').getByText('The feature was removed from Orte.').waitFor();
    await counted(viewer, '3 of 3 items on the map · edited in the map');
    assert.deepEqual(
      ((await contentOf(admin, places)) as Array<{ feature: { geometry: { coordinates: number[] } } }>).map(
        (i) => i.feature.geometry.coordinates,
      ),
      [
        [6.96, 50.94],
        [7.1, 50.73],
        [7.0, 51.0],
      ],
    );
  });
});
