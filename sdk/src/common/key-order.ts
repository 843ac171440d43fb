/**
 * The order of object keys in datums (issue 14 item 5, decision 0036). PostgreSQL's jsonb stores
 * object keys sorted (by length, then bytes), so frames and depots keep a KeyOrder beside the
 * jsonb they store and put the keys back in order when they read: a CSV with the header
 * `name;x;y` comes back as `name;x;y`, not `x;y;name`.
 *
 * A KeyOrder maps the path of an object inside an item (JSON text of its keys, `[]` for the item,
 * `["feature","properties"]` for a feature's properties) to that object's keys in first-seen
 * order, joined over all items. Arrays are not entered (geometry coordinates hold no keys worth
 * ordering). Objects with fewer than two keys need no entry.
 */
export type KeyOrder = Record<string, string[]>;

/** Paths deeper than this are not recorded (they keep jsonb's order). */
const MAX_DEPTH = 4;

/** The key order of `items` (each an object); null when no object has two keys. */
export function keyOrderOf(items: readonly unknown[]): KeyOrder | null {
  const order = new Map<string, { keys: string[]; seen: Set<string> }>();
  const visit = (value: unknown, path: string[]) => {
    if (!isObject(value)) return;
    const keys = Object.keys(value);
    if (keys.length > 1) {
      const id = JSON.stringify(path);
      let entry = order.get(id);
      if (!entry) order.set(id, (entry = { keys: [], seen: new Set() }));
      for (const k of keys) {
        if (entry.seen.has(k)) continue;
        entry.seen.add(k);
        entry.keys.push(k);
      }
    }
    if (path.length < MAX_DEPTH) for (const k of keys) visit(value[k], [...path, k]);
  };
  for (const item of items) visit(item, []);
  if (!order.size) return null;
  return Object.fromEntries([...order].map(([id, e]) => [id, e.keys]));
}

/**
 * `items` with the keys of every object `order` names put back in its order (keys it does not
 * know follow in their present order). Returns the items unchanged when `order` is null.
 */
export function inKeyOrder<T>(items: T[], order: KeyOrder | null | undefined): T[] {
  if (!order || !Object.keys(order).length) return items;
  const restore = keyOrderRestorer(order);
  return items.map(restore);
}

/** A node of a compiled KeyOrder: the rank of each key of the object at this path, and deeper paths. */
interface OrderNode {
  rank?: Map<string, number>;
  children: Map<string, OrderNode>;
}

/**
 * `inKeyOrder` for one order compiled once, for many items (a whole depot read shares one order):
 * returns a function that puts one item's keys back in order. Only the objects on the order's
 * paths are rebuilt; everything else is passed through as it is.
 */
export function keyOrderRestorer(order: KeyOrder): <T>(item: T) => T {
  const root: OrderNode = { children: new Map() };
  for (const [id, keys] of Object.entries(order)) {
    let path: unknown;
    try {
      path = JSON.parse(id);
    } catch {
      continue;
    }
    if (!Array.isArray(path) || path.length > MAX_DEPTH) continue;
    let node = root;
    for (const k of path as string[]) {
      let next = node.children.get(k);
      if (!next) node.children.set(k, (next = { children: new Map() }));
      node = next;
    }
    node.rank = new Map(keys.map((k, i) => [k, i]));
  }
  const restore = (value: unknown, node: OrderNode): unknown => {
    if (!isObject(value)) return value;
    let keys = Object.keys(value);
    if (node.rank && keys.length > 1) keys = ranked(keys, node.rank);
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const child = node.children.get(k);
      out[k] = child ? restore(value[k], child) : value[k];
    }
    return out;
  };
  return <T>(item: T): T => restore(item, root) as T;
}

/** A key's place in an order; keys the order does not know come last. */
function rankOf(rank: Map<string, number>, key: string): number {
  return rank.get(key) ?? Number.MAX_SAFE_INTEGER;
}

/**
 * `keys` sorted by `rank`, keys of equal rank in their present order. Runs for every object read
 * (jsonb's order is seldom the written one), so it creates no functions: a read of 100,000 features
 * spent a tenth of its time naming closures (the TypeScript loader keeps function names).
 */
function ranked(keys: string[], rank: Map<string, number>): string[] {
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = rankOf(rank, keys[i - 1]) <= rankOf(rank, keys[i]);
  if (sorted) return keys;
  const ranks: number[] = [];
  for (const k of keys) ranks.push(rankOf(rank, k));
  if (keys.length > 32) {
    const at = keys.map((_, i) => i).sort((a, b) => ranks[a] - ranks[b] || a - b);
    return at.map((i) => keys[i]);
  }
  // A stable insertion sort: objects have few keys.
  const out = keys.slice();
  for (let i = 1; i < out.length; i++) {
    const key = out[i];
    const r = ranks[i];
    let j = i - 1;
    for (; j >= 0 && ranks[j] > r; j--) {
      out[j + 1] = out[j];
      ranks[j + 1] = ranks[j];
    }
    out[j + 1] = key;
    ranks[j + 1] = r;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
