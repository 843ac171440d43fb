import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { symlinkSync } from 'node:fs';
import { selectPlugins } from '../common/plugin';
import { discoverPlugins, pluginListFromEnv } from './plugin-discovery';

describe('discoverPlugins', () => {
  let root: string;

  const writePackage = (dir: string, pkg: object) => {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify(pkg, null, 2));
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'werkbank-discovery-'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'workspace', private: true, workspaces: ['plugins/*'] }));
    writePackage('plugins/maps', {
      name: '@acme/werkbank-maps',
      version: '1.2.0',
      description: 'Map layers',
      werkbank: { id: 'maps', requires: ['core'], components: ['magazine'], browser: 'src/browser/index.ts' },
    });
    writePackage('plugins/core', {
      name: '@acme/werkbank-core',
      version: '0.1.0',
      description: 'The core',
      werkbank: { id: 'core', node: 'src/node/index.ts' },
    });
    writePackage('plugins/shared-utils', { name: '@acme/shared-utils', version: '3.0.0' });
    mkdirSync(join(root, 'plugins', 'no-package'));
    writeFileSync(join(root, 'plugins', 'README.md'), 'not a package');
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('finds exactly the workspace packages with a werkbank entry, with their manifests and folders', () => {
    const found = discoverPlugins(root);
    assert.deepEqual(found, [
      {
        dir: join(root, 'plugins', 'core'),
        manifest: {
          id: 'core',
          node: 'src/node/index.ts',
          packageName: '@acme/werkbank-core',
          version: '0.1.0',
          description: 'The core',
        },
        source: 'workspace',
      },
      {
        dir: join(root, 'plugins', 'maps'),
        manifest: {
          id: 'maps',
          requires: ['core'],
          components: ['magazine'],
          browser: 'src/browser/index.ts',
          packageName: '@acme/werkbank-maps',
          version: '1.2.0',
          description: 'Map layers',
        },
        source: 'workspace',
      },
    ]);
  });
});

describe('discoverPlugins outside the workspace', () => {
  let root: string;
  let outside: string;
  const write = (dir: string, pkg: object) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  };
  const plugin = (name: string, werkbank: object, extra: object = {}) => ({ name, version: '1.0.0', werkbank, ...extra });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'werkbank-host-'));
    outside = mkdtempSync(join(tmpdir(), 'werkbank-plugins-'));
    write(root, { name: 'host', private: true, workspaces: ['plugins/*'] });
    write(join(root, 'plugins', 'core'), plugin('@host/core', { id: 'core' }));
    // npm links workspace packages into node_modules: found once, as a workspace package.
    mkdirSync(join(root, 'node_modules', '@host'), { recursive: true });
    symlinkSync(join(root, 'plugins', 'core'), join(root, 'node_modules', '@host', 'core'));
    write(
      join(root, 'node_modules', '@acme', 'werkbank-maps'),
      plugin('@acme/werkbank-maps', { id: 'maps', requires: ['core'] }),
    );
    write(join(root, 'node_modules', 'left-pad'), { name: 'left-pad', version: '1.3.0' });
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('finds npm packages with a werkbank entry in node_modules, and workspace links once', () => {
    const found = discoverPlugins(root).map((p) => [p.manifest.id, p.source]);
    assert.deepEqual(found, [
      ['core', 'workspace'],
      ['maps', 'package'],
    ]);
  });

  it('finds plugins in WERKBANK_PLUGIN_DIRS folders: a package itself, a folder of packages, or its node_modules', () => {
    write(join(outside, 'single'), plugin('single', { id: 'single' }));
    write(join(outside, 'many', 'a'), plugin('a', { id: 'alpha' }));
    write(join(outside, 'many', 'node_modules', '@x', 'b'), plugin('@x/b', { id: 'beta' }));
    const found = discoverPlugins(root, { pluginDirs: [join(outside, 'single'), join(outside, 'many')] });
    assert.deepEqual(
      found.filter((p) => p.source === 'folder').map((p) => p.manifest.id),
      ['single', 'alpha', 'beta'],
    );
  });

  it('refuses a manifest that does not match the schema, naming the package and the field', () => {
    write(join(outside, 'bad'), plugin('@acme/bad', { id: 'Bad_Id' }));
    assert.throws(
      () => discoverPlugins(root, { pluginDirs: [join(outside, 'bad')] }),
      /@acme\/bad .*invalid manifest: werkbank\.id/,
    );
    write(join(outside, 'bad'), plugin('@acme/bad', { id: 'bad', title: { de: 'Nur Deutsch' } }));
    assert.throws(
      () => discoverPlugins(root, { pluginDirs: [join(outside, 'bad')] }),
      /werkbank\.title must have required property 'en'/,
    );
    write(join(outside, 'bad'), plugin('@acme/bad', { id: 'bad', node: '../../etc/x.js' }));
    assert.throws(() => discoverPlugins(root, { pluginDirs: [join(outside, 'bad')] }), /werkbank\.node/);
    write(join(outside, 'bad'), plugin('@acme/bad', { id: 'bad', colour: 'red' }));
    assert.throws(() => discoverPlugins(root, { pluginDirs: [join(outside, 'bad')] }), /must NOT have additional properties/);
  });

  it('refuses a plugin built for another SDK version than the Werkbank provides', () => {
    write(join(outside, 'old'), plugin('@acme/old', { id: 'old' }, { peerDependencies: { '@werkbank/sdk': '^2.0.0' } }));
    assert.throws(
      () => discoverPlugins(root, { pluginDirs: [join(outside, 'old')], sdkVersion: '0.1.0' }),
      /@acme\/old .*needs @werkbank\/sdk \^2\.0\.0, but this Werkbank provides 0\.1\.0/,
    );
    write(join(outside, 'old'), plugin('@acme/old', { id: 'old' }, { peerDependencies: { '@werkbank/sdk': '^0.1.0' } }));
    assert.equal(discoverPlugins(root, { pluginDirs: [join(outside, 'old')], sdkVersion: '0.1.0' }).length, 3);
  });

  it('leaves example plugins out unless they are named or asked for', () => {
    write(join(outside, 'hello'), plugin('hello', { id: 'hello', example: true }));
    const found = discoverPlugins(root, { pluginDirs: [join(outside, 'hello')] });
    assert.deepEqual(
      selectPlugins(found).map((p) => p.manifest.id),
      ['core', 'maps'],
    );
    assert.deepEqual(
      selectPlugins(found, undefined, { examples: true }).map((p) => p.manifest.id),
      ['core', 'maps', 'hello'],
    );
    assert.deepEqual(
      selectPlugins(found, ['hello']).map((p) => p.manifest.id),
      ['hello'],
    );
  });
});

describe('pluginListFromEnv', () => {
  it('reads comma-separated plugin ids, ignoring blanks', () => {
    assert.deepEqual(pluginListFromEnv(' core, maps ,,tags '), ['core', 'maps', 'tags']);
  });

  it('means all plugins (undefined) when unset or empty', () => {
    assert.equal(pluginListFromEnv(undefined), undefined);
    assert.equal(pluginListFromEnv(' , '), undefined);
  });
});
