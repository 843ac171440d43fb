import { ApiError, type EntityManager, type FrameItems, type Row, type ServerServices } from '@werkbank/sdk/node';
import { putContent, textRepr } from './frame-content';

/** Most items one call may write into a frame. */
export const FRAME_WRITE_LIMIT = 10_000;

/** Checks a list of datum fields against the frame's type; 400 naming the first bad item. */
export function validateItems(
  value: unknown,
  type: string,
  services: Pick<ServerServices, 'datumTypes'>,
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
  services: Pick<ServerServices, 'datumTypes'>,
  type: string,
  items: FrameItems,
): Promise<{ content_hash: string; size: number; text_repr: string }> {
  const hash = await putContent(m, items);
  return { content_hash: hash, size: items.length, text_repr: textRepr(items, type, services) };
}

/** Replaces a frame's items (validated against its type) in the caller's transaction. */
export async function frameContentWrite(
  m: EntityManager,
  services: Pick<ServerServices, 'datumTypes'>,
  frame: Row,
  value: unknown,
): Promise<{ content_hash: string; size: number; text_repr: string }> {
  const type = String(frame.content_type);
  const items = value === null ? [] : validateItems(value, type, services);
  const cols = await contentColumns(m, services, type, items);
  await m.query(`UPDATE switchboard_frame SET content_hash = $2, size = $3, text_repr = $4 WHERE id = $1`, [
    frame.id,
    cols.content_hash,
    cols.size,
    cols.text_repr,
  ]);
  return cols;
}
