// DESIGN §4: Cesium loads only on screens that show a map. Reads the built dist/index.html, sums
// the scripts and styles it loads at start (the entry and its preloaded chunks) and fails when
// any of them holds Cesium. `node scripts/check-main-chunk.mjs` after `npm run build`.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'dist'));
/** Strings only Cesium's own code carries (its widget class and its engine's shader prelude). */
export const CESIUM_MARKERS = ['cesium-widget', 'czm_'];

export function initialAssets(distDir) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
}

const files = initialAssets(dist);
let total = 0;
const offenders = [];
for (const f of files) {
  const path = join(dist, f);
  total += statSync(path).size;
  const text = readFileSync(path, 'utf8');
  if (CESIUM_MARKERS.some((m) => text.includes(m))) offenders.push(f);
}
const entry = files.find((f) => f.endsWith('.js'));
console.log(`main entry ${entry}: ${statSync(join(dist, entry)).size} bytes; loaded at start: ${files.length} files, ${total} bytes`);
if (offenders.length) {
  console.error(`Cesium is in the start bundle: ${offenders.join(', ')}`);
  process.exit(1);
}
