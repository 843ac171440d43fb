import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible, login } from './browser';

/**
 * Sharing an object in a browser (spec 001 §5.1): the owner grants a colleague read on a depot in the
 * editor's Permissions tab; the colleague, who could not see it before, then finds and opens it, and
 * may not change it.
 */
describe('sharing a depot with a colleague in a browser', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  browserSuite({ admin: true }, (s) => ({ t, page, admin } = s));

  it('the owner grants read in the Permissions tab and the colleague then sees the depot, read-only', async () => {
    const made = await admin.post('/api/v1/user/', {
      username: 'berta.bauer',
      first_name: 'Berta',
      last_name: 'Bauer',
      raw_password: 'geteilt-und-gelesen',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const depot = (await admin.post('/api/v1/depot/', { name: 'Pegel an der Elbe', content_type: 'string' })).body as {
      id: number;
    };

    // Before sharing, the colleague's Magazine does not hold the depot.
    const colleague = await page
      .context()
      .browser()!
      .newContext({ viewport: { width: 1455, height: 900 } });
    const theirs = await colleague.newPage();
    await login(theirs, t.url, 'berta.bauer', 'geteilt-und-gelesen');
    await theirs.goto(`${t.url}/depots/`);
    await theirs.getByTestId('depot-list').waitFor();
    await theirs.getByTestId('depot-list').getByText('No depots in this folder').waitFor();
    assert.equal(await theirs.getByText('Pegel an der Elbe').count(), 0);

    // The owner shares it: Depot menu → Edit → Permissions → Add permission → Berta, read.
    await page.goto(`${t.url}/depots/`);
    await page.getByTestId('depot-list').getByText('Pegel an der Elbe').waitFor();
    await page.getByRole('button', { name: 'Depot menu' }).first().click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Permissions' }).click();
    await dialog.getByTestId('permissions-add').click();
    await dialog.getByRole('combobox', { name: 'User or group' }).selectOption({ label: 'Berta Bauer' });
    const grant = dialog.getByTestId('permissions-editor').locator('tbody tr').last();
    assert.equal(await grant.getByRole('checkbox', { name: 'Read' }).isChecked(), true, 'a new grant starts with read');
    assert.equal(await grant.getByRole('checkbox', { name: 'Write' }).isChecked(), false);
    await expectAccessible(page);
    await page.getByTestId('depot-save').click();
    await page.getByText('Object was saved').waitFor();
    const saved = (await admin.get(`/api/v1/depot/${depot.id}/`)).body as { permissions: unknown };
    assert.deepEqual(saved.permissions, [{ user: made.body.resource_uri, perms: ['read'] }]);

    // The colleague now finds it, opens it, and may not edit it.
    await theirs.reload();
    await theirs.getByTestId('depot-list').getByText('Pegel an der Elbe').click();
    await theirs.getByTestId('depot-screen').waitFor();
    await theirs.getByTestId('depot-header').getByRole('heading', { name: 'Pegel an der Elbe' }).waitFor();
    await theirs.goto(`${t.url}/depots/`);
    await theirs.getByRole('button', { name: 'Depot menu' }).first().click();
    await theirs.getByRole('menuitem', { name: 'Open' }).waitFor();
    assert.equal(await theirs.getByRole('menuitem', { name: 'Edit' }).count(), 0, 'read does not grant edit');
    await colleague.close();
  });
});
