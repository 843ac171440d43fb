import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer, TestClient } from '@werkbank/testing/node';
import { browserSuite } from './browser';
import { SWITCHBOARD_PLUGINS } from '@werkbank/plugin-switchboards/testing';

/** The switchboard list in a browser (issue 5): folders, creating, scheduling, "Use in switchboard". */
describe('the switchboard list in a browser', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;

  browserSuite({ server: { plugins: SWITCHBOARD_PLUGINS }, admin: true }, (s) => ({ t, page, admin } = s));

  it('creates a folder and a switchboard in it from the list and lands on its canvas', async () => {
    await page.getByTestId('main-menu').getByText('Switchboards').click();
    await page.getByTestId('switchboard-list').waitFor();

    await page.getByTestId('new-folder').click();
    await page.fill('#switchboard-folder-name', 'Hydrologie');
    await page.getByTestId('folder-save').click();
    await page.getByTestId('switchboard-folders').getByText('Hydrologie').click();
    await page.getByTestId('switchboard-breadcrumb').getByText('Hydrologie').waitFor();

    await page.getByTestId('new-switchboard').click();
    await page.fill('#new-switchboard-name', 'Pegel Elbe');
    await page.getByTestId('new-switchboard-create').click();
    await page.waitForURL(/\/switchboard\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const sb = (await admin.get(`/api/v1/switchboard/${id}/`)).body as { name: string; folder: string };
    const folders = (await admin.get('/api/v1/switchboardfolder/')).body as {
      objects: Array<{ name: string; resource_uri: string }>;
    };
    assert.equal(sb.name, 'Pegel Elbe');
    assert.equal(sb.folder, folders.objects.find((f) => f.name === 'Hydrologie')!.resource_uri, 'created in the open folder');

    // Back on the list, the folder is still open (switchboard_folder) and holds it.
    await page.goto(`${t.url}/switchboards/`);
    await page.getByTestId('switchboard-breadcrumb').getByText('Hydrologie').waitFor();
    await page.getByTestId(`card-${id}`).getByText('Pegel Elbe').waitFor();
  });

  it('schedules a switchboard weekly from its settings and shows the next run on its card', async () => {
    const sb = (await admin.get(`/api/v2/switchboard/create/?name=${encodeURIComponent('Wöchentlich')}`)).body as {
      switchboard_id: number;
    };
    await page.goto(`${t.url}/switchboards/`);
    const card = page.getByTestId(`card-${sb.switchboard_id}`);
    await card.waitFor();
    await page.getByTestId(`switchboard-menu-${sb.switchboard_id}`).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Execution' }).click();
    await page.getByText('Time-based execution').click();
    await page.selectOption('#recurrence-freq', 'weekly');
    await page.selectOption('#recurrence-hour', '6');
    await page
      .getByTestId('next-run')
      .getByText(/at 06:00$/)
      .waitFor();
    const savedAt = Date.now();
    await page.getByTestId('switchboard-save').click();
    await page.getByText('Object was saved').waitFor();
    await card.getByText(/Periodic, next \d{4}-\d\d-\d\d 06:00/).waitFor();
    const saved = (await admin.get(`/api/v1/switchboard/${sb.switchboard_id}/`)).body as Record<string, unknown>;
    assert.equal(saved.periodic_execution_rule, 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=6;BYMINUTE=0');
    // The next run is the coming Monday at 06:00, Berlin time, within a week of saving.
    const next = new Date(saved.next_run as string);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(next);
    assert.equal(berlin, 'Monday 06:00');
    assert.ok(next.getTime() > savedAt && next.getTime() <= savedAt + 7 * 24 * 3600_000, `${next.toISOString()} within a week`);
  });

  it('uses a datum of the Magazine in a new switchboard', async () => {
    const depot = (await admin.post('/api/v1/depot/', { name: 'Flüsse', content_type: 'string' })).body as { id: number };
    await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: 'Elbe' });
    await page.goto(`${t.url}/depot/${depot.id}/`);
    await page.getByTestId('datum-menu').first().click();
    await page.getByTestId('menu-switchboards.use-in-switchboard').click();
    await page.waitForURL(/\/switchboard\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const canvas = (await admin.get(`/api/v1/switchboard/${id}/reload/`)).body as {
      frames: Array<{ size: number; type_name: string }>;
    };
    assert.deepEqual(
      canvas.frames.map((f) => [f.type_name, f.size]),
      [['string', 1]],
      'one frame holding the datum',
    );
    await page.goBack();
    await page.waitForURL(new RegExp(`/depot/${depot.id}/$`));
  });
});
