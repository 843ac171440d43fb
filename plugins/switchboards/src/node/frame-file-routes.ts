import { ApiError, type EntityManager, type RouteDescriptor, type Row } from '@werkbank/sdk/node';
import { FRAME_PATH, idParam } from './switchboard-access';
import { inSwitchboardTransaction, switchboardCaller } from './route-caller';
import { editFrameItems, frameForEdit, validateItem } from './frame-item-write';
import { checkFileName, checkUniqueFileName, duplicateFileName } from './frame-file-name';
import { frameFileUrl, recordFrameFile } from './frame-file-records';
import { readableFrameFile } from './frame-file-access';
import { SwitchboardsServices } from './switchboards-services';

type Router = Parameters<RouteDescriptor['mount']>[0];

const HASH = /^[0-9a-f]{64}$/;

/**
 * `POST {frame}upload/` and the addresses of the uploaded files (docs/api.md "frame"). The bytes
 * stream into the server's blob store through RequestBodies.upload, exactly as the Magazine's
 * uploads do (size limit UPLOAD_MAX_BYTES, 5 GiB; a refused or interrupted upload stores nothing);
 * the file becomes a file datum `{value, size, mime_type, download_url, embed_url}` at the end of
 * the frame, and the server records the blob for the frame (switchboard_frame_file, in the same
 * transaction). A file is served only when that record exists and the frame still holds the datum,
 * to whoever may read that frame's switchboard, with the recorded type — never with what a datum
 * says (frame-file-fields.ts keeps hand-made datums from naming files, decision 0018). The bytes stay while stored content holds their datum
 * (content-blob-references.ts); those of an upload that fails after they were stored are removed
 * by the server's blob sweep after its grace period (decision 0017).
 */
export function mountFrameFiles(router: Router, services: SwitchboardsServices): void {
  router.post(`${FRAME_PATH}:id/upload/`, async (ctx) => {
    const r = switchboardCaller(ctx, services);
    // The caller and the frame are checked before a byte of the body is read.
    const frame = await frameForEdit(r, ctx.params.id);
    if (!services.types.isAssignable(String(frame.content_type), 'file')) {
      throw ApiError.badRequest(
        'invalid_field',
        'switchboards:errors.upload_frame',
        { type: String(frame.content_type) },
        'frame',
      );
    }
    let name = '';
    const received = await services.bodies.upload(ctx, {
      maxBytes: services.config.uploadMaxBytes,
      beforeFile: async (fields, filename) => {
        name = checkFileName((fields.path ?? '').trim() || filename);
        await refuseTakenName(r.manager, frame, name);
      },
    });
    const blob = received.file!.blob;
    const url = frameFileUrl(frame.id as number, blob.hash);
    const out = await inSwitchboardTransaction(ctx, services, async (tr) => {
      await frameForEdit(tr, ctx.params.id);
      const edited = await editFrameItems(tr, services, frame.id as number, undefined, (items, type) => {
        // Checked again under the frame's lock: two uploads of one name cannot both land.
        checkUniqueFileName(items, name);
        const fields = validateItem(
          { value: name, size: blob.size, mime_type: blob.mime, download_url: `${url}download/`, embed_url: `${url}embed/` },
          type,
          services,
          'file',
        );
        return { items: [...items, fields], result: { ...fields, index: items.length } };
      });
      // After the frame's row lock (taken by editFrameItems): the record's key share cannot deadlock with it.
      await recordFrameFile(tr.manager, frame.id as number, { hash: blob.hash, mime_type: blob.mime, size: blob.size });
      return edited;
    });
    ctx.status = 201;
    ctx.body = {
      file: { path: name, status: 'success', size: blob.size, mime_type: blob.mime },
      datum: out.result,
      frame: out.frame,
    };
  });

  router.get(`${FRAME_PATH}:id/file/:hash/:mode/`, async (ctx) => {
    const { hash, mode } = ctx.params;
    if (!HASH.test(hash) || (mode !== 'download' && mode !== 'embed')) throw ApiError.notFound();
    const r = switchboardCaller(ctx, services);
    const { record, item } = await readableFrameFile(r, idParam(ctx.params.id), hash);
    const name = String(item.value ?? 'file');
    await services.downloads.send(ctx, hash, {
      size: record.size,
      mime: record.mime_type,
      filename: name.split('/').pop() || name,
      disposition: mode === 'embed' ? 'inline' : 'attachment',
    });
  });
}

/** 409 `duplicate_name` early, before the bytes are stored (checked again when the datum is added). */
async function refuseTakenName(m: EntityManager, frame: Row, name: string): Promise<void> {
  const hash = frame.content_hash ? String(frame.content_hash).trim() : '';
  if (!hash) return;
  const rows = (await m.query(`SELECT 1 FROM switchboard_content WHERE hash = $1 AND items @> $2::jsonb`, [
    hash,
    JSON.stringify([{ value: name }]),
  ])) as unknown[];
  if (rows.length) throw duplicateFileName(name);
}
