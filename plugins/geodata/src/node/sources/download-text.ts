import { failureOf } from '../failure';
import en from './i18n/en.json' with { type: 'json' };

/** The reasons the sources functions fail with: one per message, so that the type checker refuses a reason without one. */
export type SourcesFailure = keyof typeof en.errors;

/** A failure of a sources function, with its reason in German and English (`geodata-sources:errors.*`). */
export const sourcesFailure = failureOf<SourcesFailure>('geodata-sources');

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

/** Characters a downloaded file's name may not hold: path separators, controls, bidi overrides (spoofed extensions), and what Windows forbids. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const UNSAFE_NAME = /[\\/\x00-\x1f\x7f<>:"|?*\u202a-\u202e\u2066-\u2069]+/g;

/**
 * The name a downloaded file gets: the `filename*` (RFC 8187, UTF-8 or ISO-8859-1) or `filename` of Content-Disposition,
 * else the last segment of the URL's path, else `download`; reduced to a plain file name (no
 * folders, no control characters) of at most 200 characters.
 */
export function downloadName(disposition: string | string[] | undefined, url: string): string {
  const header = Array.isArray(disposition) ? disposition[0] : disposition;
  let name = '';
  const extended = /filename\*\s*=\s*(utf-8|iso-8859-1)'[^']*'([^;]+)/i.exec(header ?? '');
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header ?? '');
  try {
    if (extended) {
      const value = extended[2].trim();
      // RFC 8187: percent-encoded bytes in the charset named; ISO-8859-1's bytes are its code points.
      name =
        extended[1].toLowerCase() === 'utf-8'
          ? decodeURIComponent(value)
          : value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  } catch {
    name = '';
  }
  if (!name && plain) name = (plain[1] ?? plain[2] ?? '').trim();
  if (!name) {
    try {
      const segments = new URL(url).pathname.split('/').filter(Boolean);
      name = decodeURIComponent(segments[segments.length - 1] ?? '');
    } catch {
      name = '';
    }
  }
  return plainFileName(name, 'download');
}

/**
 * `name` as a plain file name for a file a function outputs: its last path segment, without
 * control characters, bidi overrides or leading dots, at most 200 characters; `fallback` when
 * nothing is left.
 */
export function plainFileName(name: string, fallback: string): string {
  const plain = (name.split(/[\\/]/).pop() ?? '').replace(UNSAFE_NAME, '_').replace(/^\.+/, '').trim().slice(0, 200);
  return plain || fallback;
}
