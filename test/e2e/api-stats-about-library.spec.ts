import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * Issue 19, the rest: the user editor's API Statistics tab shows the calls a user just made
 * (spec 002 §2, §8, §9); /about/ with version and licences; /library/ opened in a new tab from
 * 'Function library'. Every screen passes WCAG 2.1 AA (axe-core), in English and German.
 */
describe('API statistics, about page and function library in a browser', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  browserSuite({ admin: true }, (s) => ({ t, page, admin } = s));

  const inGerman = async (run: () => Promise<void>) => {
    await admin.patch('/api/v2/backend/profile', { language: 'de' });
    await page.context().addCookies([{ name: 'werkbank_lang', value: 'de', url: t.url }]);
    try {
      await run();
    } finally {
      await admin.patch('/api/v2/backend/profile', { language: 'en' });
    }
  };

  it('shows the calls a user just made in the API Statistics tab', async () => {
    const made = await admin.post('/api/v1/user/', { username: 'stats.caller', raw_password: 'ein-langes-passwort' });
    assert.equal(made.status, 201);
    const caller = t.client();
    await caller.login('stats.caller', 'ein-langes-passwort');
    for (let i = 0; i < 3; i++) assert.equal((await caller.get(made.body.resource_uri)).status, 200);
    assert.equal((await caller.get('/api/v1/group/987654/')).status, 404);

    await page.goto(`${t.url}/users/`);
    await page.getByText('stats.caller').first().dblclick();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'API Statistics' }).click();
    const own = page.getByTestId('api-stats-row').filter({ hasText: '/api/v1/user/{id}/' });
    await own.filter({ hasText: '200' }).waitFor();
    const cells = await own.filter({ hasText: '200' }).locator('td').allTextContents();
    assert.equal(cells[3], '3', `three calls of the user's own address: ${cells.join(' | ')}`);
    assert.match(cells[4], /^[\d.]+ (ms|s)$/);
    const missing = page.getByTestId('api-stats-row').filter({ hasText: '/api/v1/group/{id}/' });
    assert.match((await missing.getByTestId('api-stats-status').getAttribute('class'))!, /bp6-intent-danger/);
    await expectAccessible(page);

    // Calls made meanwhile appear on Refresh.
    await caller.get(made.body.resource_uri);
    await page.getByTestId('api-stats-refresh').click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="api-stats-row"]')].some(
        (r) => r.textContent!.includes('/api/v1/user/{id}/') && r.querySelectorAll('td')[3]?.textContent === '4',
      ),
    );

    const silent = await admin.post('/api/v1/user/', { username: 'stats.silent' });
    await page.goto(`${t.url}/users/`);
    await page.getByText('stats.silent').first().dblclick();
    await dialog.getByRole('tab', { name: 'API Statistics' }).click();
    await dialog.getByText('No API call statistics available for this user.').waitFor();
    assert.equal(silent.status, 201);
    await inGerman(async () => {
      await page.goto(`${t.url}/users/`);
      await page.getByText('stats.caller').first().dblclick();
      await dialog.getByRole('tab', { name: 'API-Statistik' }).click();
      await dialog.getByRole('columnheader', { name: 'Aufrufe' }).waitFor();
      await expectAccessible(page);
    });
  });

  it('shows the version and the licences on /about/, from the user menu', async () => {
    await page.getByTestId('menu-apps.about-menu').click();
    await page.waitForURL(`${t.url}/about/`);
    await page.getByRole('heading', { name: 'About Werkbank' }).waitFor();
    await page.getByTestId('about-version').getByText('Version 0.1.0').waitFor();
    await page.getByTestId('about-component').filter({ hasText: 'api_stats' }).getByText('licensed').waitFor();
    const total = await page.getByTestId('about-package').count();
    assert.ok(total > 100, `the production dependencies are listed (${total})`);
    await expectAccessible(page);
    await page.getByLabel('Filter by package or licence').fill('koa');
    await page.getByTestId('about-package').filter({ hasText: '@koa/router' }).waitFor();
    assert.ok((await page.getByTestId('about-package').count()) < total);
    await inGerman(async () => {
      await page.goto(`${t.url}/about/`);
      await page.getByRole('heading', { name: 'Über Werkbank' }).waitFor();
      await page.getByRole('heading', { name: 'Lizenzen von Drittanbietern' }).waitFor();
      await expectAccessible(page);
    });
  });

  it("opens the function library in a new tab from 'Function library', searchable and usable by keyboard", async () => {
    const [library] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('menu-core.library').click()]);
    await library.waitForURL(`${t.url}/library/`);
    await library.getByRole('heading', { name: 'Function library' }).waitFor();
    await library.getByTestId('library-function').first().waitFor();
    const all = await library.getByTestId('library-function').count();
    assert.ok(all > 20, `every function is listed (${all})`);
    await expectAccessible(library);

    await library.getByLabel('Search').fill('upper');
    await library.locator('[data-name="string.upper"]').waitFor();
    await library.waitForFunction((n) => document.querySelectorAll('[data-testid="library-function"]').length < n, all);
    // Open it by keyboard: Tab to its summary, Enter.
    await library.locator('[data-name="string.upper"] summary').focus();
    await library.keyboard.press('Enter');
    const entry = library.locator('[data-name="string.upper"]');
    await entry.getByRole('table', { name: 'Inputs' }).waitFor();
    assert.equal(await entry.evaluate((d) => (d as HTMLDetailsElement).open), true);
    await entry.getByTestId('library-port').first().waitFor();
    await expectAccessible(library);
    await library.close();

    await inGerman(async () => {
      await page.goto(`${t.url}/library/`);
      await page.getByRole('heading', { name: 'Funktionsbibliothek' }).waitFor();
      await page.getByTestId('library-function').first().waitFor();
      await page.locator('[data-name="string.upper"] summary').click();
      await page.locator('[data-name="string.upper"]').getByRole('table', { name: 'Eingänge' }).waitFor();
      await expectAccessible(page);
    });
  });
});
