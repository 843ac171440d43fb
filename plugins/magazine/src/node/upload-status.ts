export interface UploadFileRow {
  path: string;
  status: 'uploading' | 'success' | 'failed';
  size: string | number;
  mime_type: string | null;
  reason: string | null;
  datum_id: number | null;
}

/**
 * The batch status (spec 000 §2 "File upload"): `started` while a file is uploading or none has
 * finished; `failure` when more than one file failed or none succeeded; otherwise `success`.
 * The list is `ready` once one upload succeeded.
 */
export function uploadStatus(files: UploadFileRow[]) {
  const count = (s: UploadFileRow['status']) => files.filter((f) => f.status === s).length;
  const uploading = count('uploading');
  const success = count('success');
  const failed = count('failed');
  const status = uploading > 0 || files.length === 0 ? 'started' : failed > 1 || success === 0 ? 'failure' : 'success';
  return {
    status,
    ready: success > 0,
    files: files.map((f) => ({
      path: f.path,
      status: f.status,
      size: Number(f.size),
      mime_type: f.mime_type,
      reason: f.reason,
      datum: f.datum_id,
    })),
  };
}
