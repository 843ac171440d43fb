import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { VectorFunctions } from './vector-functions';

const here = dirname(fileURLToPath(import.meta.url));

describe('vector translations', () => {
  it('has a German and an English message for every failure the vector functions raise', () => {
    const codes = new Set<string>();
    for (const file of readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      for (const m of readFileSync(join(here, file), 'utf8').matchAll(/failure\('([a-z_]+)'/g)) codes.add(m[1]);
    }
    assert.ok(codes.size > 10);
    for (const code of codes) {
      assert.ok(code in en.errors, `en: ${code}`);
      assert.ok(code in de.errors, `de: ${code}`);
    }
    assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
  });

  it('uses the same placeholders in both languages', () => {
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [code, text] of Object.entries(en.errors)) {
      assert.deepEqual(holes((de.errors as Record<string, string>)[code]), holes(text), code);
    }
  });
});

describe('vector function descriptors', () => {
  it('give every function a German and English name and doc, and the settings of spec 001 §3.4 to the file imports', () => {
    const files = { open: async () => Promise.reject(new Error('unused')) };
    const registered: FunctionDescriptor[] = [];
    const contribution = Object.assign(new VectorFunctions(), { files });
    contribution.registerFunctions({ add: (fn: FunctionDescriptor) => (registered.push(fn), { dispose: () => undefined }) });
    assert.deepEqual(
      registered.map((fn) => fn.id),
      ['geojson.import', 'geojson.export', 'shapefile.import', 'kml.import', 'geopackage.import', 'geopackage.export'],
    );
    for (const fn of registered) {
      for (const lang of ['de', 'en']) assert.ok(fn.verbose_name[lang] && fn.doc[lang].length > 100, `${fn.id} ${lang}`);
    }
    const ports = (id: string) => registered.find((fn) => fn.id === id)!.inputs.map((p) => p.name);
    assert.deepEqual(ports('shapefile.import'), ['file', 'encoding', 'layer', 'ignore_missing_layer', 'auto_transform', 'crs']);
    assert.deepEqual(ports('kml.import'), ['file', 'encoding', 'layer', 'ignore_missing_layer', 'auto_transform', 'crs']);
    assert.deepEqual(ports('geopackage.import'), ['file', 'layer', 'ignore_missing_layer', 'auto_transform', 'crs']);
    assert.deepEqual(
      registered.find((fn) => fn.id === 'geopackage.export')!.outputs.map((p) => [p.name, p.content_type]),
      [['file', 'file']],
    );
  });
});
