import { type FunctionInputs } from '@werkbank/sdk/node';
import { itemsOf } from '../vector/vector-params';
import { REST_OBJECT_ROOT, REST_UPDATE_INTERVAL, STA_BATCH_SIZE, STA_VERSION } from './live-dataset-types';
import en from './i18n/en.json' with { type: 'json' };
import { failureOf } from '../failure';

/** The reasons live datasets fail with: one per message, so that the type checker refuses a reason without one. */
export type LiveFailure = keyof typeof en.errors;

/** A failure of a live dataset function, with its reason in German and English (`geodata-live:errors.*`). */
export const liveFailure = failureOf<LiveFailure>('geodata-live');

/** What a failure is called in the server's log: its machine-readable reason, else its message. */
export function reasonOf(e: unknown): string {
  return (e as { code?: string }).code ?? (e as Error).message;
}

/** Whether `v` is a JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The settings of an `sta-livedataset` datum, defaults applied and checked. */
export interface StaSettings {
  /** The service root without a trailing slash, e.g. `https://example.org/FROST-Server`. */
  origin: string;
  version: string;
  thing_filter: string;
  datastream_filter: string;
  /** The MQTT broker of the service (mqtt: or mqtts:), '' when it offers none. */
  mqtt_uri: string;
  batch_size: number;
}

/** The settings of a `rest-livedataset` datum, defaults applied and checked. */
export interface RestSettings {
  origin: string;
  /** Seconds between two polls of the origin. */
  update_interval: number;
  jp_obj_root: string;
  jp_lat: string;
  jp_lon: string;
  /** JsonPath expressions of the properties to keep; empty keeps every member of an object. */
  properties: string[];
}

const textOf = (fields: Record<string, unknown>, name: string): string =>
  typeof fields[name] === 'string' ? (fields[name] as string).trim() : '';

/** An absolute http(s) URL without a trailing slash; `origin_invalid` naming the dataset otherwise. */
function originOf(fields: Record<string, unknown>, dataset: string): string {
  const origin = textOf(fields, 'origin');
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw liveFailure('origin_invalid', { dataset, origin: origin.slice(0, 200) });
  return url.href.replace(/\/+$/, '');
}

/** A whole number in [min, max], `fallback` when unset; `setting_invalid` otherwise. */
function countOf(fields: Record<string, unknown>, name: string, fallback: number, max: number, dataset: string): number {
  const value = fields[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max)
    throw liveFailure('setting_invalid', { dataset, setting: name, value: String(value), max });
  return value;
}

/**
 * The checked settings of a SensorThings dataset. Fails `origin_invalid`, `sta_version` for any
 * version but v1.1 (spec 002 §5; a version at the end of origin counts), `mqtt_uri_invalid` for a
 * broker address that is not mqtt(s).
 */
export function staSettings(fields: Record<string, unknown>, dataset = 'dataset[0]'): StaSettings {
  // An origin given with its version (`…/FROST-Server/v1.1`, as services show their root) names the version.
  const root = originOf(fields, dataset);
  const given = /^(.*)\/(v\d+\.\d+)$/.exec(root);
  const origin = given ? given[1] : root;
  const version = given?.[2] ?? (textOf(fields, 'sta_version') || textOf(fields, 'version') || STA_VERSION);
  if (version !== STA_VERSION) throw liveFailure('sta_version', { dataset, version, supported: STA_VERSION });
  const mqtt = textOf(fields, 'mqtt_uri');
  if (mqtt && !/^mqtts?:\/\/[^/]/i.test(mqtt)) throw liveFailure('mqtt_uri_invalid', { dataset, uri: mqtt.slice(0, 200) });
  return {
    origin,
    version,
    thing_filter: textOf(fields, 'thing_filter'),
    datastream_filter: textOf(fields, 'datastream_filter'),
    mqtt_uri: mqtt,
    batch_size: countOf(fields, 'batch_size', STA_BATCH_SIZE, 10_000, dataset),
  };
}

/** The checked settings of a REST dataset; `jsonpath_missing` when jp_lat or jp_lon is empty. */
export function restSettings(fields: Record<string, unknown>, dataset = 'dataset[0]'): RestSettings {
  const origin = originOf(fields, dataset);
  const properties = fields.properties ?? [];
  if (!Array.isArray(properties) || properties.some((p) => typeof p !== 'string'))
    throw liveFailure('setting_invalid', { dataset, setting: 'properties', value: JSON.stringify(properties).slice(0, 200) });
  const settings: RestSettings = {
    origin,
    update_interval: countOf(fields, 'update_interval', REST_UPDATE_INTERVAL, 7 * 24 * 3600, dataset),
    jp_obj_root: textOf(fields, 'jp_obj_root') || REST_OBJECT_ROOT,
    jp_lat: textOf(fields, 'jp_lat'),
    jp_lon: textOf(fields, 'jp_lon'),
    properties: (properties as string[]).map((p) => p.trim()).filter(Boolean),
  };
  for (const setting of ['jp_lat', 'jp_lon'] as const)
    if (!settings[setting]) throw liveFailure('jsonpath_missing', { dataset, setting });
  return settings;
}

/** The dataset datums of input `dataset` with their item names; `no_dataset` when none is linked. */
export function datasetsOf(inputs: FunctionInputs): Array<{ name: string; fields: Record<string, unknown> }> {
  const items = itemsOf(inputs, 'dataset');
  if (!items.length) throw liveFailure('no_dataset');
  return items.map((fields, i) => ({ name: `dataset[${i}]`, fields }));
}
