import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '@werkbank/testing/node';
import { browserSuite } from './browser';

/** The Magazine in a browser (issue 3): folders, depots, uploads, moments. */
describe('the Magazine in a browser', function () {
  let t: TestServer;
  let page: Page;

  browserSuite({}, (s) => ({ t, page } = s));

  const momentRows = () => page.getByTestId('moment-list').locator('tbody tr');

  it('creates a folder and a file depot, uploads two files of which one fails, and moves through moments', async () => {
    await page.getByTestId('main-menu').getByText('Magazine').click();
    await page.getByTestId('depot-list').waitFor();

    // A folder, then a depot of type file inside it.
    await page.getByTestId('new-folder').click();
    await page.fill('#depotfolder-name', 'Vermessung');
    await page.getByTestId('depotfolder-save').click();
    await page.getByTestId('folder-entries').getByText('Vermessung').click();
    await page.getByTestId('folder-breadcrumb').getByText('Vermessung').waitFor();
    await page.getByTestId('new-depot').click();
    await page.fill('#depot-name', 'Pläne');
    await page.selectOption('#depot-type', 'file');
    await page.getByTestId('depot-save').click();
    await page.getByText('Pläne').first().click();
    await page.getByTestId('depot-screen').waitFor();
    await page.getByTestId('depot-header').getByRole('heading', { name: 'Pläne' }).waitFor();
    await page.getByText('up to 5 GB').waitFor();

    // Two files: one with content, one empty (the server refuses empty files).
    await page.getByTestId('file-input').setInputFiles([
      { name: 'lageplan.txt', mimeType: 'text/plain', buffer: Buffer.from('Lageplan Version 1\n') },
      { name: 'leer.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
    ]);
    await page.locator('[data-testid=upload-item][data-status=success]').getByText('lageplan.txt').waitFor();
    const failed = page.locator('[data-testid=upload-item][data-status=failed]');
    await failed.getByText('leer.txt').waitFor();
    await failed.getByText(/empty/i).waitFor();
    await page.locator('[data-testid=upload-status][data-status=success]').waitFor();
    await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('lageplan.txt').waitFor();

    // The file editor previews text files (spec 001 §2.5).
    await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('lageplan.txt').click();
    await page.getByTestId('file-preview-text').getByText('Lageplan Version 1').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // Approve the moment holding the first file.
    await momentRows().first().waitFor();
    assert.equal(await momentRows().count(), 1);
    const first = (await momentRows().first().getAttribute('data-testid'))!.replace('moment-', '');
    await page.getByTestId(`moment-menu-${first}`).click();
    await page.getByTestId('moment-approve').click();
    await page.getByText('Moment was approved').waitFor();
    await page.getByTestId(`moment-${first}`).getByText('approved').waitFor();

    // A second upload opens a new moment.
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: 'nachtrag.txt', mimeType: 'text/plain', buffer: Buffer.from('Nachtrag\n') }]);
    await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('nachtrag.txt').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=moment-list] tbody tr').length === 2);

    // Open the old moment: its data as it was, read-only.
    await page.getByTestId(`moment-${first}`).click();
    await page.waitForURL(new RegExp(`/moment/${first}$`));
    await page.getByTestId('datum-read-only').waitFor();
    await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('lageplan.txt').waitFor();
    assert.equal(await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('nachtrag.txt').count(), 0);

    // Restore it: the depot reloads, the selection clears, the second file is gone from the head.
    await page.getByTestId(`moment-menu-${first}`).click();
    await page.getByTestId('moment-restore').click();
    await page.getByRole('dialog').getByRole('textbox').fill('zurück zum geprüften Stand');
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Moment was restored').waitFor();
    await page.waitForURL(/\/depot\/\d+\/$/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=moment-list] tbody tr').length === 3);
    await page.getByTestId('moment-list').getByText('zurück zum geprüften Stand').waitFor();
    await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('lageplan.txt').waitFor();
    assert.equal(await page.locator('[data-testid=datum-section] .wb-object-card-title').getByText('nachtrag.txt').count(), 0);
    assert.equal(await page.getByTestId('datum-read-only').count(), 0);
  });

  it('shows the spec message when approving a moment fails', async () => {
    const admin = await t.admin();
    const depot = (await admin.post('/api/v1/depot/', { name: 'Zahlen', content_type: 'int' })).body as { id: number };
    const datum = (await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: 7 })).body as { moment_id: number };
    await page.goto(`${t.url}/depot/${depot.id}/`);
    await page.getByTestId(`moment-${datum.moment_id}`).waitFor();
    // The moment disappears behind the author's back, so approving it fails.
    await admin.delete(`/api/v1/moment/${datum.moment_id}/`);
    await page.getByTestId(`moment-menu-${datum.moment_id}`).click();
    await page.getByTestId('moment-approve').click();
    await page.getByText('An error occurred while approving the moment.').waitFor();
  });
});
