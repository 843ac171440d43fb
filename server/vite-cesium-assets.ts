import { cpSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** The folders of Cesium's build that it loads at run time (the code itself is bundled by Vite). */
const FOLDERS = ['Workers', 'ThirdParty', 'Assets', 'Widgets'];

/**
 * Copies Cesium's static files (web workers, their wasm, the Natural Earth imagery, widget
 * images) into `<outDir>/cesium/`, where the SDK's map points CESIUM_BASE_URL: served from our
 * own origin like the rest of the bundle, so the CSP stays `default-src 'self'` and the map works
 * offline (decision 0065).
 */
export function cesiumAssets(outDir: string): Plugin {
  return {
    name: 'werkbank-cesium-assets',
    apply: 'build',
    writeBundle() {
      const require = createRequire(import.meta.url);
      const build = join(dirname(require.resolve('cesium/package.json')), 'Build', 'Cesium');
      for (const folder of FOLDERS) {
        const from = join(build, folder);
        if (existsSync(from)) cpSync(from, join(outDir, 'cesium', folder), { recursive: true });
      }
    },
  };
}
