import type { Layer } from './layers-api';

/** The fields the editor sends, when changed. */
const EDITABLE = [
  'name',
  'slug',
  'type',
  'public',
  'legend',
  'description_title',
  'description',
  'attr',
  'time_min',
  'time_max',
  'style',
  'style_datum',
  'selection_title',
  'selection_contact',
  'selection_image',
  'selection_fields',
  'attribute_filters',
  'metadata',
  'tile_settings',
] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The PATCH body of an edit: changed fields; zoom keys that are null removed (spec 001 §5.1);
 * the piles in their new order (depot and name, keeping the ids of stored piles) when they
 * changed; permissions only for who may grant them.
 */
export function editedLayer(
  loaded: Layer,
  draft: Layer,
  piles: Array<{ id?: number; depot: string; name?: string }>,
  mayGrant: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of EDITABLE) if (!same(loaded[key], draft[key])) out[key] = draft[key];
  if (out.attr) out.attr = Object.fromEntries(Object.entries(draft.attr).filter(([, v]) => v !== null && v !== undefined));
  const pileKey = (p: { id?: number; depot: string; name?: string }) => `${p.id ?? ''}|${p.depot}|${p.name ?? ''}`;
  if (!same(loaded.layerpiles.map(pileKey), piles.map(pileKey)))
    out.layerpiles = piles.map((p) => ({ ...(p.id ? { id: p.id } : {}), depot: p.depot, ...(p.name ? { name: p.name } : {}) }));
  if (mayGrant && !same(loaded.permissions, draft.permissions)) out.permissions = draft.permissions;
  return out;
}
