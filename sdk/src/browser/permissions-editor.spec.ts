import assert from 'node:assert/strict';
import { createElement, useState } from 'react';
import { bootWorkbench, RecordingApiClient, type BootedWorkbench } from '@werkbank/testing/browser';
import { definePlugin, RouteContribution, type PermissionEntry, type RouteContribution as RC } from '@werkbank/kernel/browser';
import { PermissionsEditor } from './permissions-editor';

/** Every value the editor handed on, newest last. */
let changes: PermissionEntry[][] = [];
let initial: PermissionEntry[] = [];
let rights: string[] | undefined;

function Probe() {
  const [value, setValue] = useState<PermissionEntry[]>(initial);
  return createElement(PermissionsEditor, {
    owner: '/api/v1/user/1/',
    value,
    rights,
    onChange: (v: PermissionEntry[]) => {
      changes.push(v);
      setValue(v);
    },
  });
}

const probeRoutes: RC = { registerRoutes: (r) => r.add({ id: 'probe.permissions', path: '/probe/', component: Probe }) };

const api = () =>
  new RecordingApiClient({
    'GET /api/v1/user/': {
      objects: [
        { resource_uri: '/api/v1/user/1/', display_name: 'Ada Admin' },
        { resource_uri: '/api/v1/user/2/', display_name: 'Berta Bauer' },
      ],
      meta: { offset: 0, limit: 1000, total_count: 2 },
    },
    'GET /api/v1/group/': {
      objects: [{ resource_uri: '/api/v1/group/5/', name: 'Vermessung' }],
      meta: { offset: 0, limit: 1000, total_count: 1 },
    },
  });

describe('PermissionsEditor (spec 001 §5.1, jsdom)', function () {
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  async function boot(value: PermissionEntry[], withRights?: string[]): Promise<BootedWorkbench> {
    changes = [];
    initial = value;
    rights = withRights;
    booted = await bootWorkbench(
      [{ manifest: { id: 'probe' }, module: definePlugin((ctx) => ctx.contribute(RouteContribution, probeRoutes)) }],
      { path: '/probe/', api: api() },
    );
    await booted.waitFor(() => booted!.root.textContent!.includes('Ada Admin'));
    return booted;
  }

  const rows = () => [...booted!.root.querySelectorAll('[data-testid="permissions-editor"] tbody tr')];
  /** Grant row `i` (0 = the first grant after the owner). */
  const grant = (i: number) => rows().filter((r) => r.getAttribute('data-testid') !== 'permissions-owner')[i];
  /** The checkbox of `right` (its column heading) in grant row `i`. */
  const box = (i: number, heading: string) =>
    grant(i).querySelector<HTMLInputElement>(`input[type=checkbox][aria-label="${heading}"]`)!;
  const select = (i: number) => grant(i).querySelector<HTMLSelectElement>('select')!;
  const choose = (i: number, value: string) => {
    const s = select(i);
    s.value = value;
    s.dispatchEvent(new window.Event('change', { bubbles: true }));
  };

  it('shows the owner first with every right, locked', async () => {
    await boot([]);
    const owner = booted!.root.querySelector('[data-testid="permissions-owner"]')!;
    assert.match(owner.textContent!, /Ada Admin\s*Owner/);
    const boxes = [...owner.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    assert.deepEqual(
      boxes.map((b) => [b.getAttribute('aria-label'), b.checked, b.disabled]),
      [
        ['Read', true, true],
        ['Write', true, true],
      ],
    );
  });

  it('adds a grant for a chosen user that starts with read; granting write adds read, taking read takes every right', async () => {
    await boot([]);
    booted!.root.querySelector<HTMLButtonElement>('[data-testid="permissions-add"]')!.click();
    await booted!.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], [{ user: '', perms: ['read'] }]);

    choose(0, 'user:/api/v1/user/2/');
    await booted!.waitFor(() => changes.length === 2);
    assert.deepEqual(changes[1], [{ user: '/api/v1/user/2/', perms: ['read'] }]);

    box(0, 'Read').click();
    await booted!.waitFor(() => changes.length === 3);
    assert.deepEqual(changes[2], [{ user: '/api/v1/user/2/', perms: [] }], 'read taken away');

    box(0, 'Write').click();
    await booted!.waitFor(() => changes.length === 4);
    assert.deepEqual(changes[3], [{ user: '/api/v1/user/2/', perms: ['read', 'write'] }], 'write brings read with it');

    box(0, 'Read').click();
    await booted!.waitFor(() => changes.length === 5);
    assert.deepEqual(changes[4], [{ user: '/api/v1/user/2/', perms: [] }], 'without read, no other right stays');
  });

  it('run brings read too, and a group chosen instead of a user replaces the user', async () => {
    await boot([{ user: '/api/v1/user/2/', perms: [] }], ['read', 'execute', 'write']);
    box(0, 'Run').click();
    await booted!.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], [{ user: '/api/v1/user/2/', perms: ['read', 'execute'] }]);

    choose(0, 'group:/api/v1/group/5/');
    await booted!.waitFor(() => changes.length === 2);
    assert.deepEqual(changes[1], [{ group: '/api/v1/group/5/', perms: ['read', 'execute'] }]);
    assert.equal(select(0).value, 'group:/api/v1/group/5/');
  });

  it('removes a grant', async () => {
    await boot([
      { user: '/api/v1/user/2/', perms: ['read'] },
      { group: '/api/v1/group/5/', perms: ['read', 'write'] },
    ]);
    grant(0).querySelector<HTMLButtonElement>('button[aria-label="Remove permission"]')!.click();
    await booted!.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], [{ group: '/api/v1/group/5/', perms: ['read', 'write'] }]);
  });
});
