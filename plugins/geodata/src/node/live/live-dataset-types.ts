import type { DatumTypeContribution, DatumTypeDescriptor } from '@werkbank/sdk/node';

import {
  REST_OBJECT_ROOT,
  REST_UPDATE_INTERVAL,
  STA_BATCH_SIZE,
  STA_BATCH_SIZE_MAX,
  STA_VERSION,
} from '../../common/live-dataset-defaults';

export { REST_OBJECT_ROOT, REST_UPDATE_INTERVAL, STA_BATCH_SIZE, STA_VERSION };

const STRING = { type: 'string' };
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * `sta-livedataset` (spec 002 §3 "Live dataset settings"): an OGC SensorThings API service. Only
 * `origin` is required. The setting "version" is stored as `sta_version`: `version` is the datum
 * envelope's, which the validator and a depot drop; only v1.1 is accepted (spec 002 §5), so v1.0
 * is refused when saved. The import still reads `version` from frames written before, and checks
 * it and a version at the end of `origin` when it runs.
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
      sta_version: { enum: [STA_VERSION] },
      thing_filter: STRING,
      datastream_filter: STRING,
      mqtt_uri: STRING,
      batch_size: { type: 'integer', minimum: 1, maximum: STA_BATCH_SIZE_MAX },
    },
  },
  template: {
    origin: '',
    sta_version: STA_VERSION,
    thing_filter: '',
    datastream_filter: '',
    mqtt_uri: '',
    batch_size: STA_BATCH_SIZE,
  },
  repr: (f) => `${text(f.origin)} (SensorThings ${text(f.sta_version) || text(f.version) || STA_VERSION})`,
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
