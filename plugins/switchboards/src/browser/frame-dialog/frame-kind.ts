/** The fields of one item of a frame (a datum without envelope). */
export type FrameItem = Record<string, unknown>;

/** The tabs of the frame dialog (spec 001 §2.6; the Map tab for feature frames: issue 16). */
export type FrameTab = 'single' | 'cards' | 'table' | 'map' | 'upload' | 'settings';

/**
 * How the frame dialog shows a type, decided by its base chain (most specific first):
 * - `file`: file datums (table columns name, mime, size, download; upload tab);
 * - `row`: one column per key of `value`;
 * - `feature`: the geometry type and one column per property;
 * - `value`: simple values (`string`, `number`, `bool`, `datetime`, `color`, `layer`, `depot`,
 *   `service` and types derived from them) as a table of one column;
 * - `other`: everything else (bbox, grid, mesh, style, dict, any, …): cards and single view only.
 */
export type FrameKind = 'file' | 'row' | 'feature' | 'value' | 'other';

/** Bases whose datums are one simple field (`value`, or `hex` for colours). */
export const VALUE_BASES = ['string', 'number', 'bool', 'datetime', 'color', 'layer', 'depot', 'service'];

export function frameKind(chain: string[]): FrameKind {
  if (chain.includes('file')) return 'file';
  if (chain.includes('row')) return 'row';
  if (chain.includes('feature')) return 'feature';
  if (chain.some((t) => VALUE_BASES.includes(t))) return 'value';
  return 'other';
}

/** "Table-capable" types of spec 001 §2.6: all but `other`. */
export const isTableKind = (kind: FrameKind) => kind !== 'other';

/** Fields of a create-in-frame template that are no datum fields. */
const TEMPLATE_ENVELOPE = ['content_type', 'frame', 'resource_uri', 'index', 'id'];

/** A template's datum fields (GET /api/v1/datum/create-in-frame/{id}/ without its envelope). */
export function templateFields(template: Record<string, unknown>): FrameItem {
  return Object.fromEntries(Object.entries(template).filter(([k]) => !TEMPLATE_ENVELOPE.includes(k)));
}

/**
 * "Types that can be created by hand" (spec 001 §2.6): types whose template has fields a datum
 * editor can fill in. File datums are made by uploads only, and types without a template (any,
 * mesh, …) have nothing to fill in.
 */
export function isCreatable(kind: FrameKind, template: FrameItem | undefined): boolean {
  return kind !== 'file' && !!template && Object.keys(template).length > 0;
}
