import { token } from '@werkbank/kernel';
import type { WerkbankContext } from '../http-context';
import type { BlobInfo } from './blob-store';

/**
 * Reading request bodies in a plugin's own routes, within the server's limits (BODY_LIMIT,
 * UPLOAD_MAX_BYTES) and timeouts. Errors are ApiErrors with a reason and a translated message.
 */
export interface RequestBodies {
  /**
   * A JSON object body; an empty body is `{}`. 400 `malformed_json` / `not_an_object`, 413
   * `body_too_large` past `limit` (default BODY_LIMIT), 408 `body_timeout` when it trickles.
   */
  json(ctx: WerkbankContext, options?: { limit?: number }): Promise<Record<string, unknown>>;
  /**
   * A JSON body of any kind (a list, for calls whose body is one); an empty body is undefined. The
   * same errors as `json` but `not_an_object`.
   */
  jsonValue(ctx: WerkbankContext, options?: { limit?: number }): Promise<unknown>;
  /** An application/x-www-form-urlencoded (or JSON) body as text fields, with json's limits. */
  form(ctx: WerkbankContext): Promise<Record<string, string>>;
  /**
   * A `multipart/form-data` upload whose single `file` part streams into the blob store (memory
   * stays flat whatever the size). See MultipartUploadOptions for the refusals; nothing is stored
   * when it rejects.
   */
  upload(ctx: WerkbankContext, options: MultipartUploadOptions): Promise<MultipartUpload>;
}
export const RequestBodies = token<RequestBodies>('RequestBodies');

export interface MultipartUploadOptions {
  /** Largest accepted file in bytes (default and ceiling: UPLOAD_MAX_BYTES); more is 413 `file_too_large`. */
  maxBytes?: number;
  /**
   * Called once when the file part begins, with the text fields sent before it and the file's
   * name. May throw (e.g. ApiError 400 `invalid_path`, 409 `duplicate_name`) to refuse the
   * upload: then nothing is stored and readMultipartUpload rejects with that error.
   */
  beforeFile?: (fields: Record<string, string>, filename: string) => Promise<void>;
  /** A request without a `file` part resolves without `file` instead of 400 `file_missing`. */
  fileOptional?: boolean;
  /** Accept a file without bytes (default: 400 `empty_file`). */
  allowEmpty?: boolean;
  /** An upload that sends nothing for this long is stopped with 408 `upload_stalled` (default 2 min). */
  idleTimeoutMs?: number;
}

export interface MultipartUpload {
  /** Every text field of the form (the last one wins for repeated names). */
  fields: Record<string, string>;
  file?: { filename: string; blob: BlobInfo };
}
