import { finished, type Readable } from 'node:stream';
import Busboy, { type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import {
  ApiError,
  type BlobInfo,
  type BlobStore,
  type MultipartUpload,
  type MultipartUploadOptions,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { fileTooLarge } from './blob-errors';
import { closeAfterReply } from './close-after-reply';
import { nulRefused } from '../http/nul-guard';

const FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;
/** What a form may carry after its file part without being taken for an oversized file. */
const TRAILING_BYTES = 1024 * 1024;

/**
 * Reads a `multipart/form-data` request, streaming its single `file` part into `store.put`
 * (memory stays flat whatever the size). Other file parts are read and dropped. Resolves once the
 * whole body has been read. Rejects, with nothing stored, with 400 `not_multipart`,
 * `file_missing`, `empty_file`, `upload_malformed`, `field_too_long`, `too_many_fields`,
 * `invalid_text` (a NUL character in a field or the file name); 413
 * `file_too_large` (counted while streaming; a Content-Length that exceeds what came before the
 * file plus maxBytes plus TRAILING_BYTES is refused before the file is read); 408
 * `upload_stalled`; 400 `upload_aborted` when the client goes away; or whatever beforeFile
 * throws. It rejects only after a running put has removed its temporary file. A refusal while
 * the client is still sending closes the connection after the reply (closeAfterReply). A failure
 * after the file was stored (a broken end of the form) leaves the complete blob in place: blobs
 * are shared, only the caller can tell whether anything refers to it.
 */
export function readMultipartUpload(
  ctx: WerkbankContext,
  store: BlobStore,
  opts: MultipartUploadOptions & { maxBytes: number },
): Promise<MultipartUpload> {
  const req = ctx.req;
  const notMultipart = () => ApiError.badRequest('not_multipart', 'errors.not_multipart');
  if (!ctx.is('multipart/form-data')) return Promise.reject(notMultipart());
  let bb: BusboyInstance;
  try {
    // @fastify/busboy: the busboy API, about twice as fast on large files (it finds the boundary
    // with fewer JavaScript steps); what is measured is in bench/README.md.
    bb = new Busboy({
      headers: req.headers as BusboyHeaders,
      defCharset: 'utf8',
      limits: { fileSize: opts.maxBytes + 1, fieldSize: FIELD_BYTES, fields: MAX_FIELDS },
    });
  } catch {
    return Promise.reject(notMultipart());
  }
  const declared = Number(req.headers['content-length'] ?? NaN);

  return new Promise<MultipartUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let received = 0;
    let fileTask: Promise<{ filename: string; blob: BlobInfo }> | undefined;
    let fileStream: Readable | undefined;
    let settled = false;
    // Cut an upload that stalls: the server has no request timeout (werkbank-server.ts).
    const idleMs = opts.idleTimeoutMs ?? 120_000;
    const idle = setTimeout(
      () => fail(new ApiError(408, 'upload_stalled', 'errors.upload_stalled', { seconds: Math.round(idleMs / 1000) })),
      idleMs,
    );
    idle.unref();
    const stopIdle = () => clearTimeout(idle);
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      stopIdle();
      closeAfterReply(ctx);
      const error = err instanceof Error ? err : new Error(String(err));
      // Destroying the parser does not end the file part's stream: end it, so a running put
      // fails and removes its temporary file.
      fileStream?.destroy(error);
      bb.destroy(error);
      // Reject once a running put has cleaned up, so no temporary file outlives the rejection.
      void Promise.allSettled([fileTask]).then(() => reject(err));
    };

    bb.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) {
        fail(ApiError.badRequest('field_too_long', 'errors.field_too_long', { field: name, max: FIELD_BYTES }, name));
        return;
      }
      if (name.includes('\u0000') || value.includes('\u0000')) {
        fail(nulRefused(name));
        return;
      }
      fields[name] = value;
    });
    bb.on('fieldsLimit', () => fail(ApiError.badRequest('too_many_fields', 'errors.too_many_fields', { max: MAX_FIELDS })));
    bb.on('file', (name, stream, filename) => {
      if (name === 'file' && !fileTask) fileStream = stream;
      // Destroying busboy errors the open file stream; that is reported through fail, not here.
      stream.on('error', () => {});
      if (name !== 'file' || fileTask) {
        stream.resume();
        return;
      }
      if (filename?.includes('\u0000')) {
        stream.resume();
        fail(nulRefused('file'));
        return;
      }
      fileTask = storeFile(stream, filename ?? '', received);
      fileTask.catch(fail);
    });
    const storeFile = async (stream: Readable, filename: string, receivedBefore: number) => {
      await opts.beforeFile?.({ ...fields }, filename);
      if (settled) throw new Error('upload ended before the file was stored');
      // Refuse before reading gigabytes: the file is at least the declared body minus what came
      // before it and what may follow it (closing boundary, stray fields: TRAILING_BYTES).
      if (declared - receivedBefore - TRAILING_BYTES > opts.maxBytes) throw fileTooLarge(opts.maxBytes);
      stream.once('limit', () => stream.destroy(fileTooLarge(opts.maxBytes)));
      const blob = await store.put(stream, { maxBytes: opts.maxBytes, filename, refuseEmpty: !opts.allowEmpty });
      return { filename, blob };
    };
    bb.on('error', () => fail(ApiError.badRequest('upload_malformed', 'errors.upload_malformed')));
    bb.on('finish', () => {
      if (settled) return;
      Promise.resolve(fileTask).then((file) => {
        if (settled) return;
        if (!file && !opts.fileOptional) return fail(ApiError.badRequest('file_missing', 'errors.file_missing', {}, 'file'));
        settled = true;
        stopIdle();
        resolve({ fields, ...(file ? { file } : {}) });
      }, fail);
    });
    finished(req, (err) => {
      if (err || !req.complete) fail(ApiError.badRequest('upload_aborted', 'errors.upload_aborted'));
    });
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (!settled) idle.refresh();
    });
    req.pipe(bb);
  });
}
