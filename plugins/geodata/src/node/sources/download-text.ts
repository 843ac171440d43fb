import { ApiError } from '@werkbank/sdk/node';

/** A failure of a sources function, with its reason in German and English (`geodata-sources:errors.*`). */
export function sourcesFailure(code: string, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `geodata-sources:errors.${code}`, params);
}

/**
 * The text of a downloaded body: decoded in the charset of `content-type` (UTF-8 when none is
 * named; a UTF-8 byte order mark is dropped). Fails `not_text` for bytes that are no valid text in
 * that charset or hold NUL bytes (binary files), `unknown_charset` for a charset the runtime lacks.
 */
export function decodeText(bytes: Buffer, contentType: string | undefined, url: string): string {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase() || 'application/octet-stream';
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: false });
  } catch {
    throw sourcesFailure('unknown_charset', { url, charset });
  }
  if (bytes.includes(0)) throw sourcesFailure('not_text', { url, mime_type: mime });
  try {
    return decoder.decode(bytes);
  } catch {
    throw sourcesFailure('not_text', { url, mime_type: mime });
  }
}
