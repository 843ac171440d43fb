import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingTexts, textKeys, usedTextKeys } from './text-keys';

describe('text key checks of plugin specs', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'text-keys-'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(
      join(dir, 'screen.tsx'),
      "t('list.title'); t(open ? 'menu.close' : 'menu.open', { n: f(1) }); t('core:common.save');",
    );
    writeFileSync(join(dir, 'screen.spec.tsx'), "t('spec.only');");
    writeFileSync(join(dir, 'sub', 'tab.tsx'), "t('tab.name');");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the keys of t() calls in the sources, not in specs or other namespaces; sub-folders on request', () => {
    assert.deepEqual(usedTextKeys(dir).sort(), ['list.title', 'menu.close', 'menu.open']);
    assert.ok(usedTextKeys(dir, { recursive: true }).includes('tab.name'));
  });

  it('names the keys a language lacks, taking a plural pair as the key', () => {
    const en = { list: { title: 'Depots', count_one: 'one', count_other: 'many' } };
    const de = { list: { title: 'Depots' } };
    assert.deepEqual(missingTexts(['list.title', 'list.count'], en, de), ['list.count']);
    assert.deepEqual(textKeys(en), ['list.title', 'list.count_one', 'list.count_other']);
  });
});
