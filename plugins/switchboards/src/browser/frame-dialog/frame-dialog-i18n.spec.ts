import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

type Messages = { [k: string]: string | Messages };

/** True when `key` is a text, or a plural pair `key_one` / `key_other` (i18next). */
function present(messages: Messages, key: string): boolean {
  const parts = key.split('.');
  const leaf = parts.pop()!;
  const parent = parts.reduce<string | Messages | undefined>((n, p) => (typeof n === 'object' ? n[p] : undefined), messages);
  if (typeof parent !== 'object') return false;
  return typeof parent[leaf] === 'string' || (`${leaf}_one` in parent && `${leaf}_other` in parent);
}

/** Every key of a message tree, plural pairs as their base key. */
function keysOf(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k.replace(/_(one|other)$/, '')}`] : keysOf(v, `${prefix}${k}.`),
  );
}

/** Keys built at run time; every value they can take. */
const DYNAMIC = [
  ...['single', 'cards', 'table', 'upload', 'settings'].map((t) => `tab.${t}`),
  ...['queued', 'uploading', 'success', 'failed'].map((s) => `upload.status_${s}`),
  ...['number', 'int', 'colour', 'datetime', 'empty'].map((r) => `table.rejected_${r}`),
  ...['materialized', 'redis', 'on_demand_deferred', 'lazy'].map((k) => `settings.storage_${k}`),
  ...['geometry', 'file_name', 'mime', 'size', 'download', 'colour', 'value'].map((c) => `table.column.${c}`),
  'upload.too_large',
  'upload.network',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.includes('.spec.') && !name.includes('test-kit') ? [path] : [];
  });
}

describe('frame dialog texts', () => {
  it('has every key the dialog uses, in German and English', () => {
    const used = new Set(DYNAMIC);
    for (const path of sources(import.meta.dirname)) {
      const source = readFileSync(path, 'utf8');
      for (const m of source.matchAll(/\bt\(([^()]*?)[,)]/g)) {
        for (const k of m[1].matchAll(/'([\w-]+(?:\.[\w-]+)*)'/g)) used.add(k[1]);
      }
    }
    const missing = [...used].filter((k) => !present(en as Messages, k) || !present(de as Messages, k));
    assert.deepEqual(missing, []);
    assert.ok(used.size > 60, `found the keys in use (${used.size})`);
  });

  it('has the same keys in both languages', () => {
    assert.deepEqual(keysOf(de as Messages).sort(), keysOf(en as Messages).sort());
  });

  it('uses the spec’s texts for the table messages', () => {
    assert.equal(en.table.not_table, 'Unfortunately, this data type cannot be displayed in a table.');
    assert.match(de.table.save_failed, /^Fehler beim Speichern/);
    assert.match(en.table.save_failed, /^Error while saving/);
  });
});
