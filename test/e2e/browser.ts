import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (no browser downloads); CHROMIUM_PATH overrides. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function login(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/accounts/login/`);
  await page.fill('#wb-login-username', username);
  await page.fill('#wb-login-password', password);
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('button[type=submit]')]);
}
