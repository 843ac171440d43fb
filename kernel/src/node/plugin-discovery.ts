import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PluginManifest } from '../common/plugin';

export interface DiscoveredPlugin {
  manifest: PluginManifest;
  /** Absolute folder of the plugin package. */
  dir: string;
}

/**
 * Finds plugins among the workspace packages of `root` (the folders its package.json lists in
 * `workspaces`): every package whose package.json has a `werkbank` entry.
 */
export function discoverPlugins(root: string): DiscoveredPlugin[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const dirs: string[] = [];
  for (const pattern of pkg.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const base = resolve(root, pattern.slice(0, -2));
      if (!existsSync(base)) continue;
      for (const name of readdirSync(base).sort()) dirs.push(join(base, name));
    } else {
      dirs.push(resolve(root, pattern));
    }
  }
  const out: DiscoveredPlugin[] = [];
  for (const dir of dirs) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const p = JSON.parse(readFileSync(file, 'utf8')) as {
      name: string;
      version?: string;
      description?: string;
      werkbank?: Omit<PluginManifest, 'packageName'>;
    };
    if (!p.werkbank) continue;
    out.push({
      dir,
      manifest: { ...p.werkbank, packageName: p.name, version: p.version, description: p.description },
    });
  }
  return out;
}

/** Parses WERKBANK_PLUGINS (comma separated ids); empty means all. */
export function pluginListFromEnv(value: string | undefined): string[] | undefined {
  const ids = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length ? ids : undefined;
}
