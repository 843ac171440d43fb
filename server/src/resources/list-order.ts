import { ApiError, type FieldType, type ResourceDefinition } from '@werkbank/sdk/node';
import { columnOf } from './field-codec';

/** What a list's count and page took, for the Server-Timing header. */
export interface ListTiming {
  countMs?: number;
  pageMs?: number;
}

/** One key of a list's order: a declared field's column (or the id) and its direction. */
export interface OrderKey {
  name: string;
  /** `t."column"`, from the kind's declaration, never from the request. */
  column: string;
  desc: boolean;
  type: FieldType | 'id';
  nullable: boolean;
  nulls?: 'NULLS FIRST' | 'NULLS LAST';
}

export function escapeIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The rows behind a cursor whose order values are `values` (bound as `:ck0`, `:ck1`, …), for an
 * order that puts nulls last ascending and first descending. Each key adds a range on its column
 * (`col >= v AND (col > v OR …later keys…)`), so an index on the order columns serves it.
 */
export function keysetCondition(keys: OrderKey[], values: (string | null)[], from = 0): string {
  const key = keys[from];
  const col = key.column;
  const p = `:ck${from}`;
  const rest = from + 1 < keys.length ? keysetCondition(keys, values, from + 1) : undefined;
  if (values[from] === null) {
    // Among the nulls: ascending they come last (only later nulls follow), descending first.
    if (!key.desc) return rest ? `(${col} IS NULL AND ${rest})` : 'FALSE';
    return rest ? `(${col} IS NOT NULL OR (${col} IS NULL AND ${rest}))` : `${col} IS NOT NULL`;
  }
  const [gt, ge] = key.desc ? ['<', '<='] : ['>', '>='];
  const beyond = rest ? `(${col} ${ge} ${p} AND (${col} ${gt} ${p} OR ${rest}))` : `${col} ${gt} ${p}`;
  return key.nullable && !key.desc ? `(${beyond} OR ${col} IS NULL)` : beyond;
}

/** `count=false` skips the total (infinite scroll after its first page); default true. */
export function countParam(query: Record<string, string>): boolean {
  const raw = query.count;
  if (raw === undefined || raw === '' || raw === 'true') return true;
  if (raw === 'false') return false;
  throw ApiError.badRequest('invalid_parameter', 'errors.invalid_boolean_param', { name: 'count' }, 'count');
}

/** The address of the next page: the same query without offset, behind `token`. */
export function nextAddress(base: string, query: Record<string, string>, token: string): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (k !== 'offset' && k !== 'after') params.set(k, v);
  params.set('after', token);
  return `${base}?${params.toString()}`;
}

/**
 * The list's order as keys: each `order_by` part a declared order field (400 unknown_order
 * otherwise), nulls last ascending and first descending (PostgreSQL's default, written out),
 * and the id last as the tie-breaker unless named.
 */
export function orderKeys(def: ResourceDefinition, order: string, nullable: Set<string>): OrderKey[] {
  const keys: OrderKey[] = [];
  for (const part of order.split(',')) {
    const desc = part.startsWith('-');
    const name = desc ? part.slice(1) : part;
    if (name === 'id') {
      keys.push({ name, column: 't.id', desc, type: 'id', nullable: false });
      continue;
    }
    const spec = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
    if (!spec || !spec.order || spec.virtual) {
      throw ApiError.badRequest('unknown_order', 'errors.unknown_order', { name }, 'order_by');
    }
    const column = columnOf(name, spec);
    keys.push({
      name,
      column: `t.${escapeIdentifier(column)}`,
      desc,
      type: spec.type,
      nullable: nullable.has(column),
      nulls: desc ? 'NULLS FIRST' : 'NULLS LAST',
    });
  }
  if (!keys.some((k) => k.name === 'id')) keys.push({ name: 'id', column: 't.id', desc: false, type: 'id', nullable: false });
  return keys;
}
