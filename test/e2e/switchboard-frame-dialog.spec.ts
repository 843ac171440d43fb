import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { TestServer, TestClient } from '@werkbank/testing/node';
import { browserSuite, login } from './browser';
import { expectStatus } from '@werkbank/testing/node';
import { addFrame, contentOf, grant, newSwitchboard, SWITCHBOARD_PLUGINS, type Obj } from '@werkbank/plugin-switchboards/testing';

/** The frame dialog in a browser (spec 001 §2.6/§2.7): opened from the canvas, the table and the upload against a real server. */
describe('the frame dialog in a browser', function () {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let admin: TestClient;

  browserSuite(
    { server: { plugins: SWITCHBOARD_PLUGINS }, admin: true, viewport: { width: 1600, height: 1000 } },
    (s) => ({ t, browser, page, admin } = s),
  );

  /** Opens the canvas and double-clicks the frame (in `on`, the admin's page unless given). */
  const openFrame = async (sb: Obj, frame: Obj, on: Page = page) => {
    await on.goto(`${t.url}/switchboard/${sb.id}`);
    await on.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();
    await on.locator(`[data-testid=canvas-frame][data-uri="${frame.resource_uri}"]`).dblclick();
    await on.getByTestId('frame-tabs').waitFor();
  };

  /** The tabs marked selected (role tab, aria-selected). */
  const selectedTabs = async () =>
    page
      .locator('[data-testid=frame-tabs] [role=tab][aria-selected=true]')
      .evaluateAll((tabs) => tabs.map((e) => e.getAttribute('data-testid')));

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
    // 35 px (spec 001 §9); the box can come out a subpixel border larger depending on layout timing.
    const headerHeight = (await header.locator('xpath=ancestor::*[contains(@class,"bp6-table-header")][1]').boundingBox())!
      .height;
    assert.ok(Math.abs(headerHeight - 35) <= 1, `header ${headerHeight} px high`);

    // Edit a number: double-click, type with a German decimal comma, Enter; the server has it.
    await table.locator('.bp6-table-cell', { hasText: /^101$/ }).first().dblclick();
    const input = table.locator('.bp6-editable-text-input');
    await input.fill('101,5');
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes(`${frame.resource_uri}content/1/`),
    );
    await input.press('Enter');
    assert.equal((await saved).status(), 200);
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

  it('opens on the tab the datum count asks for: none, one and many datums (spec 001 §2.6)', async () => {
    const strings = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `Pegel ${i + 1}` }));
    // `shows`: the test id of what the tab shows (else the dialog), with `text` in it when given.
    const cases: Array<{ name: string; type: string; items: unknown[]; tab: string; shows?: string; text?: string }> = [
      // None: a type made by hand opens a new datum in the Single view; an empty file frame the upload;
      // a type with nothing to fill in (mesh) and no table either, the cards.
      { name: 'empty string', type: 'string', items: [], tab: 'single', shows: 'frame-single', text: 'New, not saved yet' },
      { name: 'empty file', type: 'file', items: [], tab: 'upload', shows: 'frame-upload' },
      { name: 'empty mesh', type: 'mesh', items: [], tab: 'cards', text: 'This frame holds no data.' },
      // One: the Single view, for table types and others alike.
      { name: 'one string', type: 'string', items: strings(1), tab: 'single', shows: 'frame-single' },
      { name: 'one bbox', type: 'bbox', items: [{ value: [8, 51, 9, 52] }], tab: 'single', shows: 'frame-single' },
      // Many: the table for table-capable types, the cards for the rest.
      { name: 'many strings', type: 'string', items: strings(3), tab: 'table', shows: 'frame-table' },
      {
        name: 'many rows',
        type: 'row',
        items: [{ value: { station: 'Hamburg', level: 3.2 } }, { value: { station: 'Bremen', level: 2.9 } }],
        tab: 'table',
        shows: 'frame-table',
      },
      {
        name: 'many bboxes',
        type: 'bbox',
        items: [{ value: [8, 51, 9, 52] }, { value: [9, 52, 10, 53] }, { value: [10, 53, 11, 54] }],
        tab: 'cards',
        shows: 'frame-cards',
      },
    ];
    for (const c of cases) {
      const sb = await newSwitchboard(admin, { name: c.name });
      const frame = await addFrame(admin, sb, c.type, c.items, { ui_x: 0, ui_y: 0 });
      await openFrame(sb, frame);
      assert.deepEqual(await selectedTabs(), [`frame-tab-${c.tab}`], c.name);
      const shown = c.shows ? page.getByTestId(c.shows) : page.getByRole('dialog');
      await shown.waitFor();
      if (c.text) await shown.getByText(c.text).first().waitFor();
    }
    // Each bbox has its card.
    assert.equal(await page.getByTestId('frame-card').count(), 3);
  });

  it('puts a table cell back with "Fehler beim Speichern" when the server refuses the edit', async () => {
    const sb = await newSwitchboard(admin, { name: 'Geteilt' });
    const rows = [{ value: { station: 'Hamburg', level: 3.2 } }, { value: { station: 'Bremen', level: 2.9 } }];
    const frame = await addFrame(admin, sb, 'row', rows, { ui_x: 0, ui_y: 0, name: 'Pegel' });
    // A colleague who reads German may edit the switchboard and opens the frame's table.
    const colleague = await t.user();
    expectStatus(await colleague.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    await grant(admin, sb, colleague, ['read', 'write']);
    const theirs = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    try {
      const their = await theirs.newPage();
      await login(their, t.url, colleague.username, colleague.password);
      await openFrame(sb, frame, their);
      const table = their.getByTestId('frame-table');
      await table.locator('.bp6-table-cell', { hasText: /^Bremen$/ }).waitFor();

      // The owner takes the right to edit away; the colleague's open table does not know yet.
      await grant(admin, sb, colleague, ['read']);
      await table.locator('.bp6-table-cell', { hasText: /^Bremen$/ }).dblclick();
      const input = table.locator('.bp6-editable-text-input');
      await input.fill('Bremerhaven');
      const refused = their.waitForResponse(
        (r) => r.request().method() === 'PATCH' && r.url().includes(`${frame.resource_uri}content/1/`),
      );
      await input.press('Enter');
      assert.equal((await refused).status(), 403);

      // spec 001 §4: the notification in the user's language, and the cell shows the stored value again.
      await their.locator('.bp6-toast', { hasText: 'Fehler beim Speichern: Sie haben keine Berechtigung dafür.' }).waitFor();
      await table.locator('.bp6-table-cell', { hasText: /^Bremen$/ }).waitFor();
      assert.equal(await table.locator('.bp6-table-cell', { hasText: 'Bremerhaven' }).count(), 0);
      assert.deepEqual(await contentOf(admin, frame), rows);
    } finally {
      await theirs.close();
    }
  });
});
