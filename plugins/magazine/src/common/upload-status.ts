/** Per-file status (spec 000 §2 "File upload"); `queued` waits for its turn or the upload id. */
export type FileUploadStatus = 'queued' | 'uploading' | 'success' | 'failed';

/** The overall status of a batch (spec 000 §2, docs/api.md "Uploads"). */
export type UploadBatchStatus = 'started' | 'success' | 'failure';

/**
 * `started` while a file is waiting or uploading, or none finished; `failure` when more than one
 * file failed or none succeeded; otherwise `success`.
 */
export function batchStatus(files: Array<{ status: FileUploadStatus }>): UploadBatchStatus {
  const finished = files.filter((f) => f.status === 'success' || f.status === 'failed');
  if (!finished.length || files.some((f) => f.status === 'queued' || f.status === 'uploading')) return 'started';
  const failed = finished.filter((f) => f.status === 'failed').length;
  const succeeded = finished.length - failed;
  return failed > 1 || succeeded === 0 ? 'failure' : 'success';
}

/** spec 000 §2: the file list is ready once one upload succeeded. */
export const batchReady = (files: Array<{ status: FileUploadStatus }>) => files.some((f) => f.status === 'success');
