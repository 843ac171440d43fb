import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { discoverPlugins } from '@werkbank/kernel/node';
import { Kernel, missingTranslations, TranslationRegistry, type PluginEntry, type PluginModule } from '@werkbank/kernel';
import { installDom } from './browser-harness';

const ROOT = resolve(import.meta.dirname, '../..');

async function entries(side: 'browser' | 'node'): Promise<PluginEntry[]> {
  const out: PluginEntry[] = [];
  for (const p of discoverPlugins(ROOT)) {
    const file = p.manifest[side];
    const module = file
      ? ((await import(pathToFileURL(join(p.dir, file)).href)) as { default: PluginModule }).default
      : undefined;
    out.push({ manifest: p.manifest, module });
  }
  return out;
}

describe('translations', function () {
  this.timeout(30000);

  it('every browser text exists in German and English (core and every plugin)', async () => {
    installDom();
    const { TranslationContribution } = await import('@werkbank/kernel/browser');
    const { CORE_TRANSLATIONS } = await import('@werkbank/kernel/browser-host');
    const kernel = new Kernel();
    kernel.load(await entries('browser'));
    const registry = new TranslationRegistry();
    kernel.disposables.push(registry.add(CORE_TRANSLATIONS, 'core'));
    kernel.collect(TranslationContribution, registry, (c, s) => c.registerTranslations(s));
    assert.ok(registry.all().length >= 4, 'the plugins contribute translation bundles');
    assert.deepEqual(missingTranslations(registry.all()), []);
    kernel.dispose();
  });

  it('every server text exists in German and English (server and every plugin)', async () => {
    const { NodeTranslationContribution } = await import('@werkbank/sdk/node');
    const en = (await import('../../server/src/i18n/en.json', { with: { type: 'json' } })).default;
    const de = (await import('../../server/src/i18n/de.json', { with: { type: 'json' } })).default;
    const kernel = new Kernel();
    kernel.load(await entries('node'));
    const registry = new TranslationRegistry();
    kernel.disposables.push(registry.add({ id: 'server', namespace: 'server', de, en }, 'server'));
    kernel.collect(NodeTranslationContribution, registry, (c, s) => c.registerTranslations(s));
    assert.deepEqual(missingTranslations(registry.all()), []);
    kernel.dispose();
  });
});
