import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * Layers in Chromium (issue 16): a depot shown as a layer lands in the layer editor; settings
 * edited there are kept across a reload; the list and the editor pass WCAG 2.1 AA in both languages.
 */
describe('layers: show a depot as a layer, edit it, find it kept (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let depotId = 0;
  browserSuite(
    {
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        depotId = (await a.post('/api/v1/depot/', { name: 'Stadtbäume', content_type: '/api/v1/type/feature/' })).body.id;
        await a.post(`/api/v1/datum/create-in-depot/${depotId}/`, {
          feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7.1, 51.4] }, properties: { art: 'Eiche' } },
        });
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  async function visit(path: string): Promise<void> {
    await page.goto(`${t.url}${path}`);
    await page.waitForLoadState('networkidle');
  }

  it('shows the depot as a layer, edits its settings, and keeps them after a reload', async () => {
    await visit(`/api/v1/depot/${depotId}/show_as_layer/?redirect=1`);
    await page.waitForURL(/\/layers\/edit\/\d+$/);
    const layerId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.locator('#layer-name').waitFor();
    assert.equal(await page.inputValue('#layer-name'), 'Stadtbäume');
    await page.fill('#layer-name', 'Bäume der Stadt');
    await page.fill('#layer-slug', 'stadtbaeume');
    await page.selectOption('#layer-max_zoom', '18');
    await page.getByTestId('layer-save').click();
    await page.getByText('Object was saved').first().waitFor();
    await page.reload();
    await page.waitForLoadState('networkidle');
    await page.locator('#layer-name').waitFor();
    assert.equal(await page.inputValue('#layer-name'), 'Bäume der Stadt');
    assert.equal(await page.inputValue('#layer-slug'), 'stadtbaeume');
    assert.equal(await page.inputValue('#layer-max_zoom'), '18');
    await page.getByRole('tab', { name: 'Services' }).click();
    assert.match(await page.getByTestId('layer-service-wms').inputValue(), /\/services\/wms\/stadtbaeume\?/);
    const stored = (await admin.get(`/api/v1/layer/${layerId}/`)).body;
    assert.equal(stored.revision, 2);
    assert.deepEqual(
      stored.layerpiles.map((p: { depot_id: number }) => p.depot_id),
      [depotId],
    );
    await page.getByTestId('layer-close').click();
    await page.waitForURL(`${t.url}/layers/`);
    await page.getByText('Bäume der Stadt').first().waitFor();
  });

  it('configures the selection window and a filter with suggested values, kept after a reload, accessible', async () => {
    const layer = (await admin.get('/api/v1/layer/?limit=1')).body.objects[0];
    await visit(`/layers/edit/${layer.id}`);
    await page.getByRole('tab', { name: 'Selection window' }).click();
    await page.fill('#layer-selection-title', 'Baum');
    await page.getByTestId('selection-add-all').click();
    await page.getByTestId('selection-field').first().waitFor();
    assert.equal(await page.getByTestId('selection-field-name').first().inputValue(), 'Art');
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Filter' }).click();
    await page.getByTestId('filter-add').click();
    await page.getByText('No values assigned').waitFor();
    await page.getByTestId('filter-suggest').click();
    await page.getByTestId('filter-suggestion').filter({ hasText: 'Eiche' }).click();
    await page.getByTestId('filter-value').filter({ hasText: 'Eiche' }).waitFor();
    await expectAccessible(page);
    await page.getByTestId('layer-save').click();
    await page.getByText('Object was saved').first().waitFor();
    await page.reload();
    await page.waitForLoadState('networkidle');
    await page.getByRole('tab', { name: 'Filter' }).click();
    await page.getByTestId('filter-value').filter({ hasText: 'Eiche' }).waitFor();
    await page.getByRole('tab', { name: 'Selection window' }).click();
    assert.equal(await page.inputValue('#layer-selection-title'), 'Baum');
    const stored = (await admin.get(`/api/v1/layer/${layer.id}/`)).body;
    assert.deepEqual(stored.selection_fields, [{ key: 'art', displayName: 'Art', type: 'text', visible: true }]);
    assert.deepEqual(stored.attribute_filters[0].filter, {
      filter_type: 'allowed-values',
      filter_arguments: { allowed_values: ['Eiche'] },
    });
  });

  it('passes WCAG 2.1 AA on the list and the editor, in English and German', async () => {
    const layer = (await admin.get('/api/v1/layer/?limit=1')).body.objects[0];
    for (const lang of ['en', 'de']) {
      await admin.patch('/api/v2/backend/profile', { language: lang });
      await page.context().addCookies([{ name: 'werkbank_lang', value: lang, url: t.url }]);
      for (const path of ['/layers/', `/layers/edit/${layer.id}`]) {
        await visit(path);
        assert.equal(await page.getAttribute('html', 'lang'), lang, `${path} says it is ${lang}`);
        await expectAccessible(page);
      }
    }
    await admin.patch('/api/v2/backend/profile', { language: 'en' });
  });
});
