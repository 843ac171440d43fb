import {
  inject,
  injectable,
  ServerServices,
  type FrameItems,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { decodeText, sourcesFailure } from './download-text';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

/** Largest text file.download reads: the text becomes one datum stored in the frame's content. */
export const DOWNLOAD_TEXT_MAX_BYTES = 64 * 1024 * 1024;

/** The reasons sources functions fail with (`geodata-sources:errors.*`), in German and English. */
export const sourcesTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'geodata.sources-translations', namespace: 'geodata-sources', de, en }),
};

/**
 * The sources functions of the geodata library (issue 6, spec 001 §7): downloading what a URL
 * names through the server's UrlFetcher (ServerServices.net), which refuses the server's own
 * networks unless the administrator allows them (FETCH_ALLOW_PRIVATE, FETCH_ALLOWED_HOSTS).
 */
@injectable()
export class SourcesFunctions implements FunctionContribution {
  @inject(ServerServices) protected readonly services!: ServerServices;

  /**
   * Text downloads, one string datum per URL. The output is text, not a `file` datum: a file
   * datum is downloadable only through a frame file record (decision 0018) that the engine does
   * not write for function outputs yet.
   */
  readonly download: FunctionDescriptor = {
    id: 'file.download',
    version: '1',
    verbose_name: { de: 'Datei herunterladen', en: 'Download file' },
    doc: {
      de:
        'Lädt die Textdatei unter jeder Adresse in url (http oder https) herunter und gibt ihren Inhalt als Text aus, einen Text je Adresse, z. B. für CSV, GeoJSON, GML oder XML. ' +
        'Der Zeichensatz kommt aus dem Content-Type der Antwort (sonst UTF-8). Höchstens 64 MiB je Datei, 5 Weiterleitungen und 5 Minuten. ' +
        'Adressen im lokalen oder privaten Netz des Servers werden abgelehnt, solange ein Administrator sie nicht freigibt (FETCH_ALLOWED_HOSTS).',
      en:
        'Downloads the text file at each address in url (http or https) and outputs its content as text, one text per address, e.g. for CSV, GeoJSON, GML or XML. ' +
        "The character set comes from the response's Content-Type (else UTF-8). At most 64 MiB per file, 5 redirects and 5 minutes. " +
        "Addresses in the server's local or private network are refused unless an administrator allows them (FETCH_ALLOWED_HOSTS).",
    },
    inputs: [{ name: 'url', content_type: 'string' }],
    outputs: [{ name: 'text', content_type: 'string' }],
    run: async (inputs, ctx) => {
      const urls = (inputs.url ?? []) as FrameItems;
      const text: FrameItems = [];
      for (const [i, item] of urls.entries()) {
        ctx.signal.throwIfAborted();
        const url = typeof item.value === 'string' ? item.value.trim() : '';
        if (!url) throw sourcesFailure('url_missing', { item: `url[${i}]` });
        const res = await this.services.net.fetch(url, { signal: ctx.signal, maxBytes: DOWNLOAD_TEXT_MAX_BYTES });
        const bytes = await res.buffer();
        const contentType = res.headers['content-type'];
        text.push({ value: decodeText(bytes, typeof contentType === 'string' ? contentType : undefined, res.url) });
        ctx.log(`downloaded ${bytes.length} bytes from ${res.url}`);
        ctx.progress((i + 1) / urls.length);
      }
      return { text };
    },
  };

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    registry.add(this.download);
  }
}
