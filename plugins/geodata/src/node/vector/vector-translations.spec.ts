import assert from 'node:assert/strict';
import { describeReasons } from '../failure-test-reasons';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { failure } from './vector-params';
import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { VectorFunctions } from './vector-functions';

describeReasons('geodata-vector', failure, en, de);

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
