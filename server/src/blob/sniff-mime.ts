import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes sniffMime looks at (file-type's detection window). */
export const SNIFF_BYTES = 4100;

const GEOJSON_TYPES = new Set([
  'FeatureCollection',
  'Feature',
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
]);

/** Refinements a file name extension may make, and only of a text type of the given family. */
const PLAIN_BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  md: 'text/markdown',
};
const XML_BY_EXTENSION: Record<string, string> = {
  gml: 'application/gml+xml',
  kml: 'application/vnd.google-earth.kml+xml',
  gpx: 'application/gpx+xml',
};

/**
 * Binary types by extension, used only when file-type fails on the head (it reads zip entries and
 * can run past the sample, decision in DESIGN §7): the zip-based type the name promises, never a
 * text type (nor a format that is not a zip, such as a GeoPackage).
 */
const BINARY_BY_EXTENSION: Record<string, string> = {
  zip: 'application/zip',
  kmz: 'application/vnd.google-earth.kmz',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};
/** A zip archive's local file header: what every zip-based format starts with. */
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/**
 * The media type of a file from its first bytes (`head`, up to SNIFF_BYTES; `complete` when that
 * is the whole file). Binary formats come from file-type; otherwise valid UTF-8 without NUL or
 * control bytes is text: JSON (GeoJSON by its `type`), XML (GML by a `gml:` root or GML namespace,
 * SVG, KML, GPX), HTML, or plain text. The file name's extension only refines a text type
 * (`.csv` → text/csv, `.gml` on XML → GML); it never turns binary into text or text into binary.
 * Anything else is application/octet-stream. Never rejects: sniffing must not fail an upload
 * (issue 14 item 1). When file-type fails on the head (a zip whose first entry runs past the
 * sample), a zip-based extension names the type, else any zip is application/zip.
 */
export async function sniffMime(head: Uint8Array, opts: { complete: boolean; filename?: string }): Promise<string> {
  try {
    return await sniff(head, opts);
  } catch {
    return 'application/octet-stream';
  }
}

async function sniff(head: Uint8Array, opts: { complete: boolean; filename?: string }): Promise<string> {
  if (head.length === 0) return 'application/octet-stream';
  const ext = extensionOf(opts.filename);
  let found: Awaited<ReturnType<typeof fileTypeFromBuffer>>;
  try {
    found = await fileTypeFromBuffer(head);
  } catch {
    const zip = ZIP_SIGNATURE.every((b, i) => head[i] === b);
    if (zip) return BINARY_BY_EXTENSION[ext] ?? 'application/zip';
    found = undefined;
  }
  // file-type reports any `<?xml` file as application/xml: let the text rules name the dialect.
  if (found && found.mime !== 'application/xml') return found.mime;
  const text = decodeText(head, opts.complete);
  if (text === undefined) return found?.mime ?? 'application/octet-stream';
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const json = jsonMime(start, opts.complete, ext);
    if (json) return json;
  }
  if (start.startsWith('<')) {
    const markup = markupMime(start, ext);
    if (markup) return markup;
  }
  return PLAIN_BY_EXTENSION[ext] ?? 'text/plain';
}

function extensionOf(filename: string | undefined): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(filename ?? '');
  return m ? m[1].toLowerCase() : '';
}

/** The head as text, or undefined when it is not UTF-8 text (a cut-off last character is fine). */
function decodeText(head: Uint8Array, complete: boolean): string | undefined {
  for (const b of head) {
    // NUL and control bytes other than tab, newlines, form feed and escape mark binary data.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !complete });
  } catch {
    return undefined;
  }
}

/** JSON when it parses (whole file) or looks like JSON (a head); GeoJSON by its `type` member. */
function jsonMime(text: string, complete: boolean, ext: string): string | undefined {
  let geo: boolean;
  if (complete) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const type = value && typeof value === 'object' && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
    geo = typeof type === 'string' && GEOJSON_TYPES.has(type);
  } else {
    if (!/^(\{\s*("|\})|\[\s*([[{"\-\d\]]|true|false|null))/.test(text)) return undefined;
    const type = /"type"\s*:\s*"([A-Za-z]+)"/.exec(text);
    geo = !!type && GEOJSON_TYPES.has(type[1]);
  }
  return geo || ext === 'geojson' ? 'application/geo+json' : 'application/json';
}

/** XML dialects by their root element, or HTML; undefined when no root element is found. */
function markupMime(text: string, ext: string): string | undefined {
  // Skip the XML declaration, processing instructions, comments and a doctype before the root.
  const prolog = /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)*/i;
  const skipped = prolog.exec(text)?.[0] ?? '';
  if (/<!DOCTYPE\s+html\b/i.test(skipped)) return 'text/html';
  const root = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)([^>]*)/.exec(text.slice(skipped.length));
  if (!root) return undefined;
  const [, name, attributes] = root;
  const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  if (name.toLowerCase() === 'html') return 'text/html';
  if (local === 'svg') return 'image/svg+xml';
  if (name.startsWith('gml:') || /\bxmlns\s*=\s*["']http:\/\/www\.opengis\.net\/gml/.test(attributes)) {
    return 'application/gml+xml';
  }
  if (local === 'kml') return XML_BY_EXTENSION.kml;
  if (local === 'gpx') return XML_BY_EXTENSION.gpx;
  return XML_BY_EXTENSION[ext] ?? 'application/xml';
}
