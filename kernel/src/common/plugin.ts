import type { ServiceIdentifier, Newable, Bind, IsBound, RebindSync } from 'inversify';
import type { Token } from './contribution-provider';

/** The `werkbank` entry of a plugin's package.json, plus the package facts the kernel needs. */
export interface PluginManifest {
  /** Kebab-case plugin id, the namespace of every id the plugin registers. */
  id: string;
  /** Plugins that must load first; a missing one stops start-up. */
  requires?: string[];
  /** Plugins that load first when present. */
  optional?: string[];
  /** Licensed components that gate this plugin's features (see ComponentGate); the plugin implements them. */
  components?: string[];
  /**
   * Licensed components the plugin implements without being gated by them as a whole (e.g. the
   * switchboards' node run history). A component no loaded plugin names here or in `components`
   * has nothing behind it: the Apps screen shows it as not installed.
   */
  implements?: string[];
  /** Module path (relative to the package) of the browser entry. */
  browser?: string;
  /** Module path (relative to the package) of the node entry. */
  node?: string;
  /**
   * Module path (relative to the package) of the public viewer: a separate, lightweight bundle
   * (no workbench) served at `/viewer/…` and `/finalview/…`. Its default export starts it in the
   * element it is given. One installed plugin provides it.
   */
  viewer?: string;
  /** Display title per language. */
  title?: Record<string, string>;
  /** One-line description per language (the Apps screen). */
  summary?: Record<string, string>;
  /** An example plugin: loaded only when named in WERKBANK_PLUGINS or when examples are asked for. */
  example?: boolean;
  packageName?: string;
  version?: string;
  description?: string;
  /** The package's licence (package.json `license`, an SPDX expression), shown on /about/. */
  license?: string;
}

/** What a plugin's module receives when it is loaded: bindings only (STYLE §1). */
export interface PluginContext {
  readonly pluginId: string;
  bind: Bind;
  rebind: RebindSync;
  isBound: IsBound;
  /**
   * Binds a contribution to a contribution point token. A class is bound as a singleton under its
   * own identifier too, so other services may inject it. The kernel remembers the plugin that
   * contributed it, so registries can name it.
   */
  contribute<T>(token: Token<T> | ServiceIdentifier<T>, impl: Newable<T> | T): void;
}

export interface PluginModule {
  readonly werkbankPlugin: true;
  register(ctx: PluginContext): void;
}

/** Declares a plugin entry (browser or node). The default export of every plugin entry module. */
export function definePlugin(register: (ctx: PluginContext) => void): PluginModule {
  return { werkbankPlugin: true, register };
}

export interface PluginEntry {
  manifest: PluginManifest;
  module?: PluginModule;
}

export class PluginLoadError extends Error {
  constructor(
    message: string,
    readonly plugins: string[],
  ) {
    super(message);
    this.name = 'PluginLoadError';
  }
}

/**
 * Orders plugins so that every plugin loads after the ones it requires (and after present optional
 * ones). Refuses duplicates, missing requirements and cycles before anything loads, naming the
 * plugins involved. Ties keep the given order.
 */
export function sortPlugins<T extends { manifest: PluginManifest }>(entries: T[]): T[] {
  const byId = new Map<string, T>();
  for (const e of entries) {
    const id = e.manifest.id;
    if (byId.has(id)) throw new PluginLoadError(`Plugin '${id}' is installed twice`, [id]);
    byId.set(id, e);
  }
  const missing: string[] = [];
  for (const e of entries) {
    for (const r of e.manifest.requires ?? []) {
      if (!byId.has(r)) missing.push(`'${e.manifest.id}' requires '${r}'`);
    }
  }
  if (missing.length) {
    throw new PluginLoadError(
      `Missing plugin requirements: ${missing.join('; ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed`,
      entries.filter((e) => (e.manifest.requires ?? []).some((r) => !byId.has(r))).map((e) => e.manifest.id),
    );
  }
  const deps = (e: T) => [...(e.manifest.requires ?? []), ...(e.manifest.optional ?? []).filter((o) => byId.has(o))];
  const state = new Map<string, 'visiting' | 'done'>();
  const out: T[] = [];
  const stack: string[] = [];
  const visit = (e: T) => {
    const id = e.manifest.id;
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...stack.slice(stack.indexOf(id)), id];
      throw new PluginLoadError(`Plugins require each other in a cycle: ${cycle.join(' → ')}`, cycle.slice(0, -1));
    }
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of deps(e)) visit(byId.get(d)!);
    stack.pop();
    state.set(id, 'done');
    out.push(e);
  };
  entries.forEach(visit);
  return out;
}

/**
 * Chooses the plugins to load: all discovered ones but examples (unless `examples` is set), or
 * the ids listed (WERKBANK_PLUGINS or the config list) plus what they require. An unknown listed
 * id is an error.
 */
export function selectPlugins<T extends { manifest: PluginManifest }>(
  all: T[],
  chosen?: string[],
  options: { examples?: boolean } = {},
): T[] {
  if (!chosen || chosen.length === 0) return all.filter((e) => options.examples || !e.manifest.example);
  const byId = new Map(all.map((e) => [e.manifest.id, e]));
  const unknown = chosen.filter((id) => !byId.has(id));
  if (unknown.length) throw new PluginLoadError(`Unknown plugins chosen: ${unknown.join(', ')}`, unknown);
  const picked = new Set<string>();
  const add = (id: string) => {
    if (picked.has(id)) return;
    picked.add(id);
    for (const r of byId.get(id)?.manifest.requires ?? []) if (byId.has(r)) add(r);
  };
  chosen.forEach(add);
  return all.filter((e) => picked.has(e.manifest.id));
}
