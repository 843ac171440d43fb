/** Shared fixtures of the Magazine's jsdom specs. Import it first: it installs the DOM. */
import {
  bootPlugins,
  bootWorkbench,
  cancelHreflessLinkClicks,
  RecordingApiClient,
  type BootedWorkbench,
  browserPlugin,
} from '@werkbank/testing/browser';
import type { PluginEntry, PluginModule } from '@werkbank/sdk';
import magazineBrowser from './magazine-browser-module';
import type { Depot, FolderNode, Moment } from '../common/magazine-types';

export { RecordingApiClient, type BootedWorkbench };
export { byTestId, clickText, failure, lastMenu, page, text, typeInto } from '@werkbank/testing/browser';

// Blueprint's menu items are <a> without href; jsdom would follow them (see the SDK's helper).
cancelHreflessLinkClicks();

export const PLUGINS: PluginEntry[] = [
  await browserPlugin('types'),
  { manifest: { id: 'magazine', requires: ['types'], components: ['magazine', 'metadata'] }, module: magazineBrowser },
];

/** Boots types, magazine and any extra plugins (e.g. a probe route) at `path`, magazine and metadata licensed. */
export const boot = (path: string, routes: Record<string, unknown>, extra: Array<{ id: string; module: PluginModule }> = []) =>
  bootPlugins(PLUGINS, path, routes, extra, { magazine: true, metadata: true });

export function folder(id: number, name: string, parent: FolderNode | null, children: FolderNode[] = []): FolderNode {
  const full = parent ? `${parent.full_path}/${name}` : name;
  return {
    id,
    name,
    resource_uri: `/api/v1/depotfolder/${id}/`,
    parent: parent?.resource_uri ?? null,
    full_path: full,
    depot_count: 1,
    access: ['read', 'write'],
    children,
  };
}

/** Projekte(3) › Hamburg(4) › Altona(6); Archiv(5). */
export function folderTree(): FolderNode[] {
  const projekte = folder(3, 'Projekte', null);
  const hamburg = folder(4, 'Hamburg', projekte);
  hamburg.children = [folder(6, 'Altona', hamburg)];
  projekte.children = [hamburg];
  return [projekte, folder(5, 'Archiv', null)];
}

/** A depot the caller may change (`access` read and write); pass `access: ['read']` for a reader's. */
export function depot(id: number, name: string, patch: Partial<Depot> = {}): Depot {
  return {
    id,
    resource_uri: `/api/v1/depot/${id}/`,
    name,
    description: '',
    content_type: '/api/v1/type/string/',
    folder: null,
    metadata: null,
    style_depot: null,
    owner: '/api/v1/user/1/',
    permissions: [],
    favored: false,
    size: 0,
    access: ['read', 'write'],
    ...patch,
  };
}

export function moment(id: number, status: Moment['status'], patch: Partial<Moment> = {}): Moment {
  return {
    id,
    resource_uri: `/api/v1/moment/${id}/`,
    depot: '/api/v1/depot/1/',
    created: `2026-11-2${id % 10}T10:00:00Z`,
    user: '/api/v1/user/1/',
    user_name: 'Admin',
    status,
    origin: 'edit',
    temporary: false,
    message: `moment ${id}`,
    size: 2,
    persistent_size: 2048,
    ...patch,
  };
}

export { bootWorkbench };
