import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '@werkbank/sdk/testing/node';
import type { TestClient } from '@werkbank/sdk/testing/node';
import { launchChromium, login } from './browser';
import { addFrame, contentOf, newSwitchboard, SWITCHBOARD_PLUGINS, type Obj } from '../api/switchboard-support';

/** The frame dialog in a browser (spec 001 §2.6/§2.7): opened from the canvas, the table and the upload against a real server. */
describe('the frame dialog in a browser', function () {
  let t: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let admin: TestClient;

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS });
    admin = await t.admin();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    page = await context.newPage();
    await login(page, t.url, 'admin', t.adminPassword);
  });
  afterEach(async () => {
    await context.close();
  });

  /** Opens the canvas and double-clicks the frame. */
  const openFrame = async (sb: Obj, frame: Obj) => {
    await page.goto(`${t.url}/switchboard/${sb.id}`);
    await page.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();
    await page.locator(`[data-testid=canvas-frame][data-uri="${frame.resource_uri}"]`).dblclick();
    await page.getByTestId('frame-tabs').waitFor();
  };

  it('opens a wide row frame in the table: 8 columns, the hidden-column badge, an edit saved, more rows on scrolling', async () => {
    const sb = await newSwitchboard(admin, { name: 'Pegel' });
    const items = Array.from({ length: 150 }, (_, r) => ({
      value: Object.fromEntries(Array.from({ length: 12 }, (_, c) => [`col${c}`, c === 0 ? `station ${r}` : r * 100 + c])),
    }));
    const frame = await addFrame(admin, sb, 'row', items, { ui_x: 0, ui_y: 0, name: 'Stations' });
    await openFrame(sb, frame);
    const table = page.getByTestId('frame-table');
    await table.waitFor();
    assert.equal((await table.getAttribute('data-columns'))!.split('|').length, 8);
    assert.equal(await page.getByTestId('frame-hidden-badge').textContent(), '4');
    await page.getByTestId('frame-column-filter').waitFor();
    const header = table.locator('.bp6-table-column-name-text', { hasText: 'col1' }).first();
    assert.equal(
      Math.round((await header.locator('xpath=ancestor::*[contains(@class,"bp6-table-header")][1]').boundingBox())!.height),
      35,
    );

    // Edit a number: double-click, type with a German decimal comma, Enter; the server has it.
    await table.locator('.bp6-table-cell', { hasText: /^101$/ }).first().dblclick();
    const input = table.locator('.bp6-editable-text-input');
    await input.fill('101,5');
    await input.press('Enter');
    await page.waitForFunction(() => !document.querySelector('[data-testid=frame-table] .bp6-editable-text-input'));
    for (let i = 0; i < 50; i++) {
      const row = ((await contentOf(admin, frame)) as Array<{ value: Record<string, unknown> }>)[1];
      if (row.value.col1 === 101.5) break;
      await page.waitForTimeout(100);
    }
    assert.equal(((await contentOf(admin, frame)) as Array<{ value: Record<string, unknown> }>)[1].value.col1, 101.5);

    // Scrolling towards the end of the loaded rows loads the next page.
    const more = page.waitForRequest((r) => r.url().includes(`${frame.resource_uri}content/`) && r.url().includes('offset=100'));
    await table.locator('.bp6-table-cell', { hasText: 'station 5' }).first().hover();
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 1000);
    await more;
    await table.locator('.bp6-table-cell', { hasText: 'station 149' }).first().waitFor();
  });

  it('uploads a file into an empty file frame and lists it with its download link', async () => {
    const sb = await newSwitchboard(admin, { name: 'Dateien' });
    const frame = await addFrame(admin, sb, 'file', [], { ui_x: 0, ui_y: 0, name: 'Uploads' });
    await openFrame(sb, frame);
    await page.getByTestId('frame-upload').waitFor();
    await page.getByTestId('frame-file-input').setInputFiles({
      name: 'pegel.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('station;level\nHamburg;3.2\n'),
    });
    await page.locator('[data-testid=frame-upload-item][data-status=success]').waitFor();
    const [item] = (await contentOf(admin, frame)) as Array<Record<string, unknown>>;
    assert.equal(item.value, 'pegel.csv');
    await page.getByTestId('frame-tab-table').click();
    const table = page.getByTestId('frame-table');
    await table.locator('.bp6-table-cell', { hasText: 'pegel.csv' }).first().waitFor();
    const href = await table.locator('a', { hasText: 'Download' }).first().getAttribute('href');
    assert.equal(href, item.download_url);
    const res = await page.request.get(`${t.url}${href}`);
    assert.equal(await res.text(), 'station;level\nHamburg;3.2\n');
    await page.getByTestId('frame-close').click();
    await page.getByTestId('frame-tabs').waitFor({ state: 'detached' });
  });
});
