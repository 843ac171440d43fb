/** Files up to this size get a preview in the file editor (spec 001 §2.5: "a limit"; our choice). */
export const PREVIEW_MAX_BYTES = 5 * 1024 * 1024;
/** Height of the preview box in pixels (spec 001 §2.5). */
export const PREVIEW_HEIGHT = 400;

export type PreviewKind = 'image' | 'pdf' | 'text';

const TEXT_TYPES = [
  'application/json',
  'application/geo+json',
  'application/xml',
  'application/gml+xml',
  'application/vnd.google-earth.kml+xml',
  'application/gpx+xml',
  'application/javascript',
  'text/javascript',
];

/**
 * Which preview a file gets (spec 001 §2.5): images, PDF, and text types (JSON, XML, GML,
 * JavaScript, HTML, CSS, plain text) up to PREVIEW_MAX_BYTES; none otherwise. SVG is shown as
 * text: the server never serves it for display, as it may carry scripts.
 */
export function previewKind(mime: string | undefined, size: number | undefined): PreviewKind | undefined {
  if (!mime || size === undefined || size > PREVIEW_MAX_BYTES) return undefined;
  const type = mime.split(';')[0].trim().toLowerCase();
  if (type === 'image/svg+xml') return 'text';
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || TEXT_TYPES.includes(type) || type.endsWith('+xml') || type.endsWith('+json')) return 'text';
  return undefined;
}
