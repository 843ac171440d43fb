import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { browserSuite, login } from './browser';

describe('the workbench in a browser', function () {
  let t: TestServer;
  let browser: Browser;
  let page: Page;

  browserSuite({ signIn: false, server: { examples: true } }, (s) => ({ t, browser, page } = s));

  it('sends a signed-out visitor of a deep link to the login page and back after login', async () => {
    await page.goto(`${t.url}/events/`);
    await page.waitForURL(/\/accounts\/login\/\?next=/);
    await page.fill('#wb-login-username', 'admin');
    await page.fill('#wb-login-password', 'wrong password');
    await page.click('button[type=submit]');
    await page.getByText('The username or the password is wrong.').waitFor();
    await page.fill('#wb-login-password', t.adminPassword);
    await Promise.all([page.waitForURL(`${t.url}/events/`), page.click('button[type=submit]')]);
    await page.getByRole('heading', { name: 'Activity', exact: true }).waitFor();
  });

  it('docks the sidebar at a viewport width of 1455 px and not at 1454 px', async () => {
    await login(page, t.url, 'admin', t.adminPassword);
    await page.getByTestId('sidebar-docked').waitFor();
    const width = await page.getByTestId('sidebar-docked').evaluate((el) => el.getBoundingClientRect().width);
    assert.equal(width, 285);
    assert.equal(await page.getByTestId('sidebar-button').count(), 0);

    await page.setViewportSize({ width: 1454, height: 900 });
    await page.getByTestId('sidebar-button').waitFor();
    assert.equal(await page.getByTestId('sidebar-docked').count(), 0);
    await page.getByTestId('sidebar-button').click();
    await page.getByTestId('main-menu').getByText('Apps').waitFor();
  });

  it('switches to German, and keeps German for the user after a reload', async () => {
    await login(page, t.url, 'admin', t.adminPassword);
    await page.getByTestId('lang-de').click();
    await page.getByTestId('main-menu').getByText('Magazin').waitFor();
    await page.getByText('Abmelden').waitFor();
    await page.reload();
    await page.getByText('Willkommen in der Werkbank').waitFor();
    await page.getByTestId('lang-en').click();
    await page.getByText('Welcome to Werkbank').waitFor();
  });

  it('creates a tag, assigns it to a greeting, and shows both in the activity feed', async () => {
    await login(page, t.url, 'admin', t.adminPassword);
    await page.goto(`${t.url}/tags/`);
    await page.getByText('No tags found for this query').waitFor();
    await page.getByTestId('new-tag').click();
    await page.fill('#tag-name', 'Flood zones');
    await page.getByTestId('datum-editor-color').getByLabel('Hex value').fill('#aa3300');
    await page.getByTestId('tag-save').click();
    await page.getByText('Object was saved').waitFor();
    await page.getByText('Flood zones').first().waitFor();

    await page.goto(`${t.url}/hello/`);
    await page.getByTestId('new-greeting').click();
    await page.fill('#greeting-name', 'Moin from Kiel');
    await page.getByTestId('greeting-save').click();
    const card = page.locator('.wb-object-card', { hasText: 'Moin from Kiel' });
    await card.waitFor();
    await card.getByText('No tags assigned').waitFor();
    await card.locator('.wb-select input').check({ force: true });
    await page.getByTestId('selection-menu').click();
    await page.getByTestId('assign-tag-menu').hover();
    await page.getByTestId('assign-tag-Flood zones').click();
    await page.getByText('Tagged', { exact: true }).waitFor();
    await card.getByTestId('tag-chip-Flood zones').waitFor();
    await page.getByTestId('realm-tags-greeting').getByText('Flood zones').waitFor();

    await page.goto(`${t.url}/events/`);
    await page.getByText('Admin changed greeting “Moin from Kiel” (tagged with Flood zones)').waitFor();
    await page.getByText('Admin created tag “Flood zones”').waitFor();
    await page.getByTestId('event-key-filter').selectOption('create');
    await page.getByText('Admin created greeting “Moin from Kiel”').waitFor();
    await page.getByText('(tagged with Flood zones)').waitFor({ state: 'detached' });
  });

  it('opens a deep link directly after a reload', async () => {
    await login(page, t.url, 'admin', t.adminPassword);
    await page.goto(`${t.url}/addons/`);
    await page.getByTestId('development-licence').waitFor();
    await page.reload();
    await page.getByTestId('development-licence').waitFor();
    await page.getByTestId('addon-tags').getByText('Enabled').waitFor();
  });

  it('lets an administrator close another session, which then has to log in again', async () => {
    const other = await browser.newContext({ viewport: { width: 1455, height: 900 } });
    const otherPage = await other.newPage();
    const someone = await t.user({ username: 'kim.schulz' });
    await login(otherPage, t.url, someone.username, someone.password);

    await login(page, t.url, 'admin', t.adminPassword);
    await page.goto(`${t.url}/sessions/`);
    await page.getByRole('combobox', { name: 'All users' }).selectOption({ label: 'kim.schulz' });
    const closeButtons = page.getByRole('button', { name: 'Close session' });
    await closeButtons.first().waitFor();
    const before = await closeButtons.count();
    // Newest first: the browser's session is the first row; then the confirmation's own button.
    await closeButtons.first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Close session' }).click();
    await page.getByText('Session closed').waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('[aria-label="Close session"]').length < n, before);

    await otherPage.reload();
    await otherPage.waitForURL(/\/accounts\/login\//);
    await other.close();
  });

  it('says so when a route belongs to a plugin that is not installed', async () => {
    // A server without the views plugin (every spec route has a plugin in the full installation).
    const bare = await startTestServer({ plugins: ['types', 'magazine', 'layers'] });
    try {
      const context = await browser.newContext();
      const own = await context.newPage();
      await login(own, bare.url, 'admin', bare.adminPassword);
      await own.goto(`${bare.url}/views/`);
      await own.getByText('belongs to the section “Views”, which is not installed on this server').waitFor();
      await context.close();
    } finally {
      await bare.close();
    }
  });
});
