import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';

type Obj = { id: number; resource_uri: string; [k: string]: any };

/**
 * Administration in a browser (issue 19, spec 002 §2–§6): the Users and Groups menu entries, a
 * group with a permission, a new user with the editor's rules, the Permissions and Groups tabs, an
 * API key shown once and deleted, a session closed — each screen passing WCAG 2.1 AA (axe-core).
 */
describe('administration in a browser: users, groups, permissions, API keys, sessions', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  browserSuite({ admin: true }, (s) => ({ t, page, admin } = s));

  const dialog = () => page.getByRole('dialog');
  const findUser = async (username: string): Promise<Obj | undefined> =>
    (await admin.get(`/api/v1/user/?username=${username}`)).body.objects[0];

  it('creates a group and a user through the menus, with the editor’s rules and permissions', async () => {
    await page.getByTestId('menu-admin.groups-menu').click();
    await page.getByTestId('group-list').waitFor();
    await expectAccessible(page);
    await page.getByTestId('new-group').click();
    await dialog().getByLabel('Name').fill('Redaktion');
    await dialog().getByRole('tab', { name: 'Permissions' }).click();
    await dialog().getByText('Publish views').click();
    await expectAccessible(page);
    await page.getByTestId('group-save').click();
    await page.getByText('Object was saved').waitFor();
    await page.getByTestId('group-list').getByText('Publish views').waitFor();
    const group = (await admin.get('/api/v1/group/?q=Redaktion')).body.objects[0] as Obj;
    assert.deepEqual(group.group_permissions, ['publish_view']);

    await page.getByTestId('menu-admin.users-menu').click();
    await page.getByTestId('user-list').waitFor();
    await page.getByText('admin', { exact: true }).first().waitFor();
    await expectAccessible(page);
    await page.getByTestId('new-user').click();
    await dialog().getByLabel('First name').fill('Eva');
    await dialog().getByLabel('Last name').fill('Kahl');
    await dialog().getByLabel('Username').fill('eva kahl');
    await dialog().getByText('The username may contain only letters, digits and . _ -').waitFor();
    assert.equal(await page.getByTestId('user-save').isDisabled(), true, 'a username with a space cannot be saved');
    await dialog().getByLabel('Username').fill('eva.kahl');
    await dialog().getByLabel('Password').fill('ein-langes-passwort');
    await dialog().getByLabel('Maximum concurrent sessions').fill('0');
    await dialog().getByText('Caution').waitFor();
    await expectAccessible(page);

    // spec 002 §5: a new user holds every permission but publish_view and access_connect.
    await dialog().getByRole('tab', { name: 'Permissions' }).click();
    // Blueprint puts the test id on the checkbox's input.
    const box = (name: string) => page.getByTestId(`user-permission-${name}`);
    assert.equal(await box('publish_view').isChecked(), false);
    assert.equal(await box('access_connect').isChecked(), false);
    assert.equal(await box('read_depot').isChecked(), true);
    await expectAccessible(page);
    // Group-granted permissions show checked.
    await dialog().getByRole('tab', { name: 'Groups' }).click();
    await dialog().getByText('Redaktion').click();
    await dialog().getByRole('tab', { name: 'Permissions' }).click();
    assert.equal(await box('publish_view').isChecked(), true);
    await page
      .locator('label', { has: box('publish_view') })
      .getByText('through a group')
      .waitFor();
    // Staff who are not superusers: only group-granted boxes can change.
    await dialog().getByRole('tab', { name: 'Personal data' }).click();
    await dialog().getByText('Staff (may access the backend)').click();
    await dialog().getByRole('tab', { name: 'Permissions' }).click();
    assert.equal(await box('read_depot').isDisabled(), true);
    assert.equal(await box('publish_view').isDisabled(), false);
    await page.getByTestId('user-save').click();
    await page.getByText('Object was saved').waitFor();

    const eva = await findUser('eva.kahl');
    assert.ok(eva, 'the user was created');
    assert.equal(eva.display_name, 'Eva Kahl');
    assert.equal(eva.max_concurrent_sessions, null, 'below 1 is no limit');
    assert.equal(eva.expiration_date, null, 'empty is none');
    assert.equal(eva.is_staff, true);
    assert.deepEqual(eva.groups, [group.resource_uri]);
    assert.equal(eva.user_permissions.includes('access_connect'), false);
    const login = await t.client().login('eva.kahl', 'ein-langes-passwort');
    assert.equal(login.status, 200, 'the new user can log in');

    // Filters: superusers only.
    await page.getByTestId('user-filter-is_superuser').selectOption('true');
    await page.getByText('Eva Kahl').waitFor({ state: 'detached' });
    await page.getByTestId('user-filter-is_superuser').selectOption('');
    await page.getByText('Eva Kahl').waitFor();
  });

  it('creates an API key shown once, deletes it, and closes a session of the user', async () => {
    const made = await admin.post('/api/v1/user/', {
      username: 'kim.key',
      raw_password: 'noch-ein-passwort',
      // Calling with a key needs access_connect (decision 0041).
      user_permissions: ['access_connect'],
    });
    assert.equal(made.status, 201);
    const kim = t.client();
    await kim.login('kim.key', 'noch-ein-passwort');

    await page.goto(`${t.url}/users/`);
    await page.getByText('kim.key').first().dblclick();
    await dialog().getByRole('tab', { name: 'API key' }).click();
    await dialog().getByText('Changes take effect immediately.').waitFor();
    await dialog().getByText('No keys available').waitFor();
    await expectAccessible(page);
    await page.getByTestId('apikey-create').click();
    const key = await page.getByTestId('apikey-created-value').inputValue();
    assert.match(key, /^wbk_[A-Za-z0-9]{12}_/);
    await page.getByTestId('apikey-row').waitFor();
    assert.equal((await page.getByTestId('apikey-row').textContent())!.includes(key), false, 'the list never shows the key');
    await expectAccessible(page);
    const keyClient = t.client();
    keyClient.headers = { authorization: `ApiKey ${key}` };
    assert.equal((await keyClient.get('/api/v1/user/')).status, 200, 'the key works at once');
    await dialog().getByRole('button', { name: 'Delete key' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete key' }).click();
    await dialog().getByText('No keys available').waitFor();
    assert.equal((await keyClient.get('/api/v1/user/')).status, 401, 'a deleted key stops working at once');

    await dialog().getByRole('tab', { name: 'Sessions' }).click();
    await dialog().getByRole('button', { name: 'Close session' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Close session' }).click();
    await page.getByText('Session closed').waitFor();
    assert.equal((await kim.get('/api/v1/user/')).status, 401, 'the closed session is signed out');
  });

  it('shows the lists in German', async () => {
    await admin.patch('/api/v2/backend/profile', { language: 'de' });
    await page.context().addCookies([{ name: 'werkbank_lang', value: 'de', url: t.url }]);
    try {
      await page.goto(`${t.url}/users/`);
      await page.getByRole('heading', { name: 'Benutzer' }).waitFor();
      await expectAccessible(page);
      await page.goto(`${t.url}/groups/`);
      await page.getByRole('heading', { name: 'Gruppen' }).waitFor();
      await expectAccessible(page);
    } finally {
      await admin.patch('/api/v2/backend/profile', { language: 'en' });
    }
  });

  it('lets the administrator act as a user with a banner, and return; the feed names both', async () => {
    const made = await admin.post('/api/v1/user/', { username: 'lena.acted', first_name: 'Lena', last_name: 'Berg' });
    assert.equal(made.status, 201);
    await page.goto(`${t.url}/users/`);
    await page.getByTestId(`user-menu-${made.body.id}`).click();
    await Promise.all([page.waitForURL(`${t.url}/`), page.getByTestId('user-impersonate').click()]);
    const banner = page.getByTestId('impersonation-banner');
    await banner.getByText('You are acting as Lena Berg').waitFor();
    await expectAccessible(page);
    await Promise.all([page.waitForURL(`${t.url}/`), banner.getByRole('button', { name: 'Return to my account' }).click()]);
    await page.getByTestId('menu-admin.users-menu').waitFor();
    assert.equal(await banner.count(), 0, 'the banner is gone once back');
    const feed = (await admin.get(`/api/v1/event/?user=${encodeURIComponent(made.body.resource_uri)}&order_by=created`)).body;
    assert.deepEqual(
      feed.objects.map((e: Obj) => e.metadata.impersonation),
      ['start', 'stop'],
    );
    await page.goto(`${t.url}/events/`);
    await page.getByText('began acting as this user').first().waitFor();
    await page.getByText('done by Admin acting as this user').first().waitFor();
  });

  it('denies login to several users at once through the multi-select menu', async () => {
    for (const u of ['bulk.one', 'bulk.two']) assert.equal((await admin.post('/api/v1/user/', { username: u })).status, 201);
    await page.goto(`${t.url}/users/`);
    await page.getByTestId('search-input').fill('bulk.');
    await page.getByTestId('search-input').press('Enter');
    await page.getByText('bulk.two').first().waitFor();
    await page.getByTestId('selection-menu').click();
    await page.getByRole('menuitem', { name: 'Select all' }).click();
    await page.getByTestId('selection-menu').click();
    await page.getByTestId('users-deactivate').click();
    await page.getByText('2 users changed').waitFor();
    const listed = (await admin.get('/api/v1/user/?q=bulk.')).body.objects as Obj[];
    assert.deepEqual(
      listed.map((u) => u.is_active),
      [false, false],
    );
    await page.getByTestId('user-filter-is_active').selectOption('false');
    await page.getByText('bulk.one').first().waitFor();
    await expectAccessible(page);
  });
});
