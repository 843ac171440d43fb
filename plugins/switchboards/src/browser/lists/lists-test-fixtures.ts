/** Fixtures of the lists area's jsdom specs (import the switchboards test kit first: it installs the DOM). */
import { createElement } from '@werkbank/sdk/react';
import { definePlugin, ObjectEditorHost, RouteContribution } from '@werkbank/sdk/browser';
import type { SwitchboardFolder } from '../../common/switchboard-types';
import type { ListedSwitchboard } from './switchboard-entries';

/** A switchboard the caller may view, run and change; `patch` overrides any field. */
export function switchboard(id: number, name: string, patch: Partial<ListedSwitchboard> = {}): ListedSwitchboard {
  return {
    id,
    resource_uri: `/api/v1/switchboard/${id}/`,
    name,
    description: '',
    folder: null,
    tags: [],
    status: 'initialized',
    progress: { total: 0 },
    ui_offset_x: 0,
    ui_offset_y: 0,
    ui_zoom: 1,
    automatic: false,
    periodic_execution: false,
    periodic_execution_rule: '',
    next_run: null,
    scheduled_by: null,
    owner: '/api/v1/user/1/',
    permissions: [],
    access: ['read', 'write', 'execute'],
    favored: false,
    modified: '2026-11-20T10:00:00Z',
    input_frames: [],
    output_frames: [],
    execution: null,
    api_url: `/api/v1/switchboard/${id}/execute/`,
    ...patch,
  };
}

export function sbFolder(id: number, name: string, access = ['read', 'write']): SwitchboardFolder {
  return { id, resource_uri: `/api/v1/switchboardfolder/${id}/`, name, owner: '/api/v1/user/1/', access };
}

/** The navigation state the workbench keeps in localStorage. */
export const storedNavigation = (): Record<string, unknown> => JSON.parse(localStorage.getItem('werkbank.navigation') ?? '{}');

/** Chooses `value` in a select the way React notices. */
export function choose(select: HTMLSelectElement, value: string): void {
  select.value = value;
  select.dispatchEvent(new window.Event('change', { bubbles: true }));
}

/** The probe route `/probe/` opening the editor of `address` as the list does; `closed` records how it closed. */
export function editorProbe(address: string, closed: boolean[] = []) {
  const routes: RouteContribution = {
    registerRoutes: (r) =>
      r.add({
        id: 'probe.editor',
        path: '/probe/',
        component: () => createElement(ObjectEditorHost, { address, onClose: (saved: boolean) => void closed.push(saved) }),
      }),
  };
  return { id: 'probe', module: definePlugin((ctx) => ctx.contribute(RouteContribution, routes)) };
}
