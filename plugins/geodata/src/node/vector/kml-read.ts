import iconv from 'iconv-lite';
import { DOMParser, onErrorStopParsing, ParseError, type Document, type Element } from '@xmldom/xmldom';
import { kmlGen } from '@tmcw/togeojson';
import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { checkXmlSafe } from '../sources/xml-guard';
import { openZip } from './zip-read';
import { CHUNK, failure, yieldToLoop } from './vector-params';
import { toWgs84, type VectorSettings } from './vector-settings';
import { pickLayers } from './layer-choice';
import { asMulti, dropStyles } from './kml-features';

/** Largest KML text parsed (the document is held as a DOM, a few times its size). */
export const MAX_KML = 128 * 1024 * 1024;

/**
 * The features of a KML file or a KMZ archive (its doc.kml, else its first .kml at the top). The
 * text is decoded in the encoding setting (UTF-8 by default), refused by checkXmlSafe when it
 * declares a DOCTYPE or entities, then parsed by @xmldom/xmldom and converted by @tmcw/togeojson.
 * The layer setting keeps the placemarks inside a Folder or Document of that name. Styles do not
 * become properties; a MultiGeometry of one kind becomes a GeoJSON multi-geometry. KML is WGS 84;
 * only a crs setting makes auto_transform reproject. Throws `xml_invalid` with line and column,
 * `kml_not_kml`, `kmz_no_kml`, `layer_missing` and the sources area's `xml_doctype` and `zip_*`.
 */
export async function readKml(bytes: Buffer, settings: VectorSettings, ctx: FunctionRunContext): Promise<FrameItems> {
  const text = iconv.decode(isZip(bytes) ? await kmlOfKmz(bytes) : bytes, settings.encoding || 'utf-8');
  checkXmlSafe(text);
  const doc = parseXml(text);
  const root = doc.documentElement;
  if (!root || root.localName !== 'kml') throw failure('kml_not_kml', { root: root?.tagName ?? '–' });
  if (settings.layer && !keepLayer(doc, settings, ctx)) return [];
  ctx.progress(0.5);
  dropStyles(doc);
  const features: FrameItems = [];
  for (const feature of kmlGen(doc)) {
    features.push({ feature: { ...feature, geometry: asMulti(feature.geometry) } as unknown as Record<string, unknown> });
    if (features.length % CHUNK === 0) await yieldToLoop(ctx);
  }
  ctx.progress(1);
  return toWgs84(features, 'EPSG:4326', settings, ctx);
}

function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
}

/** The KML document of a KMZ archive, inflated with the KML size limit. */
async function kmlOfKmz(bytes: Buffer): Promise<Buffer> {
  const archive = openZip(bytes);
  const top = archive.entries.filter((e) => !e.directory && !e.name.includes('/') && /\.kml$/i.test(e.name));
  const entry = top.find((e) => e.name.toLowerCase() === 'doc.kml') ?? top[0];
  if (!entry) throw failure('kmz_no_kml');
  return archive.extract(entry, MAX_KML);
}

/** The XML document; broken XML fails with `xml_invalid` naming line and column. */
function parseXml(text: string): Document {
  if (text.length > MAX_KML) throw failure('file_too_large', { limit: `${MAX_KML / 1024 / 1024} MiB` });
  try {
    return new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'text/xml');
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    const reason = e.cause instanceof Error ? e.cause.message : e.message;
    const { lineNumber = 0, columnNumber = 0 } = e.locator ?? {};
    throw failure('xml_invalid', { line: lineNumber, column: columnNumber, reason });
  }
}

/**
 * Removes every placemark outside the Folders and Documents named like the layer setting; false
 * when there is none (and ignore_missing_layer allows that).
 */
function keepLayer(doc: Document, settings: VectorSettings, ctx: FunctionRunContext): boolean {
  const containers = [...Array.from(doc.getElementsByTagName('Document')), ...Array.from(doc.getElementsByTagName('Folder'))];
  const named = containers.map((element) => ({ element, layer: nameOf(element) })).filter((c) => c.layer);
  const chosen = pickLayers(named, settings, ctx).map((c) => c.element);
  if (!chosen.length) return false;
  for (const tag of ['Placemark', 'GroundOverlay']) {
    for (const placemark of Array.from(doc.getElementsByTagName(tag))) {
      if (!chosen.some((c) => isInside(placemark, c))) placemark.parentNode?.removeChild(placemark);
    }
  }
  return true;
}

/** The text of an element's own <name> child, '' when it has none. */
function nameOf(element: Element): string {
  for (const child of Array.from(element.childNodes)) {
    if (child.nodeType === 1 && (child as Element).localName === 'name') return (child.textContent ?? '').trim();
  }
  return '';
}

function isInside(node: Element, container: Element): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (p === container) return true;
  return false;
}
