import type { FrameItems, FunctionDescriptor, FunctionRunContext, UrlFetcher } from '@werkbank/sdk/node';
import { append, named, part } from '../source-items';
import { datasetsOf, staSettings, type StaSettings } from './live-settings';
import { eachThingsPage } from './sta-client';
import { thingFeatures } from './sta-features';
import { yieldToLoop } from '../vector/vector-params';

/** The id of the SensorThings import; the live watcher looks for nodes of it. */
export const STA_IMPORT = 'sensorthings.import';

/** The features of one SensorThings dataset, page by page (progress from `@iot.count` when sent). */
async function importDataset(net: UrlFetcher, s: StaSettings, ctx: FunctionRunContext): Promise<FrameItems> {
  const features: FrameItems = [];
  let skipped = 0;
  const read = await eachThingsPage(net, s, 'features', ctx, async (page, readSoFar) => {
    for (const thing of page.things) {
      const made = thingFeatures(thing, features.length);
      append(features, made.features);
      if (made.skipped) skipped++;
    }
    if (page.count) ctx.progress(Math.min(0.99, readSoFar / page.count));
    await yieldToLoop(ctx);
  });
  ctx.log(
    `${s.origin}: ${read} things, ${features.length} features${skipped ? `, ${skipped} things without a GeoJSON location` : ''}`,
  );
  return features;
}

/**
 * `sensorthings.import` (issue 6, spec 002 §3 "Live dataset settings"): the Things of OGC
 * SensorThings API v1.1 services as features, through the server's guarded fetcher. A switchboard
 * marked automatic that holds it runs again when the service's MQTT broker announces an
 * observation (LiveDatasetWatcher).
 */
export function sensorthingsImport(net: () => UrlFetcher): FunctionDescriptor {
  return {
    id: STA_IMPORT,
    version: '1',
    verbose_name: { de: 'SensorThings-Dienst importieren', en: 'Import SensorThings service' },
    doc: {
      de:
        'Liest die Things eines OGC-SensorThings-API-Dienstes (Version v1.1) als Features: je Ort (Location) eines Things ein Feature ' +
        'mit dessen Geometrie (GeoJSON), den Eigenschaften des Things (properties, thing_id, name, description, location_name) und je ' +
        'Datastream dem Ergebnis der neuesten Beobachtung (Eigenschaft mit dem Namen des Datastreams, dazu <Name>_time und <Name>_unit). ' +
        'Eingang dataset: ein Live-Datensatz sta-livedataset mit origin (Adresse des Dienstes, z. B. https://example.org/FROST-Server; eine angehängte Version wie /v1.1 gilt als sta_version), ' +
        "sta_version (die API-Version, nur v1.1), thing_filter und datastream_filter (OData-$filter, z. B. name eq 'Pegel'), mqtt_uri (MQTT-Broker des Dienstes, " +
        'z. B. mqtt://example.org:1883) und batch_size (Things je Abfrage, Standard 100). Seiten werden über @iot.nextLink nachgeladen, höchstens ' +
        '100.000 Things, je Seite 32 MiB und 60 Sekunden. Ist das Schaltpult auf automatische Ausführung gestellt und mqtt_uri gesetzt, ' +
        'läuft es von selbst erneut, sobald der Broker eine neue Beobachtung eines der Datastreams meldet.',
      en:
        'Reads the Things of an OGC SensorThings API service (version v1.1) as features: one feature per Location of a Thing with its ' +
        "geometry (GeoJSON), the Thing's properties (properties, thing_id, name, description, location_name) and per Datastream the result " +
        'of its latest Observation (a property named after the Datastream, with <name>_time and <name>_unit). ' +
        'Input dataset: an sta-livedataset with origin (the service address, e.g. https://example.org/FROST-Server; a version at its end such as /v1.1 counts as sta_version), ' +
        "sta_version (the API version, only v1.1), thing_filter and datastream_filter (OData $filter, e.g. name eq 'Gauge'), mqtt_uri (the service's MQTT broker, " +
        'e.g. mqtt://example.org:1883) and batch_size (Things per request, default 100). Pages are followed through @iot.nextLink, at most ' +
        '100,000 Things, 32 MiB and 60 seconds per page. When the switchboard runs automatically and mqtt_uri is set, it runs again by ' +
        'itself as soon as the broker announces a new Observation of one of the Datastreams.',
    },
    inputs: [{ name: 'dataset', content_type: 'sta-livedataset' }],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const datasets = datasetsOf(inputs).map((d) => ({ name: d.name, settings: staSettings(d.fields, d.name) }));
      const features: FrameItems = [];
      for (const [i, { name, settings }] of datasets.entries()) {
        const sub = part(ctx, i, datasets.length);
        append(features, await named(importDataset(net(), settings, sub), name));
      }
      ctx.progress(1);
      return { features };
    },
  };
}
