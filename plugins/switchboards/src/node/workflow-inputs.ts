import { ApiError, type FrameItems, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { FRAME_PATH } from './switchboard-access';
import { validateItems } from './frame-write';
import { loadContents } from './frame-content';
import { checkFileItems } from './frame-file-fields';
import { SwitchboardsServices } from './switchboards-services';

/**
 * Input values of a workflow call: `{inputs: {<input frame name, address or id>: [items] | item}}`,
 * as input frame id → validated items. 400 for another shape, an unknown input frame or invalid items.
 * File datums may keep only files the input frame holds or was given by upload (checkFileItems,
 * without bringing files of other frames: the engine writes the inputs in its own transaction).
 */
export async function workflowInputs(
  r: ResourceRequest,
  services: SwitchboardsServices,
  sbId: number,
  body: Record<string, unknown>,
): Promise<Map<number, FrameItems>> {
  const raw = body.inputs ?? {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw ApiError.badRequest('invalid_field', 'switchboards:errors.inputs_shape', {}, 'inputs');
  }
  const frames = (await r.manager.query(
    `SELECT id, name, content_type, content_hash FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type = 1`,
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
    const type = String(frame.content_type);
    const items = validateItems(Array.isArray(value) ? value : [value], type, services, `inputs.${key}`);
    const hash = frame.content_hash ? String(frame.content_hash).trim() : '';
    const current =
      hash && services.types.isAssignable(type, 'file') ? ((await loadContents(r.manager, [hash])).get(hash) ?? []) : [];
    out.set(
      frame.id as number,
      await checkFileItems(r, services, { id: frame.id as number, type }, items, current, {
        place: (i) => `inputs.${key}[${i}]`,
        bring: false,
        strip: false,
      }),
    );
  }
  return out;
}
