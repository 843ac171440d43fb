import { ApiError, type FrameItems, type ResourceRequest, type Row, type ServerServices } from '@werkbank/sdk/node';
import { FRAME_PATH } from './switchboard-access';
import { validateItems } from './frame-write';

/**
 * Input values of a workflow call: `{inputs: {<input frame name, address or id>: [items] | item}}`,
 * as input frame id → validated items. 400 for another shape, an unknown input frame or invalid items.
 */
export async function workflowInputs(
  r: ResourceRequest,
  services: ServerServices,
  sbId: number,
  body: Record<string, unknown>,
): Promise<Map<number, FrameItems>> {
  const raw = body.inputs ?? {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw ApiError.badRequest('invalid_field', 'switchboards:errors.inputs_shape', {}, 'inputs');
  }
  const frames = (await r.manager.query(
    `SELECT id, name, content_type FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type = 1`,
    [sbId],
  )) as Row[];
  const out = new Map<number, FrameItems>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const frame =
      frames.find((f) => f.name === key) ??
      frames.find((f) => /^\d+$/.test(key) && f.id === Number(key)) ??
      frames.find((f) => key === `${FRAME_PATH}${f.id}/`);
    if (!frame)
      throw ApiError.badRequest('unknown_input', 'switchboards:errors.unknown_input_frame', { name: key }, `inputs.${key}`);
    const items = Array.isArray(value) ? value : [value];
    out.set(frame.id, validateItems(items, String(frame.content_type), services, `inputs.${key}`));
  }
  return out;
}
