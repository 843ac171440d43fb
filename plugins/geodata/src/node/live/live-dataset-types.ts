import type { DatumTypeContribution, DatumTypeDescriptor } from '@werkbank/sdk/node';

/** The only SensorThings API version the import speaks (spec 002 §5 "Sensor things version"). */
export const STA_VERSION = 'v1.1';
/** Things per page when the dataset names no batch size (spec 002 §9). */
export const STA_BATCH_SIZE = 100;
/** Seconds between two polls of a REST dataset when it names no interval (spec 002 §9). */
export const REST_UPDATE_INTERVAL = 60;
/** The JsonPath that selects the objects of a REST answer when the dataset names none (spec 002 §9). */
export const REST_OBJECT_ROOT = '$[*]';

const STRING = { type: 'string' };
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * `sta-livedataset` (spec 002 §3 "Live dataset settings"): an OGC SensorThings API service. Only
 * `origin` is required; the version is checked by the import, not here, so an author gets a clear
 * message instead of a schema error.
 */
export const STA_LIVEDATASET: DatumTypeDescriptor = {
  id: 'geodata.sta-livedataset',
  name: 'sta-livedataset',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['origin'],
    properties: {
      origin: STRING,
      version: STRING,
      thing_filter: STRING,
      datastream_filter: STRING,
      mqtt_uri: STRING,
      batch_size: { type: 'integer', minimum: 1, maximum: 10_000 },
    },
  },
  template: {
    origin: '',
    version: STA_VERSION,
    thing_filter: '',
    datastream_filter: '',
    mqtt_uri: '',
    batch_size: STA_BATCH_SIZE,
  },
  repr: (f) => `${text(f.origin)} (SensorThings ${text(f.version) || STA_VERSION})`,
};

/** `rest-livedataset` (spec 002 §3): a JSON service read with JsonPath expressions. */
export const REST_LIVEDATASET: DatumTypeDescriptor = {
  id: 'geodata.rest-livedataset',
  name: 'rest-livedataset',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['origin'],
    properties: {
      origin: STRING,
      update_interval: { type: 'integer', minimum: 1 },
      jp_obj_root: STRING,
      jp_lat: STRING,
      jp_lon: STRING,
      properties: { type: 'array', items: STRING },
    },
  },
  template: {
    origin: '',
    update_interval: REST_UPDATE_INTERVAL,
    jp_obj_root: REST_OBJECT_ROOT,
    jp_lat: '',
    jp_lon: '',
    properties: [],
  },
  repr: (f) => `${text(f.origin)} (REST)`,
};

/** The live dataset types of the geodata plugin, with their defaults in the templates. */
export const liveDatasetTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => {
    registry.add({ ...STA_LIVEDATASET });
    registry.add({ ...REST_LIVEDATASET });
  },
};
