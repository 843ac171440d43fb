import type { FrameItems, FunctionDescriptor } from '@werkbank/sdk/node';
import { textParam } from '../vector/vector-params';
import { fetchXml, withParams, type Net } from './service-fetch';
import { attr, child, children, childText, textOf, throwIfException, type XmlNode } from './service-xml';
import { servicesFailure } from './services-failure';
import { serviceUrl } from './services-params';
import { absoluteOr } from './wfs-capabilities';
import { names } from './wms-import';

/** A `wmts` datum (types plugin): one layer of a Web Map Tile Service as a tile URL template. */
export interface WmtsDatum {
  tms_url: string;
  bbox: number[];
  /** The layer identifier (kept for messages and picking; not part of the datum). */
  layers: string;
}

/** Tile matrix sets in Web Mercator that XYZ tile clients can show: preferred when a layer offers one. */
const WEB_MERCATOR = /GoogleMapsCompatible|WebMercatorQuad|EPSG:{1,2}(3857|900913)|^(3857|900913)$|google/i;

/**
 * `wmts.import`: the layers of a Web Map Tile Service (WMTS 1.0.0; KVP or RESTful capabilities)
 * as `wmts` datums with a tile URL template and the WGS 84 bounding box.
 */
export function wmtsImport(net: () => Net): FunctionDescriptor {
  return {
    id: 'wmts.import',
    version: '1',
    verbose_name: { de: 'WMTS importieren', en: 'Import WMTS' },
    doc: {
      de:
        'Liest die Capabilities eines Web Map Tile Service (WMTS 1.0.0) unter der Adresse url (eine Dienstadresse oder die ' +
        'RESTful-Datei …/WMTSCapabilities.xml) und gibt je Ebene ein wmts-Datum aus: tms_url, eine Kachel-URL-Vorlage für die ' +
        'gewählte Kachelmatrix (bevorzugt Web Mercator: GoogleMapsCompatible, WebMercatorQuad, EPSG:3857), und bbox (Länge/Breite ' +
        'aus ows:WGS84BoundingBox). Die Vorlage kommt aus ResourceURL (RESTful), sonst aus GetTile (KVP); bei Web Mercator mit ' +
        'nummerierten Zoomstufen enthält sie {z}, {x} und {y}, sonst {TileMatrix}, {TileRow} und {TileCol}. Mit layer nur diese Ebene.',
      en:
        'Reads the capabilities of a Web Map Tile Service (WMTS 1.0.0) at the address url (a service address or the RESTful ' +
        'file …/WMTSCapabilities.xml) and outputs a wmts datum per layer: tms_url, a tile URL template for the chosen tile ' +
        'matrix set (Web Mercator preferred: GoogleMapsCompatible, WebMercatorQuad, EPSG:3857), and bbox (longitude/latitude ' +
        'from ows:WGS84BoundingBox). The template comes from ResourceURL (RESTful), else from GetTile (KVP); for Web Mercator ' +
        'with numbered zoom levels it holds {z}, {x} and {y}, else {TileMatrix}, {TileRow} and {TileCol}. With layer only that layer.',
    },
    inputs: [
      { name: 'url', content_type: 'string' },
      { name: 'layer', content_type: 'string', is_optional: true },
    ],
    outputs: [{ name: 'layers', content_type: 'wmts' }],
    run: async (inputs, ctx) => {
      const url = serviceUrl(inputs);
      const wanted = textParam(inputs, 'layer');
      const doc = await fetchXml(net(), capabilitiesUrl(url), ctx);
      ctx.progress(0.5);
      throwIfException(doc, url);
      if (doc.root !== 'Capabilities' || !child(doc.node, 'Contents'))
        throw servicesFailure('not_a_service', { url, service: 'WMTS', root: doc.root });
      const contents = child(doc.node, 'Contents');
      const sets = new Map(children(contents, 'TileMatrixSet').map((s) => [childText(s, 'Identifier'), s]));
      const kvp = getTileKvpUrl(doc.node, url);
      const all = children(contents, 'Layer').map((layer) => layerDatum(layer, sets, kvp));
      if (!all.length) throw servicesFailure('no_layers', { url, service: 'WMTS' });
      const chosen = wanted ? all.filter((l) => l.layers === wanted) : all;
      if (!chosen.length) throw servicesFailure('unknown_layer', { url, layer: wanted, available: names(all) });
      ctx.log(`WMTS: ${all.length} layers`);
      ctx.progress(1);
      return { layers: chosen.map(({ tms_url, bbox }) => ({ tms_url, bbox })) as FrameItems };
    },
  };
}

