import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      },
    ]);
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
