/** Shared fixtures of the switchboards plugin's jsdom specs. Import it first: it installs the DOM. */
import {
  bootWorkbench,
  RecordingApiClient,
  testConfig,
  type BootedWorkbench,
  type FakeAnswer,
} from '@werkbank/sdk/testing/browser';
import type { PluginEntry, PluginModule } from '@werkbank/sdk';
import typesBrowser from '../../../types/src/browser/types-browser-module';
import switchboardsBrowser from './switchboards-browser-module';

export { RecordingApiClient, type BootedWorkbench };

// Blueprint's menu items are <a> without href; jsdom would follow them. Cancel that default only.
document.addEventListener(
  'click',
  (e) => {
    if ((e.target as Element).closest?.('a:not([href])')) e.preventDefault();
  },
  true,
);

export const PLUGINS: PluginEntry[] = [
  { manifest: { id: 'types' }, module: typesBrowser },
  { manifest: { id: 'switchboards', requires: ['types'] }, module: switchboardsBrowser },
];

/**
 * Boots types, switchboards and any extra plugins (e.g. a probe route rendering one dialog) at `path`
 * with a recording fake API; `components` switches licensed components (default tags and node_runs on).
 */
export function boot(
  path: string,
  routes: Record<string, unknown>,
  extra: Array<{ id: string; module: PluginModule }> = [],
  components: Record<string, boolean> = { tags: true, node_runs: true },
) {
  const api = new RecordingApiClient(routes as Record<string, FakeAnswer>);
  const entries = [...PLUGINS, ...extra.map((e) => ({ manifest: { id: e.id, requires: ['switchboards'] }, module: e.module }))];
  const config = testConfig({ plugins: entries.map((e) => e.manifest.id), components });
  return bootWorkbench(entries, { path, api, config });
}

export const page = <T>(objects: T[]) => ({ objects, meta: { offset: 0, limit: 20, total_count: objects.length } });

/** A rejected call like the ApiClient's: the server's reason and status. */
export const failure = (status: number, reason: string) => () => {
  throw Object.assign(new Error(reason), { status });
};

export const text = () => document.body.textContent ?? '';

export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.body.querySelector<T>(`[data-testid="${id}"]`);
}

/** Clicks the first element of `selector` whose text is `label` (menus render in portals). */
export function clickText(label: string, selector = 'a, button'): void {
  const el = [...document.body.querySelectorAll<HTMLElement>(selector)].find((e) => e.textContent?.trim() === label);
  if (!el) throw new Error(`Nothing to click labelled '${label}'`);
  el.click();
}

/** Sets an input's value the way React notices (the native setter plus an input event). */
export function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = Object.getPrototypeOf(input) as object;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, value);
  input.dispatchEvent(new window.Event('input', { bubbles: true }));
}

export { bootWorkbench };