/** The RESTful capabilities document as given (`….xml`), else a KVP GetCapabilities request. */
function capabilitiesUrl(url: string): string {
  if (/\.xml$/i.test(new URL(url).pathname)) return url;
  const base = new URL(url);
  for (const key of [...base.searchParams.keys()])
    if (['service', 'request', 'version'].includes(key.toLowerCase())) base.searchParams.delete(key);
  return withParams(base.href, { SERVICE: 'WMTS', REQUEST: 'GetCapabilities' });
}

/** The KVP GetTile address from OperationsMetadata (the Get with GetEncoding KVP, or without one); else `url`'s. */
function getTileKvpUrl(root: XmlNode, url: string): string {
  const op = children(child(root, 'OperationsMetadata'), 'Operation').find((o) => attr(o, 'name') === 'GetTile');
  const gets = children(child(child(op, 'DCP'), 'HTTP'), 'Get');
  const encodings = (g: XmlNode) => children(child(child(g, 'Constraint'), 'AllowedValues'), 'Value').map(textOf);
  const get = gets.find((g) => encodings(g).includes('KVP')) ?? gets.find((g) => !encodings(g).length);
  const base = new URL(url);
  base.search = '';
  return absoluteOr(attr(get, 'href'), base.href);
}

/** One layer's datum: its template for the chosen tile matrix set and its WGS 84 box. */
function layerDatum(layer: XmlNode, sets: Map<string, XmlNode>, kvp: string): WmtsDatum {
  const id = childText(layer, 'Identifier');
  const links = children(layer, 'TileMatrixSetLink').map((l) => childText(l, 'TileMatrixSet'));
  const isMercator = (setId: string) => {
    const set = sets.get(setId);
    return [setId, childText(set, 'SupportedCRS'), childText(set, 'WellKnownScaleSet')].some((t) => t && WEB_MERCATOR.test(t));
  };
  const setId = links.find(isMercator) ?? links[0] ?? '';
  const styles = children(layer, 'Style');
  const style = childText(styles.find((s) => attr(s, 'isDefault') === 'true') ?? styles[0], 'Identifier') || 'default';
  const formats = children(layer, 'Format').map(textOf);
  const tiles = children(layer, 'ResourceURL').filter((r) => attr(r, 'resourceType') === 'tile');
  const resource = tiles.find((r) => /png/i.test(attr(r, 'format'))) ?? tiles[0];
  const format = attr(resource, 'format') || formats.find((f) => /png/i.test(f)) || formats[0] || 'image/png';
  let template = resource
    ? attr(resource, 'template')
    : `${kvp}${kvp.includes('?') ? (kvp.endsWith('?') || kvp.endsWith('&') ? '' : '&') : '?'}` +
      `SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${encodeURIComponent(id)}&STYLE=${encodeURIComponent(style)}` +
      `&TILEMATRIXSET=${encodeURIComponent(setId)}&TILEMATRIX={TileMatrix}&TILEROW={TileRow}&TILECOL={TileCol}&FORMAT=${encodeURIComponent(format)}`;
  template = template.replace(/\{TileMatrixSet\}/gi, setId).replace(/\{Style\}/gi, style);
  for (const d of children(layer, 'Dimension'))
    template = template.split(`{${childText(d, 'Identifier')}}`).join(childText(d, 'Default') || childText(d, 'Value'));
  const prefix = isMercator(setId) ? zoomPrefix(sets.get(setId)) : undefined;
  if (prefix !== undefined)
    template = template
      .replace(/\{TileMatrix\}/gi, `${prefix}{z}`)
      .replace(/\{TileRow\}/gi, '{y}')
      .replace(/\{TileCol\}/gi, '{x}');
  return { tms_url: template, bbox: wgs84Box(layer), layers: id };
}

/**
 * The common prefix of a set's TileMatrix identifiers when they are that prefix followed by the
 * zoom level 0, 1, 2, … in order ('' for "0", "1", …; "EPSG:3857:" for "EPSG:3857:0", …), else undefined.
 */
function zoomPrefix(set: XmlNode | undefined): string | undefined {
  const ids = children(set, 'TileMatrix').map((m) => childText(m, 'Identifier'));
  if (!ids.length || !ids[0].endsWith('0')) return undefined;
  const prefix = ids[0].slice(0, -1);
  return ids.every((id, z) => id === `${prefix}${z}`) ? prefix : undefined;
}

/** [west, south, east, north] of ows:WGS84BoundingBox; the whole world when the layer names none. */
function wgs84Box(layer: XmlNode): number[] {
  const box = child(layer, 'WGS84BoundingBox');
  const lower = textOf(child(box, 'LowerCorner')).split(/\s+/).map(Number);
  const upper = textOf(child(box, 'UpperCorner')).split(/\s+/).map(Number);
  const result = [lower[0], lower[1], upper[0], upper[1]];
  return box && result.every(Number.isFinite) ? result : [-180, -90, 180, 90];
}
