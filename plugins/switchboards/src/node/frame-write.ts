import { ApiError, type EntityManager, type FrameItems, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { loadContents, putContent, textRepr } from './frame-content';
import { checkFileItems } from './frame-file-fields';
import { bulkRequests } from './switchboard-access';
import { SwitchboardsServices } from './switchboards-services';

/** Most items one call may write into a frame. */
export const FRAME_WRITE_LIMIT = 10_000;

/** Checks a list of datum fields against the frame's type; 400 naming the first bad item. */
export function validateItems(
  value: unknown,
  type: string,
  services: Pick<SwitchboardsServices, 'datumTypes'>,
  field = 'content',
): FrameItems {
  if (!Array.isArray(value)) throw ApiError.badRequest('invalid_field', 'switchboards:errors.content_shape', {}, field);
  if (value.length > FRAME_WRITE_LIMIT) {
    throw ApiError.badRequest('invalid_field', 'switchboards:errors.content_too_long', { max: FRAME_WRITE_LIMIT }, field);
  }
  value.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw ApiError.badRequest('invalid_value', 'switchboards:errors.item_shape', { index: i }, `${field}[${i}]`);
    }
    const problem = services.datumTypes.validate(type, item as Record<string, unknown>);
    if (problem) {
      throw ApiError.badRequest(
        'invalid_value',
        'switchboards:errors.item_invalid',
        { index: i, type },
        `${field}[${i}]${problem.field ? `.${problem.field}` : ''}`,
      );
    }
  });
  return value as FrameItems;
}

/** The columns a frame gets for new content. */
export async function contentColumns(
  m: EntityManager,
  services: Pick<SwitchboardsServices, 'datumTypes'>,
  type: string,
  items: FrameItems,
): Promise<{ content_hash: string; size: number; text_repr: string }> {
  const hash = await putContent(m, items);
  return { content_hash: hash, size: items.length, text_repr: textRepr(items, type, services) };
}

/**
 * Replaces a frame's items (validated against its type) in the caller's transaction: a content
 * PATCH, a frame created with content, create-in-frame. File datums are checked by checkFileItems;
 * in an import or duplicate of a whole switchboard, addresses of files the caller cannot bring are
 * dropped instead of refused (the datum keeps its name, type and size).
 */
export async function frameContentWrite(
  req: ResourceRequest,
  services: Pick<SwitchboardsServices, 'datumTypes' | 'types'>,
  frame: Row,
  value: unknown,
): Promise<{ content_hash: string; size: number; text_repr: string }> {
  const m = req.manager;
  const type = String(frame.content_type);
  let items = value === null ? [] : validateItems(value, type, services);
  if (items.length && services.types.isAssignable(type, 'file')) {
    // Under the frame's row lock, as item edits and uploads are: the content compared with stays current.
    const [locked] = (await m.query(`SELECT content_hash FROM switchboard_frame WHERE id = $1 FOR UPDATE`, [frame.id])) as Row[];
    const hash = locked?.content_hash ? String(locked.content_hash).trim() : '';
    const current = hash ? ((await loadContents(m, [hash])).get(hash) ?? []) : [];
    const strip = bulkRequests.has(req);
    items = await checkFileItems(req, services, { id: frame.id as number, type }, items, current, {
      place: (i) => `content[${i}]`,
      bring: true,
      strip,
    });
  }
  const cols = await contentColumns(m, services, type, items);
  await m.query(`UPDATE switchboard_frame SET content_hash = $2, size = $3, text_repr = $4 WHERE id = $1`, [
    frame.id,
    cols.content_hash,
    cols.size,
    cols.text_repr,
  ]);
  return cols;
}
