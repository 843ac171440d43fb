import type { FrameItems } from '@werkbank/sdk/node';
import { checkGeometry } from '../vector/geojson-validate';
import { isObject, liveFailure } from './live-settings';
import type { StaThing } from './sta-client';

type Obj = Record<string, unknown>;
const listOf = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Location encodings that carry GeoJSON (OGC 18-088 §8.2.2 encodingType). */
const GEOJSON_ENCODINGS = new Set(['application/geo+json', 'application/vnd.geo+json', 'application/json']);

/**
 * The properties a Thing's features carry: the Thing's own `properties`, its id, name and
 * description, and per datastream (by name) the result of its latest Observation with the
 * observation's time (`<name>_time`) and the unit's symbol (`<name>_unit`).
 */
export function thingProperties(thing: StaThing): Obj {
  const out: Obj = { ...(isObject(thing.properties) ? thing.properties : {}) };
  out.thing_id = thing['@iot.id'] ?? null;
  out.name = typeof thing.name === 'string' ? thing.name : null;
  out.description = typeof thing.description === 'string' ? thing.description : null;
  for (const ds of listOf(thing.Datastreams)) {
    const name = typeof ds.name === 'string' && ds.name ? ds.name : `datastream ${String(ds['@iot.id'])}`;
    const [latest] = listOf(ds.Observations);
    out[name] = latest?.result ?? null;
    out[`${name}_time`] = latest?.phenomenonTime ?? null;
    const unit = isObject(ds.unitOfMeasurement) ? ds.unitOfMeasurement.symbol : undefined;
    if (typeof unit === 'string') out[`${name}_unit`] = unit;
  }
  return out;
}

/** The GeoJSON geometry of a Location (a geometry or a Feature); undefined for other encodings. */
function locationGeometry(location: Obj, thing: unknown, index: number): Obj | undefined {
  const encoding = typeof location.encodingType === 'string' ? location.encodingType.toLowerCase() : 'application/geo+json';
  if (!GEOJSON_ENCODINGS.has(encoding)) return undefined;
  const value =
    isObject(location.location) && location.location.type === 'Feature' ? location.location.geometry : location.location;
  try {
    return checkGeometry(value, index);
  } catch {
    throw liveFailure('sta_location_invalid', { thing: String(thing), index });
  }
}

/**
 * The features of one Thing: one per Location with a GeoJSON geometry, all with the Thing's
 * properties (thingProperties) and the location's name. `index` is the number of the first
 * feature (messages name it). A Thing without such a location gives none; `skipped` counts them.
 */
export function thingFeatures(thing: StaThing, index: number): { features: FrameItems; skipped: boolean } {
  const properties = thingProperties(thing);
  const features: FrameItems = [];
  for (const location of listOf(thing.Locations)) {
    const geometry = locationGeometry(location, thing['@iot.id'], index + features.length);
    if (!geometry) continue;
    const props = { ...properties, location_name: typeof location.name === 'string' ? location.name : null };
    features.push({ feature: { type: 'Feature', geometry, properties: props } });
  }
  return { features, skipped: features.length === 0 };
}
