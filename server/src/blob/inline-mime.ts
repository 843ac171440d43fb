/** Types a browser shows without running anything: served inline as they are. */
const INLINE_AS_IS = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/apng',
  'application/pdf',
  'application/json',
  'application/geo+json',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'video/mp4',
  'video/webm',
  'video/ogg',
]);

/** Text shown as source, never rendered: served inline as text/plain. SVG and HTML are not here. */
const INLINE_AS_TEXT = new Set([
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'text/markdown',
  'application/xml',
  'text/xml',
  'application/gml+xml',
  'application/vnd.google-earth.kml+xml',
  'application/gpx+xml',
]);

/**
 * What a blob of type `mime` is sent as. `inline` is honoured only for types that cannot run
 * script in a browser (images except SVG, PDF, JSON, media; XML dialects and other text as
 * text/plain); anything else (HTML, SVG, unknown) becomes an application/octet-stream
 * attachment. Attachments keep their type. Text is UTF-8 (sniffMime only calls UTF-8 text).
 */
export function servedAs(
  mime: string,
  disposition: 'attachment' | 'inline',
): { contentType: string; disposition: 'attachment' | 'inline' } {
  const withCharset = (type: string) => (type.startsWith('text/') ? `${type}; charset=utf-8` : type);
  if (disposition === 'attachment') return { contentType: withCharset(mime), disposition };
  if (INLINE_AS_IS.has(mime)) return { contentType: mime, disposition };
  if (INLINE_AS_TEXT.has(mime)) return { contentType: 'text/plain; charset=utf-8', disposition };
  return { contentType: 'application/octet-stream', disposition: 'attachment' };
}
