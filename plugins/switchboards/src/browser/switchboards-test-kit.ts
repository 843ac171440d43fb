/** Shared fixtures of the switchboards plugin's jsdom specs. Import it first: it installs the DOM. */
import {
  bootPlugins,
  bootWorkbench,
  cancelHreflessLinkClicks,
  RecordingApiClient,
  type BootedWorkbench,
  browserPlugin,
} from '@werkbank/testing/browser';
import type { PluginEntry, PluginModule } from '@werkbank/sdk';
import switchboardsBrowser from './switchboards-browser-module';

export { RecordingApiClient, type BootedWorkbench };
export { byTestId, clickText, failure, lastMenu, page, text, typeInto } from '@werkbank/testing/browser';

// Blueprint's menu items are <a> without href; jsdom would follow them (see the SDK's helper).
cancelHreflessLinkClicks();

export const PLUGINS: PluginEntry[] = [
  await browserPlugin('types'),
  { manifest: { id: 'switchboards', requires: ['types'] }, module: switchboardsBrowser },
];

/**
 * Boots types, switchboards and any extra plugins (e.g. a probe route rendering one dialog) at `path`
 * with a recording fake API; `components` switches licensed components (default tags and node_runs on).
 */
export const boot = (
  path: string,
  routes: Record<string, unknown>,
  extra: Array<{ id: string; module: PluginModule }> = [],
  components: Record<string, boolean> = { tags: true, node_runs: true },
) => bootPlugins(PLUGINS, path, routes, extra, components);

export { bootWorkbench };
