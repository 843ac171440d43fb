import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '@werkbank/testing/node';
import { createCanvas } from '@napi-rs/canvas';
import { browserSuite, expectAccessible, login } from './browser';

/**
 * The view list and the view editor (issue 18): an author composes a view from two layers and a POI
 * tour, watches the live preview follow, and publishes it — only with publish_view. Both screens
 * pass WCAG 2.1 AA (axe-core) and the tree editor works by keyboard.
 */
describe('views: the view list and editor with its live preview (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let author = { username: '', password: '' };

  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        for (const [name, slug] of [
          ['Gewässer', 'gewaesser_e2e'],
          ['Radwege', 'radwege_e2e'],
        ]) {
          const depot = await a.post('/api/v1/depot/', { name, content_type: '/api/v1/type/feature/' });
          const made = await a.post(`/api/v1/datum/create-in-depot/${depot.body.id}/`, {
            feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [6.95, 50.94] }, properties: { name } },
          });
          assert.equal((await a.post(`/api/v1/moment/${made.body.moment_id}/approve/`, {})).status, 200);
          const layer = await a.post('/api/v1/layer/', { name, slug, public: true, layerpiles: [depot.body.resource_uri] });
          assert.equal(layer.status, 201, JSON.stringify(layer.body));
        }
        // An author without publish_view, who may still read and write layers and views.
        const user = await server.user();
        author = { username: user.username, password: user.password };
      },
    },
    (s) => ({ t, page } = s),
  );

  /**
   * Ticks the one hit of the search picker once its search (200 ms after the last key) has answered
   * with it alone — before that, the hits of the previous search are still listed.
   */
  const pickHit = async (name: string) => {
    await page.waitForFunction((n) => {
      const hits = [...document.querySelectorAll('.wb-object-picker-hits li')];
      return hits.length === 1 && hits[0].textContent?.includes(n);
    }, name);
    await page.getByRole('checkbox', { name: new RegExp(name) }).check({ force: true });
  };

  /** What the viewer in the preview frame draws (its layers, bottom first). */
  const drawn = (expected: string) =>
    page.waitForFunction((want) => {
      const frame = document.querySelector<HTMLIFrameElement>('[data-testid=view-preview-frame]');
      return frame?.contentDocument?.querySelector('.wbv-globe')?.getAttribute('data-imagery') === want;
    }, expected);

  it('composes a view from two layers and a tour, the preview following, and publishes it', async () => {
    await page.goto(`${t.url}/views/`);
    await page.getByTestId('view-list').waitFor();
    await expectAccessible(page);
    await page.getByTestId('new-view').click();
    await page.getByTestId('view-editor').waitFor();
    await page.locator('#view-name').fill('Wasser und Rad');
    await page.locator('#view-slug').fill('wasser_rad');
    await page.getByRole('tab', { name: 'Layer' }).click();
    for (const name of ['Gewässer', 'Radwege']) {
      await page.getByTestId('view-add-layer-open').click();
      await page.locator('#view-layer-search').fill(name);
      await pickHit(name);
      await page.getByTestId('view-add-layer-confirm').click();
    }
    assert.equal(await page.locator('[data-testid^=view-tree-row-]').count(), 2);
    await drawn('radwege_e2e,gewaesser_e2e');
    // By keyboard: move Radwege up; the preview follows.
    await page.getByRole('button', { name: 'Move Radwege up' }).focus();
    await page.keyboard.press('Enter');
    await drawn('gewaesser_e2e,radwege_e2e');
    // A layer switched off at start leaves the preview.
    await page.getByRole('checkbox', { name: 'Initially visible: Gewässer' }).uncheck({ force: true });
    await drawn('radwege_e2e');
    await expectAccessible(page, ['[data-testid=view-preview-frame]']);

    // A tour of two POIs.
    await page.getByRole('tab', { name: 'POI' }).click();
    await page.getByTestId('view-add-poi-group').click();
    await page.getByRole('checkbox', { name: /Show as tour|Als Tour zeigen/ }).check({ force: true });
    await page
      .getByRole('button', { name: /Add POI|POI hinzufügen/ })
      .nth(1)
      .click();
    await page
      .getByRole('button', { name: /Add POI|POI hinzufügen/ })
      .nth(1)
      .click();
    assert.equal(await page.locator('[data-testid^=view-poi-row-]').count(), 3);
    await page.waitForFunction(() => {
      const frame = document.querySelector<HTMLIFrameElement>('[data-testid=view-preview-frame]');
      return !!frame?.contentDocument?.querySelector('.wbv-panel')?.textContent?.match(/Tour .* starten|Start tour/);
    });

    // Where it starts: besides 'Automatic', the start modes plug-ins offer.
    await page.getByRole('tab', { name: 'Home view' }).click();
    const mode = page.getByRole('combobox', { name: 'Start mode' });
    await page.waitForFunction(() => document.querySelectorAll('#view-start-mode option').length >= 3);
    assert.deepEqual(await mode.locator('option').allTextContents(), [
      'Automatic',
      'All layers (also those hidden at start)',
      'The first place (POI)',
    ]);
    await mode.selectOption({ label: 'The first place (POI)' });
    await expectAccessible(page, ['[data-testid=view-preview-frame]']);

    // Publish (the administrator holds publish_view) and save.
    await page.getByRole('tab', { name: /Permissions|Berechtigungen/ }).click();
    await page.getByTestId('view-public').check({ force: true });
    await page.getByTestId('view-save').click();
    await page
      .getByText(/Object was saved|Objekt wurde gespeichert/)
      .first()
      .waitFor();
    const saved = await t.admin().then((a) => a.get('/api/v1/view/?slug=wasser_rad'));
    const view = saved.body.objects[0];
    assert.equal(view.public, true);
    assert.equal(view.layergroup.layers.length, 2);
    assert.equal(view.poigroup.poigroups[0].is_tour, true);
    assert.equal(view.poigroup.poigroups[0].pois.length, 2);
    assert.equal(view.config.viewer.start_state, 'first_place');
  });

  it('uploads a preview image through the image drop zone, shown to visitors of the public view, and removes it', async () => {
    const a = await t.admin();
    const view = (await a.get('/api/v1/view/?slug=wasser_rad')).body.objects[0] as { id: number; image: string };
    await page.goto(`${t.url}/views/edit/${view.id}`);
    await page.getByTestId('view-editor').waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    // A 64 × 40 PNG, as a camera or a screenshot tool would give it.
    const canvas = createCanvas(64, 40);
    const g = canvas.getContext('2d');
    g.fillStyle = '#2a7ab0';
    g.fillRect(0, 0, 64, 40);
    await page
      .getByTestId('view-image-input')
      .setInputFiles({ name: 'karte.png', mimeType: 'image/png', buffer: canvas.toBuffer('image/png') });
    const thumb = page.getByTestId('view-image-image');
    await thumb.waitFor();
    const src = (await thumb.getAttribute('src'))!;
    const stored = (await a.get(`/api/v1/view/${view.id}/`)).body.image as string;
    // The view's image is the stored one's address (the thumbnail may add a version to it).
    assert.match(stored, new RegExp(`^/api/v1/view/${view.id}/image/`));
    assert.ok(src.startsWith(stored), `${src} / ${stored}`);
    // The view is public: a signed-out visitor gets the image.
    const served = await fetch(`${t.url}${src}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    await expectAccessible(page, ['[data-testid=view-preview-frame]']);
    await page.getByTestId('view-image-remove').click();
    await thumb.waitFor({ state: 'detached' });
    assert.equal((await a.get(`/api/v1/view/${view.id}/`)).body.image, '');
  });

  it('does not let an author without publish_view publish', async () => {
    const context = await page
      .context()
      .browser()!
      .newContext({ viewport: { width: 1455, height: 900 } });
    const own = await context.newPage();
    await login(own, t.url, author.username, author.password);
    await own.goto(`${t.url}/views/`);
    await own.getByTestId('new-view').click();
    await own.getByTestId('view-editor').waitFor();
    await own.getByRole('tab', { name: /Permissions|Berechtigungen/ }).click();
    assert.equal(await own.getByTestId('view-public').isDisabled(), true);
    await own.getByText(/Only users with the right to publish views|Nur Benutzer mit dem Recht/).waitFor();
    await context.close();
  });

  it('freezes a view from its editor and lists the frozen view', async () => {
    const admin = await t.admin();
    const made = await admin.post('/api/v1/view/', { name: 'Zum Einfrieren' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await page.goto(`${t.url}/views/edit/${made.body.id}`);
    await page.getByTestId('view-freeze').click();
    await page.locator('#freeze-slug').fill('stand_eins');
    // Judged once the dialog has faded in (mid-fade its colours are not the ones a user reads).
    await page.locator('.bp6-dialog-container.bp6-overlay-enter-done').waitFor();
    await expectAccessible(page, ['[data-testid=view-preview-frame]']);
    await page.getByTestId('freeze-confirm').click();
    await page.getByTestId('finalview-editor').waitFor();
    assert.equal(await page.locator('#finalview-slug').inputValue(), 'stand_eins');
    await page.locator('#finalview-slug').fill('stand_zwei');
    await page.getByTestId('finalview-save').click();
    await page
      .getByText(/Object was saved|Objekt wurde gespeichert/)
      .first()
      .waitFor();
    await expectAccessible(page);
    await page.goto(`${t.url}/finalviews/`);
    await page.getByTestId('finalview-list').getByText('stand_zwei').waitFor();
    await expectAccessible(page);
  });

  it('builds a portal in its editor: a view, an external view and a layer, published, and its page shows them', async () => {
    await page.goto(`${t.url}/portals/`);
    await page.getByTestId('portal-list').waitFor();
    await expectAccessible(page);
    await page.getByTestId('new-portal').click();
    await page.getByTestId('portal-editor').waitFor();
    await page.locator('#portal-name').fill('Mobilität');
    await page.locator('#portal-slug').fill('mobil');
    await page.getByRole('tab', { name: 'Views' }).click();
    await page.getByTestId('portal-add-view').click();
    await page.locator('#portal-search').fill('Wasser');
    await pickHit('Wasser und Rad');
    await page.getByTestId('portal-add-confirm').click();
    await page.getByTestId('portal-add-external').click();
    await page.locator('#portal-external-url').fill('https://atlas.example.org/');
    await page.getByTestId('portal-add-external-confirm').click();
    await page.getByTestId('portal-view-rows').getByText('(https://atlas.example.org/)').waitFor();
    await page.getByRole('button', { name: 'Edit Wasser und Rad' }).click();
    await page.locator('#portal-view-icon').selectOption('map');
    await page.locator('#portal-view-infobox').fill('Wege am Wasser');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('tab', { name: 'Layer' }).click();
    await page.getByTestId('portal-add-layer').click();
    await page.locator('#portal-search').fill('Radwege');
    await pickHit('Radwege');
    await page.getByTestId('portal-add-confirm').click();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    await page.getByTestId('portal-public').check({ force: true });
    await expectAccessible(page);
    await page.getByTestId('portal-save').click();
    await page.getByText('Object was saved').first().waitFor();
    // The page, signed out.
    const context = await page.context().browser()!.newContext();
    const visitor = await context.newPage();
    await visitor.goto(`${t.url}/portal/mobil/`);
    await visitor.getByRole('heading', { level: 1, name: 'Mobilität' }).waitFor();
    await visitor.getByRole('link', { name: 'Wasser und Rad' }).waitFor();
    await visitor.getByText('Wege am Wasser').waitFor();
    await visitor.getByRole('link', { name: '(https://atlas.example.org/)' }).waitFor();
    await visitor.getByRole('heading', { level: 3, name: 'Radwege' }).waitFor();
    await expectAccessible(visitor);
    await context.close();
  });
});
