import assert from 'node:assert/strict';
import { createI18n, Registry, type FunctionDescriptor, type PortDescriptor, type TranslationBundle } from '@werkbank/sdk/node';
import type { FileAccess } from '@werkbank/plugin-switchboards/api';
import { BATCH } from './file-batches';
import { depotImportFile } from './depot-import';
import { depotImportTranslations } from './depot-import-functions';
import { formatOf, type DepotImportSettings } from './import-settings';

/** `name:type`, `?` when optional, `=…` its default. */
const port = (p: PortDescriptor) =>
  `${p.name}:${p.content_type}${p.is_optional ? '?' : ''}` + (p.default_value ? `=${JSON.stringify(p.default_value.value)}` : '');

/** depot.import_file as the function browser and saved switchboards see it, and its reasons' texts. */
describe('geodata depot import: the function descriptor and texts', () => {
  // Built in a hook, not while the file loads, so that mutation testing credits the descriptor to these tests.
  let fn: FunctionDescriptor;
  let bundles: Registry<TranslationBundle>;
  before(() => {
    fn = depotImportFile({} as FileAccess, undefined);
    bundles = new Registry<TranslationBundle>('translation');
    depotImportTranslations.registerTranslations(bundles);
  });

  it('has the ports saved switchboards link to: the file, the depot, its own settings and those of the CSV and feature functions', () => {
    assert.deepEqual([fn.id, fn.version], ['depot.import_file', '2']);
    assert.deepEqual(fn.inputs.map(port), [
      'file:file',
      'depot:depot',
      'format:string?',
      'mode:string?="replace"',
      'header:bool?=true',
      'encoding:string?="utf-8"',
      'names:string?',
      'sep:string?=";"',
      'skiprows:int?=0',
      'skipfooter:int?=0',
      'decimal:string?="."',
      'transposed:bool?=false',
      'x:string?="x"',
      'y:string?="y"',
      'wkt:string?',
      'auto_transform:bool?=true',
      'crs:string?',
    ]);
    assert.deepEqual(fn.outputs.map(port), ['moment:int', 'count:int']);
    assert.equal(new Set(fn.inputs.map((p) => p.name)).size, fn.inputs.length, 'each port once');
  });

  it('names and describes the function in German and English', () => {
    assert.deepEqual(fn.verbose_name, { de: 'Datei in Depot importieren', en: 'Import file into depot' });
    const doc = fn.doc as { de: string; en: string };
    assert.match(
      doc.de,
      new RegExp(
        `^Liest CSV- oder GeoJSON-Dateien .* Stapeln von ${BATCH} als einen neuen Moment .* ersetzt seinen Inhalt \\(Standard\\), append hängt an\\. ` +
          'So kommen .*Speicher mit der Dateigröße wächst; .* Alles oder nichts: .*unverändert\\. format – .*\\(header, encoding, names, sep, ' +
          'skiprows, skipfooter, decimal, transposed\\) .*WKT-Spalte wkt\\)\\. auto_transform .*EPSG:4326 .*nur crs das Bezugssystem\\. ' +
          'Ausgang moment: .*count: die Zahl der Features\\.$',
      ),
    );
    assert.match(
      doc.en,
      new RegExp(
        `^Reads CSV or GeoJSON files .* batches of ${BATCH} as one new moment .* replaces its content \\(default\\), append adds to it\\. ` +
          'This brings .*the file size; .* All or nothing: .*unchanged\\. format – .*\\(header, encoding, names, sep, skiprows, skipfooter, ' +
          'decimal, transposed\\) .*WKT column wkt\\)\\. auto_transform .*EPSG:4326 .*only crs names it\\. Output moment: .*the number of features\\.$',
      ),
    );
  });

  it('tells a file’s format by the end of its name, in any letter case, unless the setting names it', () => {
    const settings = {} as DepotImportSettings;
    for (const name of ['a.csv', 'A.TXT', 'b.tsv']) assert.equal(formatOf(settings, name), 'csv', name);
    for (const name of ['a.geojson', 'B.JSON']) assert.equal(formatOf(settings, name), 'geojson', name);
    for (const name of ['a.csv.zip', 'a.json.bak', 'daten'])
      assert.throws(() => formatOf(settings, name), { code: 'unknown_format', params: { source: name } }, name);
    assert.equal(formatOf({ format: 'geojson' } as DepotImportSettings, 'a.csv'), 'geojson');
  });

  it('gives the reasons in German and English', () => {
    const t = (lang: 'de' | 'en', key: string, params: Record<string, unknown> = {}) =>
      createI18n(bundles.all()).getFixedT(lang, 'geodata-depot-import')(`errors.${key}`, params);
    assert.equal(
      t('en', 'parameter_single', { port: 'depot', count: 2 }),
      'The input depot takes one depot, but received 2. Link exactly one depot to it.',
    );
    assert.match(t('de', 'not_a_depot', { item: 'depot[0]' }), /^Element depot\[0\] ist kein Depot/);
  });
});
