import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { linkOf, SmtpCatcher, type TestClient, type TestServer } from '@werkbank/testing/node';
import type { Browser } from 'playwright-core';
import { browserSuite, expectAccessible } from './browser';

/**
 * Invitations and password resets in a browser (issue 19, spec 002 §4–§5, decision 0041): an
 * administrator creates a user with 'Send invitation', the invited user opens the link from the
 * mail a real SMTP server received, sets a password and logs in; 'Forgot password?' works the same
 * way. Every screen passes WCAG 2.1 AA (axe-core).
 */
describe('administration in a browser: invitations and password resets by e-mail', function () {
  const smtp = new SmtpCatcher();
  const config = {
    smtp: { host: '127.0.0.1', port: 0, tls: 'none' as const },
    mailFrom: 'Werkbank <werkbank@example.org>',
  };
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let browser: Browser;

  before(async () => {
    await smtp.start();
    config.smtp.port = smtp.port;
  });
  after(async () => smtp.close());
  browserSuite(
    {
      admin: true,
      server: { config },
      // The links in the mails start with the address the test server got.
      setUp: async (server) => void (server.server.config.publicUrl = server.url),
    },
    (s) => ({ t, page, admin, browser } = s),
  );

  const dialog = () => page.getByRole('dialog');

  /** A signed-out browser page (its own context, so the administrator's cookies are not sent). */
  const signedOut = async () => (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();

  it('creates a user with an invitation; the invited user sets a password from the mail’s link and logs in', async () => {
    await page.getByTestId('menu-admin.users-menu').click();
    await page.getByTestId('user-list').waitFor();
    await page.getByTestId('new-user').click();
    await dialog().getByLabel('First name').fill('Ina');
    await dialog().getByLabel('Last name').fill('Vogt');
    await dialog().getByLabel('Username').fill('ina.vogt');
    await dialog().getByLabel('Email').fill('ina at example');
    await dialog().getByText('Send invitation').click();
    // spec 002 §4: no password field, 'allowed to log in' unticked and locked; §5: the email is checked.
    assert.equal(await dialog().getByLabel('Password').count(), 0, 'the password field is hidden');
    const active = dialog().getByRole('checkbox', { name: 'Allowed to log in' });
    assert.equal(await active.isChecked(), false);
    assert.equal(await active.isDisabled(), true);
    await dialog().getByText('A valid email address is required').waitFor();
    assert.equal(await page.getByTestId('user-save').isDisabled(), true);
    await dialog().getByLabel('Email').fill('ina.vogt@example.org');
    await dialog().getByText('A valid email address is required').waitFor({ state: 'detached' });
    await dialog().getByText('Deutsch').click();
    assert.equal(await dialog().getByLabel('Deutsch').isChecked(), true);
    await expectAccessible(page);
    const since = smtp.mails.length;
    await page.getByTestId('user-save').click();
    await page.getByText('Invitation sent').waitFor();
    const ina = (await admin.get('/api/v1/user/?username=ina.vogt')).body.objects[0];
    assert.equal(ina.is_active, false, 'inactive until the invitation is accepted');

    const mail = await smtp.mailTo('ina.vogt@example.org', since);
    assert.equal(mail.subject, 'Ihre Einladung zur Werkbank');
    const { url } = linkOf(mail);

    const guest = await signedOut();
    await guest.goto(url);
    await guest.getByRole('heading', { name: 'Welcome to Werkbank' }).waitFor();
    await guest.getByText('Hello Ina Vogt, choose a password for your account ina.vogt to activate it.').waitFor();
    await expectAccessible(guest);
    await guest.getByLabel('New password', { exact: true }).fill('inas-langes-passwort');
    await guest.getByLabel('New password (again)').fill('inas-langes-passwort');
    await guest.getByRole('button', { name: 'Activate account' }).click();
    await guest.getByTestId('setpw-done').waitFor();
    assert.equal(new URL(guest.url()).hash, '', 'the used token leaves the address bar');
    await expectAccessible(guest);
    await guest.getByRole('link', { name: 'Go to login' }).click();
    await guest.waitForURL(/\/accounts\/login\//);
    assert.equal(await guest.inputValue('#wb-login-username'), 'ina.vogt');
    await guest.fill('#wb-login-password', 'inas-langes-passwort');
    await Promise.all([guest.waitForURL(`${t.url}/`), guest.click('button[type=submit]')]);
    const me = await guest.evaluate(() => fetch('/api/v2/backend/config').then((r) => r.json()));
    assert.equal(me.auth.username, 'ina.vogt');

    // The link works once.
    const again = await signedOut();
    await again.goto(url);
    await again.getByTestId('setpw-problem').getByText('This invitation link has already been used', { exact: false }).waitFor();
    await expectAccessible(again);
  });

  it('resets a forgotten password from the login page through the mailed link', async () => {
    const u = await t.user({ username: 'otto.reset' });
    assert.equal((await admin.patch(`/api/v1/user/${u.id}/`, { email: 'otto@example.org' })).status, 200);
    const guest = await signedOut();
    await guest.goto(`${t.url}/accounts/login/`);
    await guest.getByTestId('login-forgot').click();
    await guest.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expectAccessible(guest);
    const since = smtp.mails.length;
    await guest.getByLabel('Email address').fill('otto@example.org');
    await guest.getByRole('button', { name: 'Send link' }).click();
    await guest.getByTestId('reset-sent').getByText('If an account with this email address exists', { exact: false }).waitFor();
    await expectAccessible(guest);

    const { url } = linkOf(await smtp.mailTo('otto@example.org', since));
    await guest.goto(url);
    await guest.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await guest.getByLabel('New password', { exact: true }).fill('kurz');
    await guest.getByText('The password must have at least 8 characters.').waitFor();
    await expectAccessible(guest);
    await guest.getByLabel('New password', { exact: true }).fill('ottos-neues-passwort');
    await guest.getByLabel('New password (again)').fill('ottos-neues-passwort');
    await guest.getByRole('button', { name: 'Set new password' }).click();
    await guest.getByTestId('setpw-done').waitFor();
    assert.equal((await u.client.get('/api/v1/user/')).status, 401, 'the old session ended');
    await guest.getByRole('link', { name: 'Go to login' }).click();
    await guest.fill('#wb-login-password', 'ottos-neues-passwort');
    await Promise.all([guest.waitForURL(`${t.url}/`), guest.click('button[type=submit]')]);
  });
});
