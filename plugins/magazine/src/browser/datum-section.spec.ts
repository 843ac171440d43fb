import {
  boot,
  byTestId,
  clickText,
  depot,
  failure,
  moment,
  page,
  text,
  typeInto,
  type BootedWorkbench,
} from './magazine-test-kit';
import assert from 'node:assert/strict';
import { definePlugin } from '@werkbank/sdk/browser';
import { DatumCardMenuContribution, type DatumMenuTarget } from '../common/magazine-api';

const head = moment(12, 'open');
const elbe = {
  id: 5,
  index: 5,
  resource_uri: '/api/v1/datum/5@12/',
  moment_id: 12,
  version: 3,
  depot: '/api/v1/depot/1/',
  content_type: '/api/v1/type/string/',
  text_repr: 'Elbe',
  value: 'Elbe',
};

function routes(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'GET /api/v1/depot/1/': depot(1, 'Flüsse', { current_moment: head, size: 1 }),
    'GET /api/v1/moment/': page([head]),
    'GET /api/v1/depotfoldertree/': { objects: [] },
    'GET /api/v1/datum/by-depot/1/': page([elbe]),
    ...extra,
  };
}

describe('magazine: datums of a depot (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('edits a datum with the moment it was based on and its version; a 409 shows the reason and reloads', async () => {
    booted = await boot(
      '/depot/1/',
      routes({ 'PATCH /api/v1/datum/5/': failure(409, 'Someone changed this datum in the meantime. Reload and try again.') }),
    );
    await booted.waitFor(() => !!byTestId('card-5'));
    byTestId('card-5')!.click();
    await booted.waitFor(() => !!byTestId('datum-editor-string'));
    typeInto(byTestId<HTMLInputElement>('datum-editor-string')!, 'Weser');
    byTestId('datum-save')!.click();
    await booted.waitFor(() => text().includes('Someone changed this datum in the meantime.'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, { value: 'Weser', version: 3 });
    assert.deepEqual(patch.query, { moment_id: 12 });
    await booted.waitFor(() => booted!.api.calls.filter((c) => c.path === '/api/v1/datum/by-depot/1/').length === 2);
    await booted.waitFor(() => !byTestId('datum-editor-string'));
  });

  it('opens a datum holding one field of a several-field type with that field, and saves only what changed (issue 14 item 9)', async () => {
    const gauge = {
      ...elbe,
      content_type: '/api/v1/type/sta-livedataset/',
      text_repr: 'https://example.org/FROST-Server (SensorThings v1.1)',
      origin: 'https://example.org/FROST-Server',
    } as Record<string, unknown>;
    delete gauge.value;
    booted = await boot(
      '/depot/1/',
      routes({
        'GET /api/v1/depot/1/': depot(1, 'Pegel', {
          current_moment: head,
          size: 1,
          content_type: '/api/v1/type/sta-livedataset/',
        }),
        'GET /api/v1/datum/by-depot/1/': page([gauge]),
        // The browser registers no such type: its template comes from the server.
        'GET /api/v1/type/sta-livedataset/': {
          name: 'sta-livedataset',
          template: { origin: '', sta_version: 'v1.1', batch_size: 100 },
        },
        'PATCH /api/v1/datum/5/': { ...gauge, moment_id: 12, moment_size: 1 },
      }),
    );
    await booted.waitFor(() => !!byTestId('card-5'));
    byTestId('card-5')!.click();
    await booted.waitFor(() => !!byTestId('datum-editor-generic'));
    const area = byTestId('datum-editor-generic')!.querySelector('textarea')!;
    assert.deepEqual(JSON.parse(area.value), { origin: 'https://example.org/FROST-Server' });
    typeInto(area, JSON.stringify({ origin: 'https://example.org/FROST-Server', thing_filter: "name eq 'Elbe'" }));
    byTestId('datum-save')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'PATCH'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'PATCH')!.body, { thing_filter: "name eq 'Elbe'", version: 3 });
  });

  it('duplicates a datum as read at the head and deletes one after asking, both based on the head', async () => {
    booted = await boot(
      '/depot/1/',
      routes({
        'GET /api/v1/datum/5/': { ...elbe, favored: false },
        'POST /api/v1/datum/create-in-depot/1/': { ...elbe, id: 6, index: 6, moment_id: 12, moment_size: 2 },
        'DELETE /api/v1/datum/5/': { status: 'ok', moment_id: 14, moment_size: 0 },
      }),
    );
    const menu = async (item: string) => {
      await booted!.waitFor(() => !!byTestId('datum-menu'));
      byTestId('datum-menu')!.click();
      await booted!.waitFor(() => !!byTestId(item));
      byTestId(item)!.click();
    };
    await menu('datum-duplicate');
    await booted.waitFor(() => text().includes('Datum was duplicated'));
    const post = booted.api.calls.find((c) => c.method === 'POST')!;
    assert.deepEqual([post.body, post.query], [{ value: 'Elbe' }, { moment_id: 12 }]);

    await menu('datum-delete');
    await booted.waitFor(() => text().includes('Delete the datum “Elbe”?'));
    clickText('Delete', '.bp6-alert-footer button');
    await booted.waitFor(() => text().includes('Object was deleted'));
    const del = booted.api.calls.find((c) => c.method === 'DELETE')!;
    assert.deepEqual(del.query, { moment_id: 12, version: '3' });
  });

  it('offers the entries other plugins add to the datum card menu, with the datum as target', async () => {
    const used: DatumMenuTarget[] = [];
    const menus: DatumCardMenuContribution = {
      registerDatumCardMenu: (r) =>
        r.add({
          id: 'probe.use',
          label: 'Use in switchboard',
          icon: 'flow-branch',
          run: (target) => used.push(target),
        }),
    };
    const probe = definePlugin((ctx) => ctx.contribute(DatumCardMenuContribution, menus));
    booted = await boot('/depot/1/', routes(), [{ id: 'probe', module: probe }]);
    await booted.waitFor(() => !!byTestId('datum-menu'));
    byTestId('datum-menu')!.click();
    await booted.waitFor(() => text().includes('Use in switchboard'));
    assert.ok(text().includes('Duplicate'));
    clickText('Use in switchboard', 'a');
    assert.deepEqual(
      used.map((u) => [u.datum.index, u.depot.name, u.readOnly]),
      [[5, 'Flüsse', false]],
    );
  });

  it('shows a reader the datums read-only: no New datum, a menu without duplicate and delete, no Save', async () => {
    booted = await boot(
      '/depot/1/',
      routes({ 'GET /api/v1/depot/1/': depot(1, 'Flüsse', { current_moment: head, size: 1, access: ['read'] }) }),
    );
    await booted.waitFor(() => !!byTestId('card-5') && !!byTestId('depot-read-only'));
    assert.ok(!byTestId('datum-new'), 'no new datum');
    byTestId('datum-menu')!.click();
    await booted.waitFor(() => text().includes('Show'));
    assert.ok(!byTestId('datum-duplicate') && !byTestId('datum-delete'), 'no duplicate or delete');
    assert.ok(!text().includes('Edit'));

    byTestId('card-5')!.click();
    await booted.waitFor(() => !!byTestId('datum-editor-string'));
    assert.ok(!byTestId('datum-save'), 'the datum opens read-only');
  });

  it('shows a reader of a file depot no upload zone', async () => {
    booted = await boot(
      '/depot/1/',
      routes({
        'GET /api/v1/depot/1/': depot(1, 'Messwerte', {
          current_moment: head,
          content_type: '/api/v1/type/file/',
          access: ['read'],
        }),
        'GET /api/v1/datum/by-depot/1/': page([
          { ...elbe, content_type: '/api/v1/type/file/', text_repr: 'pegel.csv', value: 'pegel.csv' },
        ]),
      }),
    );
    await booted.waitFor(() => text().includes('pegel.csv') && !!byTestId('depot-read-only'));
    assert.ok(!byTestId('file-upload') && !byTestId('file-dropzone'), 'no upload widget');
    assert.ok(!text().includes('up to 5 GB'));
  });

  it('shows a file datum with its name, readable size, type and download link', async () => {
    const file = {
      ...elbe,
      content_type: '/api/v1/type/file/',
      text_repr: 'pegel.csv',
      value: 'pegel.csv',
      size: 1536,
      mime_type: 'text/csv',
      download_url: '/api/v1/datum/5@12/download/',
    };
    booted = await boot(
      '/depot/1/',
      routes({
        'GET /api/v1/depot/1/': depot(1, 'Messwerte', { current_moment: head, content_type: '/api/v1/type/file/' }),
        'GET /api/v1/datum/by-depot/1/': page([file]),
      }),
    );
    await booted.waitFor(() => text().includes('pegel.csv') && !!byTestId('file-dropzone'));
    assert.match(byTestId('card-5')!.textContent!, /1\.5 KB · text\/csv/);
    assert.equal(byTestId('datum-download')!.getAttribute('href'), '/api/v1/datum/5@12/download/');
    assert.ok(text().includes('up to 5 GB'));
    assert.ok(!byTestId('datum-new'), 'files come by upload, not by hand');
  });
});
