import { createHash } from 'node:crypto';
import { canonicalJson, inKeyOrder, keyOrderOf, type EntityManager, type FrameItems, type KeyOrder } from '@werkbank/sdk/node';
import { SwitchboardsServices } from './switchboards-services';

/** How many items a frame's text representation shows before '…'. */
const REPR_ITEMS = 5;
const REPR_LENGTH = 500;

/** The content hash of a frame's items: sha256 of their canonical JSON. */
export function hashItems(items: FrameItems): string {
  return hashText(canonicalJson(items));
}

/** The content hash of items already in canonical JSON. */
export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A short text of the first items, as frames show it on the canvas. */
export function textRepr(items: FrameItems, type: string, services: Pick<SwitchboardsServices, 'datumTypes'>): string {
  const parts = items.slice(0, REPR_ITEMS).map((f) => {
    try {
      return services.datumTypes.textRepr(type, f);
    } catch {
      return JSON.stringify(f);
    }
  });
  let text = parts.join(', ');
  if (items.length > REPR_ITEMS) text += ', …';
  return text.length > REPR_LENGTH ? `${text.slice(0, REPR_LENGTH - 1)}…` : text;
}

/**
 * Stores content once per hash (frames and node runs refer to it) with the order of its keys
 * (decision 0036: jsonb sorts them); returns the hash.
 */
export async function putContent(m: EntityManager, items: FrameItems): Promise<string> {
  const hash = hashItems(items);
  await m.query(
    `INSERT INTO switchboard_content (hash, items, size, key_order) VALUES ($1, $2::jsonb, $3, $4::jsonb) ON CONFLICT (hash) DO NOTHING`,
    [hash, JSON.stringify(items), items.length, JSON.stringify(keyOrderOf(items))],
  );
  return hash;
}

/** Stored items with their keys back in the order they came in (decision 0036). */
export function orderedItems(items: FrameItems, order: KeyOrder | null | undefined): FrameItems {
  return inKeyOrder(items, order);
}

/** The items of stored content by hash (a missing hash is empty content). */
export async function loadContents(m: EntityManager, hashes: string[]): Promise<Map<string, FrameItems>> {
  const unique = [...new Set(hashes.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows = (await m.query(`SELECT hash, items, key_order FROM switchboard_content WHERE hash = ANY($1)`, [unique])) as {
    hash: string;
    items: FrameItems;
    key_order: KeyOrder | null;
  }[];
  return new Map(rows.map((r) => [r.hash.trim(), orderedItems(r.items, r.key_order)]));
}

/**
 * Removes content no frame and no node run refers to any longer (node runs keep their inputs'
 * content so a run can be replayed against exactly those inputs).
 */
export async function sweepContent(m: EntityManager): Promise<number> {
  const rows = (await m.query(`
    DELETE FROM switchboard_content c
     WHERE c.created < now() - interval '1 hour'
       AND NOT EXISTS (SELECT 1 FROM switchboard_frame f WHERE f.content_hash = c.hash)
       AND NOT EXISTS (SELECT 1 FROM switchboard_noderun r
                        WHERE r.inputs @> jsonb_build_array(jsonb_build_object('hash', c.hash))
                           OR r.outputs @> jsonb_build_array(jsonb_build_object('hash', c.hash)))
    RETURNING c.hash`)) as unknown[];
  return rows.length;
}
