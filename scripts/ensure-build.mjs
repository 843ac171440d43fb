// Builds the browser bundle when it is missing or older than the sources (used by `npm start`
// and the browser tests), so the two README commands work on a fresh checkout.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const index = join(root, 'dist', 'index.html');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.endsWith('.spec.ts')) continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = ['kernel/src', 'sdk/src', 'server/browser', 'plugins', 'examples'].map((d) => newest(join(root, d)));
const built = existsSync(index) ? statSync(index).mtimeMs : 0;
if (built < Math.max(...sources)) {
  console.log('Building the browser bundle (npm run build)…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
