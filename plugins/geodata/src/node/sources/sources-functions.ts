import {
  inject,
  injectable,
  type FrameItems,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { downloadName, sourcesFailure } from './download-text';
import { fileImport } from './local-import';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { GeodataServices } from '../geodata-services';

/** The reasons sources functions fail with (`geodata-sources:errors.*`), in German and English. */
export const sourcesTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'geodata.sources-translations', namespace: 'geodata-sources', de, en }),
};

/**
 * The sources functions of the geodata library (issue 6, spec 001 §7): downloading what a URL
 * names, as a file datum, through the server's UrlFetcher (GeodataServices.net), which refuses the server's own
 * networks unless the administrator allows them (FETCH_ALLOW_PRIVATE, FETCH_ALLOWED_HOSTS).
 */
@injectable()
export class SourcesFunctions implements FunctionContribution {
  @inject(GeodataServices) protected readonly services!: GeodataServices;

  /**
   * Downloads, one file datum per URL: the body streams into the server's blob store (nothing is
   * held in memory), the file is named after the response (downloadName) and typed by its bytes.
   */
  readonly download: FunctionDescriptor = {
    id: 'file.download',
    version: '2',
    verbose_name: { de: 'Datei herunterladen', en: 'Download file' },
    doc: {
      de:
        'Lädt die Datei unter jeder Adresse in url (http oder https) herunter und gibt sie als Datei aus, eine Datei je Adresse – ' +
        'zum Weiterverarbeiten mit einem Import (CSV, GeoJSON, Shapefile, GeoPackage, KML, GML …) oder zum Herunterladen aus dem Rahmen. ' +
        'Der Dateiname kommt aus der Antwort (Content-Disposition) oder der Adresse. Höchstens so groß wie ein Upload (UPLOAD_MAX_BYTES), ' +
        '5 Weiterleitungen und 5 Minuten je Datei. Adressen im lokalen oder privaten Netz des Servers werden abgelehnt, ' +
        'solange ein Administrator sie nicht freigibt (FETCH_ALLOWED_HOSTS).',
      en:
        'Downloads the file at each address in url (http or https) and outputs it as a file, one file per address – ' +
        'to be read by an import (CSV, GeoJSON, Shapefile, GeoPackage, KML, GML …) or downloaded from the frame. ' +
        'The file name comes from the response (Content-Disposition) or the address. At most as large as an upload (UPLOAD_MAX_BYTES), ' +
        "5 redirects and 5 minutes per file. Addresses in the server's local or private network are refused unless an administrator " +
        'allows them (FETCH_ALLOWED_HOSTS).',
    },
    inputs: [{ name: 'url', content_type: 'string' }],
    outputs: [{ name: 'file', content_type: 'file' }],
    run: async (inputs, ctx) => {
      const urls = (inputs.url ?? []) as FrameItems;
      const file: FrameItems = [];
      for (const [i, item] of urls.entries()) {
        ctx.signal.throwIfAborted();
        const url = typeof item.value === 'string' ? item.value.trim() : '';
        if (!url) throw sourcesFailure('url_missing', { item: `url[${i}]` });
        const res = await this.services.net.fetch(url, { signal: ctx.signal });
        const datum = await ctx.storeFile(res.body, { name: downloadName(res.headers['content-disposition'], res.url) });
        ctx.log(`downloaded ${String(datum.size)} bytes from ${res.url} as ${String(datum.value)}`);
        file.push(datum);
        ctx.progress((i + 1) / urls.length);
      }
      return { file };
    },
  };

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    registry.add(this.download);
    registry.add(fileImport(this.services));
  }
}
