import { readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { discoverPlugins, pluginListFromEnv } from '@werkbank/kernel/node';
import { SHARED_PACKAGES } from './src/shared-packages';
import { cesiumAssets } from './vite-cesium-assets';

/** WERKBANK_ROOT: the Werkbank installation whose plugins are bundled (default this repository). */
const root = resolve(process.env.WERKBANK_ROOT ?? resolve(import.meta.dirname, '..'));
/** WERKBANK_PLUGIN_DIRS, as the server reads it: plugins installed outside the Werkbank folder. */
const pluginDirs = (pluginListFromEnv(process.env.WERKBANK_PLUGIN_DIRS) ?? []).map((d) => resolve(root, d));
/** WERKBANK_DIST_DIR: build into another folder (the packed-plugin test builds a bundle of its own). */
const outDir = process.env.WERKBANK_DIST_DIR ? resolve(root, process.env.WERKBANK_DIST_DIR) : resolve(root, 'dist');

/**
 * `virtual:werkbank-plugins`: every installed plugin's manifest with its browser entry (workspace
 * packages, npm packages in node_modules, WERKBANK_PLUGIN_DIRS). The bundle holds them all; at
 * start the browser keeps those the server runs (/api/v2/backend/config). A plugin installed
 * later reaches the browser with the next `npm run build`.
 */
function werkbankPlugins(): Plugin {
  const id = 'virtual:werkbank-plugins';
  let exported: Map<string, string> | undefined;
  return {
    name: 'werkbank-plugins',
    // Before Vite's own resolver, which would turn an API of a plugin installed elsewhere into an
    // empty optional peer dependency.
    enforce: 'pre',
    resolveId(source) {
      if (source === id) return `\0${id}`;
      exported ??= pluginExports();
      return exported.get(source);
    },
    load(loaded) {
      if (loaded !== `\0${id}`) return undefined;
      const plugins = discoverPlugins(root, { pluginDirs });
      const imports = plugins
        .map((p, i) => (p.manifest.browser ? `import p${i} from ${JSON.stringify(join(p.dir, p.manifest.browser))};` : ''))
        .join('\n');
      const list = plugins
        .map((p, i) => `{ manifest: ${JSON.stringify(p.manifest)}, module: ${p.manifest.browser ? `p${i}` : 'undefined'} }`)
        .join(',\n');
      return `${imports}\nexport default [${list}];`;
    },
  };
}

/**
 * `virtual:werkbank-viewer`: the public viewer's app (decision 0088), the module a plugin names in
 * its manifest's `viewer`; when no installed plugin provides one, a page that says so.
 */
function werkbankViewer(): Plugin {
  const id = 'virtual:werkbank-viewer';
  return {
    name: 'werkbank-viewer',
    enforce: 'pre',
    resolveId(source) {
      return source === id ? `\0${id}` : undefined;
    },
    load(loaded) {
      if (loaded !== `\0${id}`) return undefined;
      const provider = discoverPlugins(root, { pluginDirs }).find((p) => p.manifest.viewer);
      if (provider) return `export { default } from ${JSON.stringify(join(provider.dir, provider.manifest.viewer!))};`;
      return `export default function start(root) { root.textContent = 'The viewer is not installed. / Der Viewer ist nicht installiert.'; }`;
    },
  };
}

/**
 * The package exports of every installed plugin (`@werkbank/plugin-magazine/api` → its file), so
 * a plugin's import of another plugin's API resolves to the installed plugin wherever either is
 * installed (a plugin in WERKBANK_PLUGIN_DIRS has no node_modules of the Werkbank above it); the
 * node side does the same with its resolve hook's fallback to the Werkbank.
 */
function pluginExports(): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of discoverPlugins(root, { pluginDirs })) {
    const pkg = JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8')) as { name?: string; exports?: unknown };
    if (!pkg.name || !pkg.exports || typeof pkg.exports !== 'object') continue;
    for (const [sub, target] of Object.entries(pkg.exports as Record<string, unknown>))
      if (typeof target === 'string' && sub.startsWith('.') && !sub.endsWith('.json'))
        out.set(pkg.name + sub.slice(1), join(p.dir, target));
  }
  return out;
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'browser'),
  publicDir: resolve(import.meta.dirname, 'browser/public'),
  plugins: [werkbankPlugins(), werkbankViewer(), cesiumAssets(outDir)],
  // Plugins outside the Werkbank folder get the shared packages (the SDK, React, ...) from it: one copy each.
  resolve: {
    // Cesium's engine without its widgets (their knockout needs eval, which the CSP forbids).
    alias: [{ find: /^cesium$/, replacement: resolve(import.meta.dirname, '../sdk/src/browser/map/cesium-without-widgets.ts') }],
    dedupe: SHARED_PACKAGES.filter((p) => !p.includes('*')).concat([
      '@blueprintjs/core',
      '@blueprintjs/table',
      '@blueprintjs/icons',
      'rete-area-plugin',
      'rete-connection-plugin',
      'rete-react-plugin',
      'rete-render-utils',
    ]),
  },
  build: {
    outDir,
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    sourcemap: false,
    // Two pages: the workbench, and the public viewer (its own, lighter bundle: no workbench).
    rolldownOptions: {
      input: {
        main: resolve(import.meta.dirname, 'browser/index.html'),
        viewer: resolve(import.meta.dirname, 'browser/viewer.html'),
      },
    },
  },
  esbuild: { jsx: 'automatic' },
  oxc: { jsx: { runtime: 'automatic' }, decorator: { legacy: true } } as never,
});
