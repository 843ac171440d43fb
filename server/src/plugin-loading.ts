import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { selectPlugins, type PluginEntry, type PluginModule } from '@werkbank/kernel';
import { discoverPlugins, type DiscoveredPlugin } from '@werkbank/kernel/node';
import { SHARED_PACKAGES } from './shared-packages';

/**
 * The version of the SDK this Werkbank provides (plugins declare the range they need): the SDK the
 * server itself runs with, which every plugin shares — also when the installation whose plugins
 * are discovered (`root`) is another folder.
 */
export function hostSdkVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../sdk/package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

const hooked = new Set<string>();
let hookData: { hostParent: string; pluginRoots: string[]; shared: string[] } | undefined;

/** What the resolve hook was registered with (worker threads register it again), if it was. */
export function pluginHookData(): typeof hookData {
  return hookData;
}

/**
 * Lets plugins outside the Werkbank import the shared packages from it (plugin-resolve-hook.mjs):
 * resolved as the server's own modules resolve them, so plugin and server share one copy.
 */
function resolveFromHost(plugins: DiscoveredPlugin[]): void {
  const roots = plugins
    .filter((p) => p.source !== 'workspace')
    .map((p) => pathToFileURL(p.dir).href + '/')
    .filter((r) => !hooked.has(r));
  if (!roots.length) return;
  roots.forEach((r) => hooked.add(r));
  const data = { hostParent: import.meta.url, pluginRoots: roots, shared: SHARED_PACKAGES };
  register('./plugin-resolve-hook.mjs', import.meta.url, { data });
  hookData = { ...data, pluginRoots: [...(hookData?.pluginRoots ?? []), ...roots] };
}

export interface PluginLoadOptions {
  /** Plugin ids to load (WERKBANK_PLUGINS) and what they require; default all but examples. */
  chosen?: string[];
  /** WERKBANK_PLUGIN_DIRS. */
  pluginDirs?: string[];
  /** Load the example plugins too (WERKBANK_EXAMPLES=1). */
  examples?: boolean;
}

/** The plugins this Werkbank runs, as discovered (workspace, node_modules, plugin folders) and chosen. */
export function choosePlugins(root: string, options: PluginLoadOptions = {}): DiscoveredPlugin[] {
  const found = discoverPlugins(root, { pluginDirs: options.pluginDirs, sdkVersion: hostSdkVersion() });
  return selectPlugins(found, options.chosen, { examples: options.examples });
}

/** Loads the node entries of the chosen plugins. */
export async function loadNodePlugins(root: string, options: PluginLoadOptions = {}): Promise<PluginEntry[]> {
  const found = choosePlugins(root, options);
  resolveFromHost(found);
  const out: PluginEntry[] = [];
  for (const p of found) {
    let module: PluginModule | undefined;
    if (p.manifest.node) {
      const mod = (await import(pathToFileURL(join(p.dir, p.manifest.node)).href)) as { default: PluginModule };
      module = mod.default;
    }
    out.push({ manifest: p.manifest, module });
  }
  return out;
}
