import { JSDOM } from 'jsdom';
import type { BackendConfig, PluginEntry, PluginModule } from '@werkbank/kernel';
import { recordShapeViolation, replyShapeProblem } from './api-shapes';

export { byTestId, cancelHreflessLinkClicks, clickText, failure, lastMenu, page, text, typeInto } from './dom-helpers';
export { hasText, missingTexts, textKeys, usedTextKeys, type Messages } from './text-keys';

export interface RecordedCall {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** A fixed reply, or a function computing one from the call. */
export type FakeAnswer =
  ((call: RecordedCall) => unknown) | Record<string, unknown> | unknown[] | string | number | boolean | null;

/**
 * A recording fake of the ApiClient: answers from `routes` ("GET /api/v1/x/" → value or function)
 * and records every call; an unknown call rejects with a 404-like error. Every reply is checked
 * against the server's OpenAPI schema for its address (api-shapes.ts).
 */
export class RecordingApiClient {
  readonly calls: RecordedCall[] = [];
  constructor(readonly routes: Record<string, FakeAnswer> = {}) {}

  async request<T>(method: string, path: string, opts: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<T> {
    const call = { method, path, query: opts.query, body: opts.body };
    this.calls.push(call);
    const key = `${method} ${path}`;
    if (!(key in this.routes)) throw Object.assign(new Error(`No fake answer for ${key}`), { status: 404 });
    const answer = this.routes[key];
    const reply = typeof answer === 'function' ? (answer as (c: RecordedCall) => unknown)(call) : answer;
    // A fake that answers what the server never would makes a spec pass against a different API.
    const problem = replyShapeProblem(method, path, await reply);
    if (problem) recordShapeViolation(problem);
    return reply as T;
  }
  get<T>(path: string, opts?: { query?: Record<string, unknown> }) {
    return this.request<T>('GET', path, opts);
  }
  post<T>(path: string, body?: unknown, opts?: { query?: Record<string, unknown> }) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  patch<T>(path: string, body?: unknown, opts?: { query?: Record<string, unknown> }) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  delete<T>(path: string, opts?: { query?: Record<string, unknown> }) {
    return this.request<T>('DELETE', path, opts);
  }
}

export function testConfig(patch: Partial<BackendConfig> = {}): BackendConfig {
  return {
    default_base_layer: null,
    base_map_tile_url: null,
    source_projection: 'EPSG:25832',
    layer_types: {},
    auth: {
      is_authenticated: true,
      is_superuser: true,
      user: '/api/v1/user/1/',
      username: 'admin',
      display_name: 'Admin',
      language: 'en',
    },
    components: { tags: true, events: true },
    plugins: [],
    licence: { state: 'valid', development: true, expires: null, licensee: null },
    documentation: {},
    ...patch,
  };
}

let dom: JSDOM | undefined;

/** Installs a jsdom window as the global browser environment (once per process). */
export function installDom(url = 'http://localhost/', width = 1600): JSDOM {
  if (dom) {
    dom.reconfigure({ url });
    return dom;
  }
  dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', { url, pretendToBeVisual: true });
  const w = dom.window as unknown as Window & typeof globalThis;
  Object.defineProperty(w, 'innerWidth', { value: width, configurable: true });
  w.matchMedia = ((query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    return {
      matches: min ? width >= Number(min[1]) : false,
      media: query,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      onchange: null,
      dispatchEvent: () => false,
    };
  }) as typeof w.matchMedia;
  const g = globalThis as Record<string, unknown>;
  for (const key of [
    'window',
    'document',
    'navigator',
    'localStorage',
    'location',
    'history',
    'HTMLElement',
    'Element',
    'Node',
    'getComputedStyle',
    'requestAnimationFrame',
    'cancelAnimationFrame',
    'MutationObserver',
    'DocumentFragment',
    'matchMedia',
    // Blueprint's popovers test `instanceof KeyboardEvent` when they close; Node has none of its own.
    'KeyboardEvent',
    // Not Event or CustomEvent: Node's own EventTarget (used by servers in the same test run) needs Node's.
  ]) {
    const value = (w as unknown as Record<string, unknown>)[key];
    Object.defineProperty(g, key, {
      value:
        typeof value === 'function' && key[0] === key[0].toLowerCase() ? (value as (...a: unknown[]) => unknown).bind(w) : value,
      configurable: true,
      writable: true,
    });
  }
  g.IS_REACT_ACT_ENVIRONMENT = false;
  return dom;
}

export interface BootedWorkbench {
  api: RecordingApiClient;
  root: HTMLElement;
  workbench: import('@werkbank/kernel/browser-host').Workbench;
  /** Waits until `predicate` holds for the rendered DOM (checks after each macrotask, up to 2 s). */
  waitFor(predicate: () => boolean): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * Boots the browser kernel with the chosen plugins in jsdom, binds a recording fake ApiClient, and
 * renders the workbench at `path`.
 */
export async function bootWorkbench(
  entries: PluginEntry[],
  options: { path?: string; config?: BackendConfig; api?: RecordingApiClient } = {},
): Promise<BootedWorkbench> {
  installDom(`http://localhost${options.path ?? '/'}`);
  const { createWorkbench, WorkbenchApp } = await import('@werkbank/kernel/browser-host');
  const { ApiClient } = await import('@werkbank/kernel/browser');
  const { createRoot } = await import('react-dom/client');
  const { createElement } = await import('react');
  const config = options.config ?? testConfig({ plugins: entries.map((e) => e.manifest.id) });
  const workbench = createWorkbench(entries, config);
  const api = options.api ?? new RecordingApiClient();
  await workbench.kernel.container.unbind(ApiClient);
  workbench.kernel.container.bind(ApiClient).toConstantValue(api as never);
  const root = document.getElementById('root')!;
  const reactRoot = createRoot(root);
  reactRoot.render(createElement(WorkbenchApp, { workbench }));
  return {
    api,
    root,
    workbench,
    async waitFor(predicate) {
      const start = Date.now();
      while (!predicate()) {
        if (Date.now() - start > 2000) throw new Error(`Condition not met; page text: ${root.textContent?.slice(0, 500)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async unmount() {
      reactRoot.unmount();
      workbench.dispose();
    },
  };
}

/**
 * Boots `plugins` and the `extra` ones (e.g. a probe route; each requires every one of `plugins`)
 * at `path`, with a RecordingApiClient answering `routes` and `components` as the licensed
 * components (testConfig's default without it). A plugin's test kit wraps this with its plugins.
 */
export function bootPlugins(
  plugins: PluginEntry[],
  path: string,
  routes: Record<string, unknown>,
  extra: Array<{ id: string; module: PluginModule }> = [],
  components?: Record<string, boolean>,
): Promise<BootedWorkbench> {
  const api = new RecordingApiClient(routes as Record<string, FakeAnswer>);
  const requires = plugins.map((p) => p.manifest.id);
  const entries = [...plugins, ...extra.map((e) => ({ manifest: { id: e.id, requires }, module: e.module }))];
  const config = testConfig({ plugins: entries.map((e) => e.manifest.id), ...(components && { components }) });
  return bootWorkbench(entries, { path, api, config });
}

// React DOM decides at import time whether it runs in a browser: install the window before any
// plugin module (and so React) is imported. Import this harness first in a browser spec.
installDom();

/**
 * The browser entry of an installed plugin by id (as the server finds it: workspace packages,
 * node_modules), for specs that boot a plugin with the ones it requires — never a relative import
 * into another plugin's folder.
 */
export async function browserPlugin(id: string): Promise<PluginEntry> {
  const { discoverPlugins } = await import('@werkbank/kernel/node');
  const { join, resolve } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const found = discoverPlugins(resolve(import.meta.dirname, '../..')).find((p) => p.manifest.id === id);
  if (!found) throw new Error(`No installed plugin '${id}'`);
  const file = found.manifest.browser;
  const module = file
    ? ((await import(pathToFileURL(join(found.dir, file)).href)) as { default: PluginModule }).default
    : undefined;
  return { manifest: { id }, module };
}
