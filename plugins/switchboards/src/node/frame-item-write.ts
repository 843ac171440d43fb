import { ApiError, type FrameItems, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { canvasFor, FRAME_PATH, idParam, switchboardFor } from './switchboard-access';
import { loadContents } from './frame-content';
import { contentColumns } from './frame-write';
import { markOutdated } from './outdated';
import { publishLive } from './live';
import { SwitchboardsServices } from './switchboards-services';

/** What a frame looks like after one of its items changed (the reply's `frame`). */
export interface FrameAfterEdit {
  resource_uri: string;
  size: number;
  content_hash: string;
  text_repr: string;
}

/**
 * A frame for an edit of its items: 404 when it does not exist or its switchboard is unreadable,
 * 403 without write, 409 `switchboard_scheduled` while someone else's schedule runs it (canvasFor).
 * Call it before reading a request body, so the caller is known first.
 */
export async function frameForEdit(r: ResourceRequest, rawId: string): Promise<Row> {
  const [frame] = (await r.manager.query(`SELECT * FROM switchboard_frame WHERE id = $1`, [idParam(rawId)])) as Row[];
  if (!frame) throw ApiError.notFound();
  await switchboardFor(r, frame.switchboard_id as number, 'read');
  await canvasFor(r, frame.switchboard_id as number);
  return frame;
}

/** An item position from a path segment; 404 for a malformed one. */
export function indexParam(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,9}$/.test(raw)) throw ApiError.notFound();
  return Number(raw);
}

/** 404 `item_missing` when `items` has no item at `index`. */
export function itemAt(items: FrameItems, index: number): Record<string, unknown> {
  const item = items[index];
  if (!item) throw new ApiError(404, 'item_missing', 'switchboards:errors.item_missing', { index });
  return item as Record<string, unknown>;
}

/** Checks one datum's fields against the frame's type: 400 `invalid_value` naming `field` and the place. */
export function validateItem(
  fields: unknown,
  type: string,
  services: Pick<SwitchboardsServices, 'datumTypes'>,
  field: string,
): Record<string, unknown> {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) {
    throw ApiError.badRequest('invalid_value', 'switchboards:errors.item_shape', { index: field }, field);
  }
  const problem = services.datumTypes.validate(type, fields as Record<string, unknown>);
  if (problem) {
    throw ApiError.badRequest(
      'invalid_value',
      'switchboards:errors.item_invalid',
      { index: field, type },
      `${field}${problem.field ? `.${problem.field}` : ''}`,
    );
  }
  return fields as Record<string, unknown>;
}

/**
 * Rewrites a frame's items with `edit`, in the caller's transaction, under the frame's row lock.
 * Only what `edit` adds or changes is validated (it must do that itself), so an edit of one item
 * costs the same for any frame size and is not bound by the 10,000 items of a content PATCH.
 * `basedOn` (a content hash the client read) refuses the edit with 409 `content_changed` when the
 * items changed meanwhile (e.g. a run rewrote them), so an index never names another item than the
 * one the client saw. Marks readers outdated and announces the new size and text like a PATCH.
 */
export async function editFrameItems<T>(
  r: ResourceRequest,
  services: SwitchboardsServices,
  frameId: number,
  basedOn: string | undefined,
  edit: (items: FrameItems, type: string) => { items: FrameItems; result: T } | Promise<{ items: FrameItems; result: T }>,
): Promise<{ result: T; frame: FrameAfterEdit }> {
  const [frame] = (await r.manager.query(`SELECT * FROM switchboard_frame WHERE id = $1 FOR UPDATE`, [frameId])) as Row[];
  if (!frame) throw ApiError.notFound();
  const hash = frame.content_hash ? String(frame.content_hash).trim() : '';
  if (basedOn !== undefined && basedOn !== hash)
    throw new ApiError(409, 'content_changed', 'switchboards:errors.content_changed');
  const type = String(frame.content_type);
  const current = hash ? ((await loadContents(r.manager, [hash])).get(hash) ?? []) : [];
  const { items, result } = await edit(current, type);
  const cols = await contentColumns(r.manager, services, type, items);
  await r.manager.query(`UPDATE switchboard_frame SET content_hash = $2, size = $3, text_repr = $4 WHERE id = $1`, [
    frame.id,
    cols.content_hash,
    cols.size,
    cols.text_repr,
  ]);
  const switchboardId = frame.switchboard_id as number;
  await markOutdated(r.manager, services, switchboardId, { frames: [frame.id as number] });
  const resource_uri = `${FRAME_PATH}${String(frame.id)}/`;
  publishLive(services, r.manager, {
    switchboard_id: switchboardId,
    event: 'UPDATE',
    resource_uri,
    fields: { size: cols.size, text_repr: cols.text_repr, content_hash: cols.content_hash },
  });
  return { result, frame: { resource_uri, ...cols } };
}

/** The optional `content_hash` query parameter (the content an edit is based on). */
export function basedOnParam(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[0-9a-f]{64}$|^$/.test(raw))
    throw ApiError.badRequest('invalid_parameter', 'switchboards:errors.content_hash', {}, 'content_hash');
  return raw;
}
