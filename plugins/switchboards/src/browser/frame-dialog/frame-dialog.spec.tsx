import { byTestId, failure, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { activeTab, closed, CONTENT, frameRoutes, offeredTabs, openFrameDialog, rows, TEMPLATE } from './frame-dialog-test-kit';

const click = (id: string) => byTestId(id)!.click();

describe('frame dialog: tabs and the Single view (spec 001 §2.6)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  describe('opens with the tab the datum count calls for', () => {
    it('more than one datum: Table for table-capable types, Cards for others', async () => {
      booted = await openFrameDialog(
        frameRoutes(
          'int',
          rows(3, (i) => ({ value: i })),
        ),
      );
      assert.equal(activeTab(), 'table');
      await booted.unmount();
      booted = await openFrameDialog(
        frameRoutes(
          'bbox',
          rows(2, () => ({ value: [1, 2, 3, 4] })),
        ),
      );
      assert.equal(activeTab(), 'cards');
    });

    it('exactly one datum: Single', async () => {
      booted = await openFrameDialog(frameRoutes('row', [{ value: { river: 'Elbe' } }]));
      assert.equal(activeTab(), 'single');
      assert.ok(byTestId('frame-single'));
    });

    it('none: Upload for a file frame, Single with a new datum for types made by hand, else Table or Cards', async () => {
      booted = await openFrameDialog(frameRoutes('file', []));
      assert.equal(activeTab(), 'upload');
      await booted.unmount();

      booted = await openFrameDialog(frameRoutes('string', [], { template: { value: '' } }));
      assert.equal(activeTab(), 'single');
      assert.ok(text().includes('New, not saved yet'), 'a datum from the template waits to be filled in');
      await booted.unmount();

      booted = await openFrameDialog(frameRoutes('bbox', [], { template: {} }));
      assert.equal(activeTab(), 'cards', 'no template: nothing to fill in by hand');
    });

    it('read-only: an empty file frame opens the Table, and no upload tab is offered', async () => {
      booted = await openFrameDialog(frameRoutes('file', []), { readOnly: true });
      assert.equal(activeTab(), 'table');
      assert.ok(!offeredTabs().includes('upload'));
    });

    it('a requested tab wins when offered; a caller without write is read-only', async () => {
      booted = await openFrameDialog(
        frameRoutes(
          'int',
          rows(3, (i) => ({ value: i })),
        ),
        { initialTab: 'cards' },
      );
      assert.equal(activeTab(), 'cards');
      await booted.unmount();
      booted = await openFrameDialog(frameRoutes('file', [], { patch: { access: ['read'] } }), { initialTab: 'upload' });
      assert.equal(activeTab(), 'table', 'the upload tab is not offered to a reader');
      assert.ok(!byTestId('frame-save-close'), 'a reader gets Close only');
      assert.ok(byTestId('frame-close'));
    });
  });

  it('offers File upload only for writable file frames and Settings unless hidden', async () => {
    booted = await openFrameDialog(frameRoutes('file', [{ value: 'a.txt', size: 1, mime_type: 'text/plain' }]));
    assert.deepEqual(offeredTabs(), ['single', 'cards', 'table', 'upload', 'settings']);
    assert.equal(byTestId('frame-type')!.hasAttribute('disabled'), true, 'the type icon is disabled');
    await booted.unmount();
    booted = await openFrameDialog(frameRoutes('string', [{ value: 'a' }]), { hideFrameSettings: true });
    assert.deepEqual(offeredTabs(), ['single', 'cards', 'table']);
  });

  it('steps through the datums with previous and next, with the counter n / total', async () => {
    booted = await openFrameDialog(
      frameRoutes(
        'string',
        rows(3, (i) => ({ value: `river ${i}` })),
      ),
      { initialTab: 'single' },
    );
    const tab = () => byTestId('frame-tab-single')!.textContent ?? '';
    const editor = () => byTestId<HTMLInputElement>('datum-editor-string')!.value;
    assert.match(tab(), /1 \/ 3/);
    assert.equal(editor(), 'river 0');
    assert.equal(byTestId('frame-previous')!.hasAttribute('disabled'), true);
    click('frame-next');
    await booted.waitFor(() => /2 \/ 3/.test(tab()));
    assert.equal(editor(), 'river 1');
    click('frame-next');
    await booted.waitFor(() => /3 \/ 3/.test(tab()));
    assert.equal(byTestId('frame-next')!.hasAttribute('disabled'), true);
    click('frame-previous');
    await booted.waitFor(() => editor() === 'river 1');
    await booted.unmount();

    booted = await openFrameDialog(frameRoutes('string', [{ value: 'only' }]));
    assert.doesNotMatch(byTestId('frame-tab-single')!.textContent ?? '', /\//, 'no counter for one datum');
  });

  it('saves a changed datum per item and a new one through create-in-frame, then closes with saved', async () => {
    const routes = frameRoutes('string', [{ value: 'Elbe' }]);
    routes[`PATCH ${CONTENT}0/`] = { item: { value: 'Oder', index: 0 }, frame: { size: 1, content_hash: 'b'.repeat(64) } };
    routes[`POST ${TEMPLATE}`] = { objects: [{ value: 'Rhein', index: 1 }], frame: {} };
    booted = await openFrameDialog(routes);
    const input = () => byTestId<HTMLInputElement>('datum-editor-string')!;
    typeInto(input(), 'Oder');
    await booted.waitFor(() => !!byTestId('frame-single-changed'));
    click('frame-single-new');
    await booted.waitFor(() => input().value === '');
    typeInto(input(), 'Rhein');
    await booted.waitFor(() => !byTestId('frame-save-close')!.hasAttribute('disabled'));
    click('frame-save-close');
    await booted.waitFor(() => closed.length === 1);
    assert.deepEqual(closed, [true]);
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, { value: 'Oder' });
    assert.deepEqual(patch.query, { content_hash: 'a'.repeat(64) });
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'POST')!.body, { objects: [{ value: 'Rhein' }] });
  });

  it('keeps the dialog open with the reason when saving fails, and can save again', async () => {
    const routes = frameRoutes('string', [{ value: 'Elbe' }]);
    routes[`PATCH ${CONTENT}0/`] = failure(409, 'This switchboard runs automatically or on a schedule.');
    booted = await openFrameDialog(routes);
    typeInto(byTestId<HTMLInputElement>('datum-editor-string')!, 'Oder');
    await booted.waitFor(() => !byTestId('frame-save-close')!.hasAttribute('disabled'));
    click('frame-save-close');
    await booted.waitFor(() => !!byTestId('frame-save-error'));
    assert.ok(text().includes('This switchboard runs automatically or on a schedule.'));
    assert.deepEqual(closed, [], 'still open');
    assert.equal(byTestId('frame-save-close')!.hasAttribute('disabled'), false, 'not busy any more; the change is kept');
    assert.equal(byTestId<HTMLInputElement>('datum-editor-string')!.value, 'Oder');
  });

  it('Save & Back saves and returns to the tab seen before; Cancel closes without saving', async () => {
    const routes = frameRoutes(
      'string',
      rows(2, (i) => ({ value: `v${i}` })),
    );
    routes[`PATCH ${CONTENT}1/`] = { item: { value: 'changed', index: 1 }, frame: { size: 2, content_hash: 'c'.repeat(64) } };
    booted = await openFrameDialog(routes);
    assert.equal(activeTab(), 'table');
    click('frame-tab-single');
    click('frame-next');
    await booted.waitFor(() => byTestId<HTMLInputElement>('datum-editor-string')?.value === 'v1');
    typeInto(byTestId<HTMLInputElement>('datum-editor-string')!, 'changed');
    await booted.waitFor(() => !byTestId('frame-save-back')!.hasAttribute('disabled'));
    click('frame-save-back');
    await booted.waitFor(() => activeTab() === 'table');
    assert.ok(booted.api.calls.some((c) => c.method === 'PATCH' && c.path === `${CONTENT}1/`));
    assert.deepEqual(closed, []);
    click('frame-cancel');
    assert.deepEqual(closed, [true], 'the saved change is reported to the caller');
  });

  it('Close asks before dropping changes that are not saved; a read-only dialog just closes', async () => {
    booted = await openFrameDialog(frameRoutes('string', [{ value: 'Elbe' }]));
    typeInto(byTestId<HTMLInputElement>('datum-editor-string')!, 'Oder');
    await booted.waitFor(() => !!byTestId('frame-single-changed'));
    click('frame-close');
    await booted.waitFor(() => text().includes('Discard the changes that are not saved yet?'));
    const answer = (label: string) =>
      [...document.querySelectorAll<HTMLElement>('.bp6-alert button')].find((b) => b.textContent === label)!;
    answer('Cancel').click();
    await booted.waitFor(() => !document.querySelector('.bp6-alert'));
    assert.deepEqual(closed, []);
    assert.equal(byTestId<HTMLInputElement>('datum-editor-string')!.value, 'Oder', 'the change is still there');
    click('frame-close');
    await booted.waitFor(() => !!document.querySelector('.bp6-alert'));
    [...document.querySelectorAll<HTMLElement>('.bp6-alert button')].find((b) => b.textContent !== 'Cancel')!.click();
    await booted.waitFor(() => closed.length === 1);
    assert.deepEqual(closed, [false], 'nothing reached the server');
    assert.equal(booted.api.calls.filter((c) => c.method !== 'GET').length, 0);
    await booted.unmount();

    booted = await openFrameDialog(frameRoutes('string', [{ value: 'Elbe' }]), { readOnly: true });
    click('frame-close');
    assert.deepEqual(closed, [false]);
  });

  it('Close on a freshly opened empty frame asks nothing: the prepared datum is not a change yet', async () => {
    booted = await openFrameDialog(frameRoutes('string', [], { template: { value: '' } }));
    assert.equal(activeTab(), 'single');
    click('frame-close');
    await booted.waitFor(() => closed.length === 1);
    assert.equal(document.querySelector('.bp6-alert'), null);
    assert.deepEqual(closed, [false]);
  });

  it('lets a new bool datum be saved as it shows, "Off", without toggling it first (issue 14 item 15)', async () => {
    const routes = frameRoutes('bool', [], { template: { value: false } });
    routes[`POST ${TEMPLATE}`] = { objects: [{ value: false, index: 0 }], frame: {} };
    booted = await openFrameDialog(routes);
    assert.equal(activeTab(), 'single');
    assert.match(byTestId('datum-editor-bool')!.closest('label')!.textContent ?? '', /Off/);
    assert.equal(byTestId('frame-save-close')!.hasAttribute('disabled'), false);
    click('frame-save-close');
    await booted.waitFor(() => closed.length === 1);
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'POST')!.body, { objects: [{ value: false }] });
  });

  it('opens a datum holding one field of a several-field type as an object, as its template says (issue 14 item 9)', async () => {
    const routes = frameRoutes('any', [{ origin: 'https://example.org/FROST-Server' }], {
      template: { origin: '', sta_version: 'v1.1', batch_size: 100 },
    });
    booted = await openFrameDialog(routes, { initialTab: 'single' });
    await booted.waitFor(() => !!byTestId('datum-editor-generic'));
    const area = byTestId('datum-editor-generic')!.querySelector('textarea')!;
    assert.deepEqual(JSON.parse(area.value), { origin: 'https://example.org/FROST-Server' });
  });

  it('an empty table of a type made by hand offers a new datum', async () => {
    booted = await openFrameDialog(frameRoutes('row', [], { template: { value: {} } }), { initialTab: 'table' });
    assert.ok(byTestId('frame-table-empty'));
    [...byTestId('frame-table-empty')!.querySelectorAll('button')].find((b) => b.textContent === 'New datum')!.click();
    await booted.waitFor(() => activeTab() === 'single');
    assert.ok(text().includes('New, not saved yet'));
  });
});
