import { readFileSync, readdirSync, existsSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import semver from 'semver';
import { PluginLoadError, type PluginManifest } from '../common/plugin';
import { PLUGIN_MANIFEST_SCHEMA } from './plugin-manifest-schema';

/** Where a plugin was found: a workspace package, an installed npm package, or a WERKBANK_PLUGIN_DIRS folder. */
export type PluginSource = 'workspace' | 'package' | 'folder';

export interface DiscoveredPlugin {
  manifest: PluginManifest;
  /** Absolute folder of the plugin package. */
  dir: string;
  source: PluginSource;
}

export interface DiscoveryOptions {
  /** Folders holding plugin packages (or being one): WERKBANK_PLUGIN_DIRS. */
  pluginDirs?: string[];
  /** The host's SDK version; a plugin whose `@werkbank/sdk` peer range excludes it is refused. */
  sdkVersion?: string;
}

interface PackageJson {
  name?: string;
  version?: string;
  description?: string;
  license?: unknown;
  werkbank?: unknown;
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

const validate = new Ajv({ allErrors: false }).compile(PLUGIN_MANIFEST_SCHEMA);

function readPackage(dir: string): PackageJson | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

/** The manifest of the package in `dir`, or undefined when it has no `werkbank` entry. Throws when the entry is invalid. */
export function readManifest(dir: string, options: DiscoveryOptions = {}): PluginManifest | undefined {
  const p = readPackage(dir);
  if (!p?.werkbank) return undefined;
  const where = `${p.name ?? dir} (${dir})`;
  if (!validate(p.werkbank)) {
    const e = validate.errors?.[0];
    const field = e?.instancePath ? `werkbank${e.instancePath.replace(/\//g, '.')}` : 'werkbank';
    throw new PluginLoadError(`Plugin package ${where} has an invalid manifest: ${field} ${e?.message ?? 'is invalid'}`, []);
  }
  const range = p.peerDependencies?.['@werkbank/sdk'] ?? p.dependencies?.['@werkbank/sdk'];
  if (options.sdkVersion && range && !range.startsWith('file:') && !semver.satisfies(options.sdkVersion, range))
    throw new PluginLoadError(
      `Plugin package ${where} needs @werkbank/sdk ${range}, but this Werkbank provides ${options.sdkVersion}`,
      [(p.werkbank as PluginManifest).id],
    );
  return {
    ...(p.werkbank as PluginManifest),
    packageName: p.name,
    version: p.version,
    description: p.description,
    ...(typeof p.license === 'string' ? { license: p.license } : {}),
  };
}

function workspaceDirs(root: string): string[] {
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
  return dirs;
}

/** Package folders directly in `dir`, including scoped ones (`@acme/x`), sorted. */
function packagesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    if (name.startsWith('@'))
      out.push(
        ...readdirSync(path)
          .sort()
          .map((n) => join(path, n)),
      );
    else out.push(path);
  }
  return out;
}

/**
 * Finds plugins: every package with a `werkbank` entry among the workspace packages of `root`,
 * the npm packages installed in `root/node_modules`, and the folders of `options.pluginDirs`
 * (each a plugin package, or a folder of them, or a node_modules folder). A package reached twice
 * (a workspace package is also linked into node_modules) counts once. Manifests are validated.
 */
export function discoverPlugins(root: string, options: DiscoveryOptions = {}): DiscoveredPlugin[] {
  const seen = new Set<string>();
  const out: DiscoveredPlugin[] = [];
  const visit = (dir: string, source: PluginSource) => {
    if (!existsSync(dir)) return;
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    const manifest = readManifest(dir, options);
    if (!manifest) return;
    seen.add(real);
    out.push({ dir: real, manifest, source });
  };
  for (const dir of workspaceDirs(root)) visit(dir, 'workspace');
  for (const dir of packagesIn(join(root, 'node_modules'))) visit(dir, 'package');
  for (const folder of options.pluginDirs ?? []) {
    const abs = resolve(root, folder);
    if (readPackage(abs)?.werkbank) visit(abs, 'folder');
    else for (const dir of [...packagesIn(abs), ...packagesIn(join(abs, 'node_modules'))]) visit(dir, 'folder');
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
