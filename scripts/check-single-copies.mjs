// STYLE §14: one copy of each shared library. Fails when the installed tree holds two versions of
// any of them (plugins get them through the SDK as peer dependencies).
import { execSync } from 'node:child_process';

const shared = [
  'react',
  'react-dom',
  'mobx',
  'mobx-react-lite',
  'inversify',
  '@blueprintjs/core',
  '@blueprintjs/table',
  'i18next',
  'react-router',
  'rete',
  'rete-area-plugin',
  'rete-react-plugin',
  'styled-components',
  'cesium',
  'resium',
];
let out;
try {
  out = execSync(`npm ls ${shared.join(' ')} --all --json`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
} catch (e) {
  // npm ls exits non-zero for peer ranges it considers unmet (react-popper declares React <= 18); the tree is still printed.
  out = e.stdout;
}
const tree = JSON.parse(out);
// Benchmark peers (bench/engine runs Node-RED embedded beside our engine) bring their own copies;
// nothing of ours loads them, so their subtrees do not count.
const benchPeers = ['node-red'];
const versions = new Map();
const walk = (deps) => {
  for (const [name, info] of Object.entries(deps ?? {})) {
    if (benchPeers.includes(name)) continue;
    if (shared.includes(name) && info.version) {
      if (!versions.has(name)) versions.set(name, new Set());
      versions.get(name).add(info.version);
    }
    walk(info.dependencies);
  }
};
walk(tree.dependencies);
const doubled = [...versions].filter(([, v]) => v.size > 1);
if (doubled.length) {
  for (const [name, v] of doubled) console.error(`Two versions of ${name}: ${[...v].join(', ')}`);
  process.exit(1);
}
console.log(`One copy each of ${[...versions.keys()].join(', ')}`);
