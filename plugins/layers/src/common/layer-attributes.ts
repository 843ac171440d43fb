import type { LayerAttribute } from './layers-api';

/** The JSON type of a property value; integers apart from other numbers. */
export function valueType(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The properties of a datum: a feature's `feature.properties`, a row's `value`. */
export function propertiesOf(item: Record<string, unknown>): Record<string, unknown> {
  const feature = item.feature as { properties?: unknown } | undefined;
  const props = feature?.properties ?? item.properties ?? (typeof item.value === 'object' ? item.value : undefined);
  return props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, unknown>) : {};
}

/**
 * The union of the items' properties with their types, in first-seen order (spec 001 §7 layer
 * attributes). Integers and other numbers merge to number; other disagreements give `mixed`;
 * a property only ever null has type `null`.
 */
export function attributeUnion(items: Iterable<Record<string, unknown>>): LayerAttribute[] {
  const types = new Map<string, string | undefined>();
  for (const item of items) {
    for (const [name, v] of Object.entries(propertiesOf(item))) {
      const t = valueType(v);
      const seen = types.get(name);
      if (!types.has(name) || seen === undefined) types.set(name, t);
      else if (t !== undefined && t !== seen) {
        const numeric = (x: string) => x === 'integer' || x === 'number';
        types.set(name, numeric(t) && numeric(seen) ? 'number' : 'mixed');
      }
    }
  }
  return [...types].map(([name, type]) => ({ name, type: type ?? 'null' }));
}

/** The values of one attribute over the items: all of them, or each once (`unique`), at most `limit`. */
export function attributeValues(
  items: Iterable<Record<string, unknown>>,
  name: string,
  unique: boolean,
  limit: number,
): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const props = propertiesOf(item);
    if (!Object.hasOwn(props, name)) continue;
    const v = props[name];
    if (unique) {
      const key = JSON.stringify(v);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(v);
    if (out.length >= limit) break;
  }
  return out;
}
