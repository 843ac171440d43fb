import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { launchChromium, login } from './browser';

const ROOT = resolve(import.meta.dirname, '../..');
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Unpacks an npm tarball (its `package/` folder) into `dir`. */
function unpack(tarball: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], ROOT);
}

/**
 * A plugin from outside the repository (decision 0024), the way a third party ships one: the
 * example plugin is packed with `npm pack`, compiled in a project of its own against the packed,
 * built SDK, installed with `npm install` into a plugin folder outside the Werkbank
 * (WERKBANK_PLUGIN_DIRS), bundled by `npm run build` and run by a Werkbank whose own plugins are
 * npm packages in its node_modules — no workspace lists it.
 */
describe('a plugin packed with npm pack and installed into a Werkbank', function () {
  this.timeout(600_000);
  let scratch: string;
  /** Outside this repository, so nothing resolves by walking up into its node_modules. */
  let outside: string;
  let werkbank: string;
  let pluginDir: string;
  let t: TestServer | undefined;
  let browser: Browser | undefined;

  before(() => {
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    scratch = mkdtempSync(join(ROOT, '.tmp', 'packed-'));
    const packs = join(scratch, 'packs');
    mkdirSync(packs);
    run('npm', ['pack', '--silent', '--pack-destination', packs], join(ROOT, 'examples/hello'));
    run(process.execPath, [join(ROOT, 'scripts/build-sdk.mjs'), '--pack'], ROOT);
    const helloTarball = join(
      packs,
      readdirSync(packs).find((f) => f.endsWith('.tgz'))!,
    );

    // A Werkbank installation: its plugins are npm packages in node_modules (linked to this repository's).
    outside = mkdtempSync(join(tmpdir(), 'werkbank-packed-'));
    werkbank = join(outside, 'werkbank');
    mkdirSync(join(werkbank, 'node_modules', '@werkbank'), { recursive: true });
    writeFileSync(join(werkbank, 'package.json'), JSON.stringify({ name: 'scratch-werkbank', private: true }));
    for (const name of readdirSync(join(ROOT, 'plugins')))
      symlinkSync(join(ROOT, 'plugins', name), join(werkbank, 'node_modules', '@werkbank', `plugin-${name}`));

    // The plugin installed from its tarball into a folder of its own.
    pluginDir = join(outside, 'plugins');
    mkdirSync(pluginDir);
    writeFileSync(join(pluginDir, 'package.json'), JSON.stringify({ name: 'werkbank-plugins', private: true }));
    run(
      'npm',
      ['install', '--offline', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', helloTarball],
      pluginDir,
    );
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    for (const dir of [scratch, outside]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('compiles in a project of its own against the built SDK, without the Werkbank’s sources', () => {
    const project = join(scratch, 'author');
    unpack(
      join(
        scratch,
        'packs',
        readdirSync(join(scratch, 'packs')).find((f) => f.endsWith('.tgz'))!,
      ),
      project,
    );
    unpack(join(ROOT, 'sdk/dist/werkbank-sdk-0.1.0.tgz'), join(project, 'node_modules', '@werkbank', 'sdk'));
    // The API of a plugin it lists in `optional` (the Magazine's datum card menu), packed as well.
    const magazinePacks = join(scratch, 'packs-magazine');
    mkdirSync(magazinePacks);
    run('npm', ['pack', '--silent', '--pack-destination', magazinePacks], join(ROOT, 'plugins/magazine'));
    unpack(
      join(
        magazinePacks,
        readdirSync(magazinePacks).find((f) => f.endsWith('.tgz'))!,
      ),
      join(project, 'node_modules', '@werkbank', 'plugin-magazine'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          strict: true,
          experimentalDecorators: true,
          skipLibCheck: true,
          resolveJsonModule: true,
          noEmit: true,
          types: ['node'],
        },
        include: ['src'],
        exclude: ['src/**/*.spec.ts', 'src/**/*.spec.tsx'],
      }),
    );
    const resolved = run(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('@werkbank/sdk/node'))"],
      project,
    );
    assert.match(resolved, /author\/node_modules\/@werkbank\/sdk\/sdk\/src\/node\/index\.js/, 'the built SDK, not the sources');
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], project);
  });

  it('starts in the Werkbank, serves its resource, and its screen reaches the browser bundle', async () => {
    const installed = join(pluginDir, 'node_modules', '@werkbank', 'example-hello', 'package.json');
    assert.ok(readdirSync(join(pluginDir, 'node_modules', '@werkbank')).includes('example-hello'), `${installed} installed`);
    const dist = join(werkbank, 'dist');
    run('npm', ['run', 'build'], ROOT, { WERKBANK_ROOT: werkbank, WERKBANK_PLUGIN_DIRS: pluginDir, WERKBANK_DIST_DIR: dist });

    t = await startTestServer({
      root: werkbank,
      examples: true,
      config: { root: werkbank, pluginDirs: [pluginDir], distDir: dist },
    });
    const admin = await t.admin();
    const config = (await admin.get('/api/v2/backend/config')).body as { plugins: string[] };
    assert.ok(config.plugins.includes('hello'), 'the server runs the installed plugin');
    const created = await admin.post('/api/v1/greeting/', { name: 'Moin aus dem Paket' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const greet = await admin.get('/api/v1/function/hello.greet/');
    assert.equal(greet.status, 200, 'the installed plugin’s switchboard function is listed');

    browser = await launchChromium();
    const page = await (await browser.newContext()).newPage();
    await login(page, t.url, 'admin', t.adminPassword);
    await page.goto(`${t.url}/hello/`);
    await page.getByText('Moin aus dem Paket').waitFor();
    await page.getByTestId('new-greeting').click();
    await page.fill('#greeting-name', 'Grüße aus dem Browser');
    await page.getByTestId('greeting-save').click();
    await page.getByText('Grüße aus dem Browser').waitFor();
    const list = (await admin.get('/api/v1/greeting/?q=Browser')).body as { objects: Array<{ name: string }> };
    assert.deepEqual(
      list.objects.map((g) => g.name),
      ['Grüße aus dem Browser'],
    );
  });
});
