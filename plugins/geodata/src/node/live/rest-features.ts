import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { CHUNK, yieldToLoop } from '../vector/vector-params';
import { isObject, liveFailure, type RestSettings } from './live-settings';
import { checkedPath, propertyName, select } from './rest-jsonpath';

/** Objects a REST dataset may hold at most. */
export const MAX_OBJECTS = 200_000;

type Obj = Record<string, unknown>;

/** A coordinate of object `index`: a number or a numeric text within ±`limit`; `coordinate_invalid` otherwise. */
function coordinate(object: Obj, path: string, setting: string, index: number, limit: number): number {
  const [raw] = select(path, object, setting);
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit)
    throw liveFailure('coordinate_invalid', { index, setting, path, value: JSON.stringify(raw ?? null).slice(0, 80) });
  return value;
}

/** The properties kept of an object: the members the `properties` paths select, or all members when none are listed. */
function propertiesOf(object: Obj, paths: string[]): Obj {
  if (!paths.length) return { ...object };
  const out: Obj = {};
  for (const path of paths) {
    const values = select(path, object, 'properties');
    out[propertyName(path)] = values.length > 1 ? values : (values[0] ?? null);
  }
  return out;
}

/**
 * The features of a REST answer (spec 002 §3 "REST service"): `jp_obj_root` selects the objects,
 * `jp_lat` and `jp_lon` (evaluated on each object) give a point in WGS 84, `properties` the
 * members to keep. Paths are JsonPath without scripts. Failures name the object's index (from 0).
 * Progress and abort checks every CHUNK objects.
 */
export async function restFeatures(json: unknown, s: RestSettings, ctx: FunctionRunContext): Promise<FrameItems> {
  const root = checkedPath(s.jp_obj_root, 'jp_obj_root');
  const lat = checkedPath(s.jp_lat, 'jp_lat');
  const lon = checkedPath(s.jp_lon, 'jp_lon');
  const paths = s.properties.map((p) => checkedPath(p, 'properties'));
  const objects = select(root, json, 'jp_obj_root');
  if (objects.length > MAX_OBJECTS) throw liveFailure('rest_too_many', { count: objects.length, limit: MAX_OBJECTS });
  const features: FrameItems = [];
  for (const [index, object] of objects.entries()) {
    if (!isObject(object)) throw liveFailure('rest_not_object', { index, path: root });
    const coordinates = [coordinate(object, lon, 'jp_lon', index, 180), coordinate(object, lat, 'jp_lat', index, 90)];
    features.push({
      feature: { type: 'Feature', geometry: { type: 'Point', coordinates }, properties: propertiesOf(object, paths) },
    });
    if ((index + 1) % CHUNK === 0) {
      ctx.progress((index + 1) / objects.length);
      await yieldToLoop(ctx);
    }
  }
  return features;
}
