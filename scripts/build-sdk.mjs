// Builds the published form of @werkbank/sdk (decision 0025): JavaScript plus .d.ts, with the
// kernel's isomorphic code it re-exports inside, in sdk/dist/package; `--pack` also runs
// `npm pack` there and prints the tarball's path. In the repository, workspaces use the sources.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'sdk', 'dist');
const stage = join(out, '.tsc');
const pkgDir = join(out, 'package');
const read = (f) => JSON.parse(readFileSync(f, 'utf8'));

rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'sdk/tsconfig.build.json')], {
  stdio: 'inherit',
});

/** Where the kernel's entries land inside the package. */
const KERNEL = { '@werkbank/kernel': 'kernel/src/common/index', '@werkbank/kernel/node': 'kernel/src/node/index', '@werkbank/kernel/browser': 'kernel/src/browser/index' };

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** A relative specifier with the file extension Node's ESM resolution needs. */
function withExtension(fromFile, spec) {
  const target = resolve(dirname(fromFile), spec);
  if (spec.endsWith('.json') || spec.endsWith('.js')) return spec;
  if (existsSync(target + '.js') || existsSync(target + '.d.ts')) return `${spec}.js`;
  if (existsSync(join(target, 'index.js')) || existsSync(join(target, 'index.d.ts'))) return `${spec}/index.js`;
  return spec;
}

for (const file of walk(stage)) {
  if (!/\.(js|d\.ts)$/.test(file)) continue;
  const text = readFileSync(file, 'utf8').replace(
    /((?:from|import)\s*\(?\s*)(['"])([^'"]+)\2/g,
    (m, lead, q, spec) => {
      if (spec in KERNEL) {
        let rel = relative(dirname(file), join(stage, KERNEL[spec]));
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return `${lead}${q}${rel}.js${q}`;
      }
      if (spec.startsWith('./') || spec.startsWith('../')) return `${lead}${q}${withExtension(file, spec)}${q}`;
      return m;
    },
  );
  writeFileSync(file, text);
}

mkdirSync(pkgDir, { recursive: true });
cpSync(join(stage, 'sdk'), join(pkgDir, 'sdk'), { recursive: true });
cpSync(join(stage, 'kernel'), join(pkgDir, 'kernel'), { recursive: true });
rmSync(stage, { recursive: true, force: true });

const sdk = read(join(root, 'sdk/package.json'));
const kernel = read(join(root, 'kernel/package.json'));
const entry = (src) => {
  const base = `./sdk/${src.replace(/^\.\//, '').replace(/\.tsx?$/, '')}`;
  return { types: `${base}.d.ts`, default: `${base}.js` };
};
const { '@werkbank/kernel': _kernel, ...sdkDeps } = sdk.dependencies;
const shared = new Set(Object.keys(sdk.peerDependencies));
const kernelDeps = Object.fromEntries(Object.entries(kernel.dependencies).filter(([n]) => !shared.has(n)));
writeFileSync(
  join(pkgDir, 'package.json'),
  JSON.stringify(
    {
      name: sdk.name,
      version: sdk.version,
      description: sdk.description,
      type: 'module',
      license: 'UNLICENSED',
      exports: Object.fromEntries(Object.entries(sdk.exports).map(([k, v]) => [k, entry(v)])),
      dependencies: { ...kernelDeps, ...sdkDeps, ...sdk.typeDependencies },
      peerDependencies: sdk.peerDependencies,
    },
    null,
    2,
  ) + '\n',
);
cpSync(join(root, 'sdk/README.md'), join(pkgDir, 'README.md'));
cpSync(join(root, 'sdk/CHANGELOG.md'), join(pkgDir, 'CHANGELOG.md'));

if (process.argv.includes('--pack')) {
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: pkgDir, encoding: 'utf8' }).trim();
  console.log(join(out, name.split('\n').pop()));
} else {
  console.log(`Built ${relative(root, pkgDir)}`);
}
