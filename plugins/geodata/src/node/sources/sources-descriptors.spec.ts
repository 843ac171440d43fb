import assert from 'node:assert/strict';
import { createI18n, Registry, type FunctionDescriptor, type TranslationBundle } from '@werkbank/sdk/node';
import { SourcesFunctions, sourcesTranslations } from './sources-functions';
import { GeodataServices } from '../geodata-services';

/** The sources functions as the function browser and saved switchboards see them, and their reasons' texts. */
describe('geodata sources: function descriptors and texts', () => {
  // Built in a hook, not while the file loads, so that mutation testing credits the descriptors to these tests.
  let functions: Registry<FunctionDescriptor>;
  let bundles: Registry<TranslationBundle>;
  before(() => {
    functions = new Registry<FunctionDescriptor>('function');
    const services = { config: { fileImportRoots: [] } } as unknown as GeodataServices;
    Object.assign(new SourcesFunctions(), { services }).registerFunctions(functions);
    bundles = new Registry<TranslationBundle>('translation');
    sourcesTranslations.registerTranslations(bundles);
  });

  it('offers file.download and file.import with the ports and versions saved switchboards link to', () => {
    const table = functions.all().map((f) => ({
      id: f.id,
      version: f.version,
      superuser: f.superuser_required ?? false,
      inputs: f.inputs.map((p) => `${p.name}:${p.content_type}`),
      outputs: f.outputs.map((p) => `${p.name}:${p.content_type}`),
    }));
    assert.deepEqual(table, [
      { id: 'file.download', version: '2', superuser: false, inputs: ['url:string'], outputs: ['file:file'] },
      { id: 'file.import', version: '1', superuser: true, inputs: ['path:string'], outputs: ['file:file'] },
    ]);
  });

  it('names and describes each function in German and English, with the settings an administrator changes', () => {
    const [download, fileImport] = functions.all();
    assert.deepEqual(download.verbose_name, { de: 'Datei herunterladen', en: 'Download file' });
    assert.deepEqual(fileImport.verbose_name, { de: 'Lokale Datei importieren', en: 'Import local file' });
    const docs = (f: FunctionDescriptor) => f.doc as { de: string; en: string };
    for (const [f, words] of [
      [download, ['url', 'Content-Disposition', 'UPLOAD_MAX_BYTES', 'FETCH_ALLOWED_HOSTS', '5']],
      [fileImport, ['path', '1000', 'FILE_IMPORT_ROOTS']],
    ] as const)
      for (const lang of ['de', 'en'] as const)
        for (const word of words) assert.ok(docs(f)[lang].includes(word), `${f.id} ${lang}: ${word}`);
    // Whole sentences in each language, each part of them there.
    assert.match(
      docs(download).de,
      /^Lädt die Datei .* – zum Weiterverarbeiten .*Adresse\. Höchstens .*Server.* freigibt \(FETCH_ALLOWED_HOSTS\)\.$/,
    );
    assert.match(
      docs(download).en,
      /^Downloads the file .* – to be read .*address\. At most .*allows them \(FETCH_ALLOWED_HOSTS\)\.$/,
    );
    assert.match(
      docs(fileImport).de,
      /^Liest Dateien .*höchstens 1000\)\. Nur für Superuser.*ersten dieser Ordner\. Symbolische .*hinausführen\.$/,
    );
    assert.match(
      docs(fileImport).en,
      /^Reads files .*at most 1000\)\. Superusers only.*first of them\. Symbolic .*these folders\.$/,
    );
  });

  it('gives every reason the functions fail with in German and English, with its details', () => {
    const i18n = createI18n(bundles.all());
    const text = (lang: 'de' | 'en', key: string, params: Record<string, unknown>) =>
      i18n.getFixedT(lang, 'geodata-sources')(`errors.${key}`, params);
    assert.equal(
      text('en', 'url_missing', { item: 'url[1]' }),
      "Item url[1] of 'url' holds no address. Give an http or https address as text.",
    );
    assert.match(text('de', 'url_missing', { item: 'url[1]' }), /url\[1\]/);
    assert.equal(
      text('en', 'too_many_files', { path: 'viele', count: 1001, limit: 1000 }),
      'The folder viele holds 1001 files, more than the 1000 one import takes. Name a smaller folder or single files.',
    );
    assert.match(text('de', 'path_outside_roots', { path: '/etc' }), /\/etc.*FILE_IMPORT_ROOTS/);
  });
});
