import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

/**
 * BITV 2.0 (WCAG 2.1 AA): every screen of the workbench, with data on it, passes axe-core's
 * WCAG 2.1 A and AA rules, in German and in English, and the main ways through work by keyboard.
 */
describe('accessibility: every screen passes WCAG 2.1 AA (axe-core) and works by keyboard', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  const ids: Record<string, number> = {};
  browserSuite(
    {
      server: { examples: true },
      admin: true,
      setUp: async (server) => {
        const a = await server.admin();
        ids.depot = (await a.post('/api/v1/depot/', { name: 'Flüsse', content_type: '/api/v1/type/string/' })).body.id;
        ids.switchboard = (await a.post('/api/v1/switchboard/', { name: 'Barrierefrei' })).body.id;
        await a.post('/api/v1/greeting/', { name: 'Moin' });
        await a.post('/api/v2/backend/tags/', { name: 'Hochwasser' });
        ids.view = (await a.post('/api/v1/view/', { name: 'Hochwasserkarte', slug: 'hochwasser' })).body.id;
        await a.post('/api/v1/portal/', { name: 'Umweltportal', slug: 'umwelt', views: [{ view: ids.view }] });
        await a.get(`/switchboard/create-finalview/?slug=hochwasser_2026&view=${ids.view}`);
      },
    },
    (s) => ({ t, page, admin } = s),
  );

  const screens = () => [
    '/',
    '/depots/',
    `/depot/${ids.depot}/`,
    '/switchboards/',
    `/switchboard/${ids.switchboard}`,
    '/workflows/',
    '/addons/',
    '/tags/',
    '/sessions/',
    '/events/',
    '/hello/',
    '/layers/',
    '/users/',
    '/groups/',
    '/views/',
    '/finalviews/',
    '/portals/',
    '/analytics/',
  ];

  async function visit(path: string): Promise<void> {
    await page.goto(`${t.url}${path}`);
    await page.waitForLoadState('networkidle');
  }

  it('the login page', async () => {
    const context = await page.context().browser()!.newContext();
    const anonymous = await context.newPage();
    await anonymous.goto(`${t.url}/accounts/login/`);
    await anonymous.waitForSelector('#wb-login-username');
    await expectAccessible(anonymous);
    await context.close();
  });

  it('every screen in English', async () => {
    for (const path of screens()) {
      await visit(path);
      await expectAccessible(page);
    }
  });

  it('every screen in German', async () => {
    await admin.patch('/api/v2/backend/profile', { language: 'de' });
    await page.context().addCookies([{ name: 'werkbank_lang', value: 'de', url: t.url }]);
    try {
      for (const path of screens()) {
        await visit(path);
        assert.equal(await page.getAttribute('html', 'lang'), 'de', `${path} says it is German`);
        await expectAccessible(page);
      }
    } finally {
      await admin.patch('/api/v2/backend/profile', { language: 'en' });
    }
  });

  it('reaches the depot list from the main menu by keyboard alone', async () => {
    await visit('/');
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.getAttribute('href') === '/depots/');
    }
    assert.ok(reached, 'Tab reaches the Magazine entry of the main menu');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.url}/depots/`);
    await page.getByText('Flüsse').first().waitFor();
  });
});
