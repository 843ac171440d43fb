import { byTestId, text, typeInto, type BootedWorkbench } from '../../switchboards-test-kit';
import assert from 'node:assert/strict';
import { closed, FRAME_URI, frame, frameRoutes, openFrameDialog, rows } from '../frame-dialog-test-kit';

/** Chooses `value` in a select the way React notices. */
function choose(select: HTMLSelectElement, value: string) {
  select.value = value;
  select.dispatchEvent(new window.Event('change', { bubbles: true }));
}

/** A radio's input (the test id sits on the input or on its label). */
const radio = (id: string) => byTestId(id)!.querySelector('input') ?? (byTestId(id) as HTMLInputElement);

/** A select (HTMLSelect puts the test id on the select itself). */
const select = (id: string) => byTestId<HTMLSelectElement>(id)!;

describe('frame dialog: settings (spec 001 §2.6)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('warns that the current data will be lost when the data type changes, and saves the new type with empty content', async () => {
    const routes = frameRoutes(
      'string',
      rows(3, (i) => ({ value: `v${i}` })),
    );
    routes[`PATCH ${FRAME_URI}`] = frame('int', 0);
    booted = await openFrameDialog(routes, { initialTab: 'settings' });
    assert.equal(byTestId('frame-type-warning'), null);
    choose(select('frame-settings-type'), 'int');
    await booted.waitFor(() => !!byTestId('frame-type-warning'));
    assert.ok(text().includes("Changing the data type deletes the frame's current data (3 datums) when you save."));
    byTestId('frame-save-close')!.click();
    await booted.waitFor(() => closed.length === 1);
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, { content_type: 'int', content: [] });
    assert.deepEqual(closed, [true]);
  });

  it('offers parquet storage only when the backend enables it, and stores the choice as {kind}', async () => {
    booted = await openFrameDialog(frameRoutes('string', [{ value: 'a' }]), { initialTab: 'settings' });
    assert.equal(byTestId('frame-storage-parquet'), null);
    assert.ok(radio('frame-storage-django').checked, 'django is the default');
    await booted.unmount();

    const routes = frameRoutes('string', [{ value: 'a' }], { patch: { storage_context: { kind: 'django', keep: 1 } } });
    routes[`PATCH ${FRAME_URI}`] = frame('string', 1);
    booted = await openFrameDialog(routes, { initialTab: 'settings' }, { components: { parquet: true } });
    radio('frame-storage-parquet').click();
    await booted.waitFor(() => !byTestId('frame-save-back')!.hasAttribute('disabled'));
    radio('frame-storage-other').click();
    await booted.waitFor(() => !!byTestId('frame-storage-select'));
    assert.deepEqual(
      [...select('frame-storage-select').options].map((o) => o.value),
      ['materialized', 'redis', 'on_demand_deferred', 'lazy'],
    );
    choose(select('frame-storage-select'), 'lazy');
    await booted.waitFor(() => text().includes('the data is produced when it is read'));
    byTestId('frame-save-back')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'PATCH'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'PATCH')!.body, { storage_context: { kind: 'lazy', keep: 1 } });
  });

  it('shows name and description only for input and output frames (frame_type 1 and 2)', async () => {
    const routes = frameRoutes('string', [{ value: 'a' }]);
    routes[`PATCH ${FRAME_URI}`] = frame('string', 1, { frame_type: 1, name: 'rivers' });
    booted = await openFrameDialog(routes, { initialTab: 'settings' });
    assert.equal(byTestId('frame-mode-fields'), null, 'None: no name or description');
    radio('frame-mode-1').click();
    await booted.waitFor(() => !!byTestId('frame-settings-name'));
    assert.ok(byTestId('frame-settings-description'));
    typeInto(byTestId<HTMLInputElement>('frame-settings-name')!, 'rivers');
    radio('frame-mode-2').click();
    await booted.waitFor(() => !!byTestId('frame-mode-fields'));
    radio('frame-mode-0').click();
    await booted.waitFor(() => !byTestId('frame-mode-fields'));
    radio('frame-mode-1').click();
    await booted.waitFor(() => byTestId<HTMLInputElement>('frame-settings-name')?.value === 'rivers');
    byTestId('frame-save-close')!.click();
    await booted.waitFor(() => closed.length === 1);
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'PATCH')!.body, { name: 'rivers', frame_type: 1 });
  });

  it('shows a read-only frame’s settings without letting them change', async () => {
    booted = await openFrameDialog(frameRoutes('string', [{ value: 'a' }], { patch: { frame_type: 2, name: 'result' } }), {
      initialTab: 'settings',
      readOnly: true,
    });
    assert.equal(byTestId<HTMLInputElement>('frame-settings-name')!.disabled, true);
    assert.equal(select('frame-settings-type').disabled, true);
    assert.equal(byTestId('frame-save-close'), null);
  });
});
