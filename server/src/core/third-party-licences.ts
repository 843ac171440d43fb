import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A production dependency and its licence (the package's own package.json `license`). */
export interface ThirdPartyPackage {
  name: string;
  version: string;
  /** An SPDX expression, or null when the package states none. */
  license: string | null;
  homepage: string | null;
}

interface LockEntry {
  name?: string;
  version?: string;
  license?: string;
  dev?: boolean;
  link?: boolean;
}

/** `license` (string or the old `{type}`) or the old `licenses` list, as one expression. */
function licenceOf(pkg: { license?: unknown; licenses?: unknown }): string | null {
  const one = (l: unknown) =>
    typeof l === 'string' ? l : typeof (l as { type?: unknown })?.type === 'string' ? (l as { type: string }).type : null;
  const direct = one(pkg.license);
  if (direct) return direct;
  if (Array.isArray(pkg.licenses)) {
    const all = pkg.licenses.map(one).filter((l): l is string => !!l);
    if (all.length) return all.length === 1 ? all[0] : `(${all.join(' OR ')})`;
  }
  return null;
}

/**
 * The third-party packages Werkbank runs with, from package-lock.json in `root`: every package
 * that is not only a development dependency and not one of Werkbank's own workspaces, as
 * installed in node_modules (optional packages for other platforms, not installed here, are left
 * out), with the licence its package.json states (the lockfile's when it cannot be read). Sorted
 * by name, each name and version once. An empty list when there is no lockfile.
 */
export function thirdPartyLicences(root: string): ThirdPartyPackage[] {
  const lockFile = join(root, 'package-lock.json');
  if (!existsSync(lockFile)) return [];
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages?: Record<string, LockEntry> };
  const seen = new Map<string, ThirdPartyPackage>();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path.includes('node_modules/') || entry.dev || entry.link) continue;
    const dir = join(root, path);
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    let pkg: { name?: string; version?: string; license?: unknown; licenses?: unknown; homepage?: unknown } = {};
    try {
      pkg = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
    } catch {
      // An unreadable package.json: the lockfile's record stands.
    }
    const name = pkg.name ?? entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const version = pkg.version ?? entry.version ?? '';
    if (name.startsWith('@werkbank/')) continue;
    const key = `${name}@${version}`;
    if (seen.has(key)) continue;
    seen.set(key, {
      name,
      version,
      license: licenceOf(pkg) ?? entry.license ?? null,
      homepage: typeof pkg.homepage === 'string' && /^https?:\/\//.test(pkg.homepage) ? pkg.homepage : null,
    });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}
