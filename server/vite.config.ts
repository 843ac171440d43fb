import { resolve, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { discoverPlugins } from '@werkbank/kernel/node';

const root = resolve(import.meta.dirname, '..');

/**
 * `virtual:werkbank-plugins`: every workspace plugin's manifest with its browser entry. The
 * bundle holds them all; at start the browser keeps those the server runs (/api/v2/backend/config).
 */
function werkbankPlugins(): Plugin {
  const id = 'virtual:werkbank-plugins';
  return {
    name: 'werkbank-plugins',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(loaded) {
      if (loaded !== `\0${id}`) return undefined;
      const plugins = discoverPlugins(root);
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

export default defineConfig({
  root: resolve(import.meta.dirname, 'browser'),
  publicDir: resolve(import.meta.dirname, 'browser/public'),
  plugins: [werkbankPlugins()],
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    sourcemap: false,
  },
  esbuild: { jsx: 'automatic' },
  oxc: { jsx: { runtime: 'automatic' }, decorator: { legacy: true } } as never,
});
