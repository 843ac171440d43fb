import { ApiError } from '@werkbank/sdk/node';

/** "5 GiB", "10 MiB", "512 B": a size limit as people read it (the same in German and English). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Number(value.toFixed(1))} ${units[unit]}`;
}

/** 413 `file_too_large`: the upload is larger than `maxBytes` (UPLOAD_MAX_BYTES). */
export function fileTooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'file_too_large', 'errors.file_too_large', { limit: formatBytes(maxBytes), bytes: maxBytes });
}

/** 400 `empty_file`: the upload has no bytes. */
export function emptyFile(): ApiError {
  return ApiError.badRequest('empty_file', 'errors.empty_file');
}
