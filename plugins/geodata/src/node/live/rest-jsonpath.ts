import { JSONPath } from 'jsonpath-plus';
import { liveFailure } from './live-settings';

/**
 * Whether a JsonPath holds a script or filter expression (`(...)` or `?(...)`). They are refused:
 * the datasets come from users, and jsonpath-plus would evaluate them.
 */
function hasScript(path: string): boolean {
  return JSONPath.toPathArray(path).some((segment) => /^\??\(/.test(segment));
}

/**
 * A checked JsonPath of setting `setting`: `jsonpath_script` for script and filter expressions,
 * `jsonpath_invalid` for a path that does not start at the root (`$`).
 */
export function checkedPath(path: string, setting: string): string {
  if (!path.startsWith('$')) throw liveFailure('jsonpath_invalid', { setting, path });
  if (hasScript(path)) throw liveFailure('jsonpath_script', { setting, path });
  return path;
}

/**
 * The values `path` selects in `json`, evaluated without scripts (jsonpath-plus `eval: false`, so
 * even a script that slipped past checkedPath is refused by the library: `jsonpath_script`).
 */
export function select(path: string, json: unknown, setting: string): unknown[] {
  try {
    return JSONPath({ path, json: json as object, eval: false, wrap: true }) as unknown[];
  } catch (e) {
    const script = /prevented/i.test((e as Error).message);
    throw liveFailure(script ? 'jsonpath_script' : 'jsonpath_invalid', { setting, path });
  }
}

/** The property name a path stands for: its last member name (`$.station.name` → `name`), else the path. */
export function propertyName(path: string): string {
  const names = JSONPath.toPathArray(path).filter((s) => s !== '$' && s !== '*' && s !== '..' && !/^\d+$/.test(s));
  return names.length ? names[names.length - 1] : path;
}
