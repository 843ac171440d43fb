import type { FrameItems, FunctionDescriptor, UrlFetcher } from '@werkbank/sdk/node';
import { append, named, part } from '../source-items';
import { datasetsOf, restSettings } from './live-settings';
import { fetchRestJson } from './rest-client';
import { restFeatures } from './rest-features';

/** The id of the REST import; the live watcher looks for nodes of it. */
export const REST_IMPORT = 'rest.import';

/**
 * `rest.import` (issue 6, spec 002 §3 "REST service"): objects of a JSON answer as point features,
 * chosen with JsonPath (jsonpath-plus without script evaluation). A switchboard marked automatic
 * that holds it runs again when the answer changes (polled every update_interval seconds).
 */
export function restImport(net: () => UrlFetcher): FunctionDescriptor {
  return {
    id: REST_IMPORT,
    version: '1',
    verbose_name: { de: 'REST-Dienst (JSON) importieren', en: 'Import REST service (JSON)' },
    doc: {
      de:
        'Liest die JSON-Antwort einer Adresse (GET) und macht aus ausgewählten Objekten Punkt-Features in WGS 84. ' +
        'Eingang dataset: ein Live-Datensatz rest-livedataset mit origin (http- oder https-Adresse), jp_obj_root (JsonPath der Objekte, ' +
        'Standard $[*]), jp_lat und jp_lon (JsonPath von Breite und Länge in jedem Objekt, z. B. $.lat oder $.position.coordinates[1]), ' +
        'properties (JsonPath der Eigenschaften, die bleiben, z. B. $.name; der letzte Name im Pfad wird der Eigenschaftsname; ohne Angabe ' +
        'bleiben alle Mitglieder eines Objekts) und update_interval (Sekunden zwischen zwei Abfragen bei automatischer Ausführung, Standard 60). ' +
        'JsonPath-Ausdrücke mit Skripten oder Filtern ((…) oder ?(…)) werden abgelehnt. Höchstens 64 MiB und 2 Minuten je Abfrage, ' +
        '200.000 Objekte. Fehler nennen Zeile und Spalte von fehlerhaftem JSON und die Nummer (ab 0) eines fehlerhaften Objekts. ' +
        'Ist das Schaltpult auf automatische Ausführung gestellt, läuft es von selbst erneut, sobald sich die Antwort ändert.',
      en:
        'Reads the JSON answer of an address (GET) and turns chosen objects into point features in WGS 84. ' +
        'Input dataset: a rest-livedataset with origin (an http or https address), jp_obj_root (JsonPath of the objects, default $[*]), ' +
        'jp_lat and jp_lon (JsonPath of latitude and longitude within each object, e.g. $.lat or $.position.coordinates[1]), ' +
        'properties (JsonPath of the properties to keep, e.g. $.name; the last name of the path becomes the property name; when empty, ' +
        'every member of an object is kept) and update_interval (seconds between two requests when run automatically, default 60). ' +
        'JsonPath expressions with scripts or filters ((…) or ?(…)) are refused. At most 64 MiB and 2 minutes per request, ' +
        '200,000 objects. Errors name the line and column of broken JSON and the number (from 0) of a broken object. ' +
        'When the switchboard runs automatically, it runs again by itself as soon as the answer changes.',
    },
    inputs: [{ name: 'dataset', content_type: 'rest-livedataset' }],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const datasets = datasetsOf(inputs).map((d) => ({ name: d.name, settings: restSettings(d.fields, d.name) }));
      const features: FrameItems = [];
      for (const [i, { name, settings }] of datasets.entries()) {
        ctx.signal.throwIfAborted();
        const read = async () =>
          restFeatures(await fetchRestJson(net(), settings.origin, ctx.signal), settings, part(ctx, i, datasets.length));
        const made = await named(read(), name);
        ctx.log(`${settings.origin}: ${made.length} features`);
        append(features, made);
        ctx.progress((i + 1) / datasets.length);
      }
      return { features };
    },
  };
}
