import { layerServiceName, type Layer } from '@werkbank/plugin-layers/api';
import type { Geometry } from '../../common/wfs-geometry';
import { WmsProblem } from '../../common/wms-params';
import type { ServedFeature } from '../published-layers';
import { GmlWriter, GML_NS, esc } from '../wfs-gml';

/** An InfoFormat of WMTS GetFeatureInfo and the file extension of its RESTful address. */
export interface WmtsInfoFormat {
  mime: string;
  extension: string;
}

/** The InfoFormats the WMTS offers (WMTS 1.0.0 §7.3.1), in the order the capabilities list them. */
export const WMTS_INFO_FORMATS: readonly WmtsInfoFormat[] = [
  { mime: 'text/html', extension: 'html' },
  { mime: 'application/gml+xml; version=3.2', extension: 'gml' },
  { mime: 'application/json', extension: 'json' },
];

/**
 * INFOFORMAT of a KVP request: one of WMTS_INFO_FORMATS, in any case and spacing (a `+` sent
 * unencoded arrives as a space). Throws InvalidParameterValue (locator `infoformat`) for others.
 */
export function wmtsInfoFormat(raw: string): WmtsInfoFormat {
  const v = raw
    .trim()
    .toLowerCase()
    .replace(/^application\/gml[ +]xml/, 'application/gml+xml')
    .replace(/\s+/g, '');
  const found = WMTS_INFO_FORMATS.find((f) => f.mime.replace(/\s+/g, '') === v);
  if (!found) throw unknownFormat(raw);
  return found;
}

/** The InfoFormat of a RESTful address's extension (`.json`, `.html`, `.gml`); InvalidParameterValue for others. */
export function wmtsInfoFormatOfExtension(extension: string): WmtsInfoFormat {
  const found = WMTS_INFO_FORMATS.find((f) => f.extension === extension.toLowerCase());
  if (!found) throw unknownFormat(extension);
  return found;
}

function unknownFormat(raw: string): WmsProblem {
  return new WmsProblem(
    'InvalidParameterValue',
    'infoformat',
    { format: raw.slice(0, 60), formats: WMTS_INFO_FORMATS.map((f) => f.mime).join(', ') },
    'infoformat',
  );
}

/**
 * The features as GML 3.2 in a WFS 2.0 FeatureCollection, each as the WFS writes it (decision 0083
 * "WFS": type `wb:` + the service name in the namespace of the layer's WFS address, positions in
 * urn:ogc:def:crs:EPSG::4326, latitude first), so that a client reads the same features both ways.
 */
export function featureInfoGml32(layer: Layer, wfsUrl: string, features: ServedFeature[]): string {
  const name = layerServiceName(layer);
  const type = /^[A-Za-z_]/.test(name) ? name : `layer_${name}`;
  const gml = new GmlWriter('3.2', 'urn:ogc:def:crs:EPSG::4326', true);
  const members = features.map(
    (f) => `<wfs:member>${gml.feature(type, f.id, f.geometry as Geometry | null, f.properties ?? null)}</wfs:member>`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="${GML_NS['3.2']}" xmlns:wb="${esc(wfsUrl)}"` +
    ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` +
    ` xsi:schemaLocation="http://www.opengis.net/wfs/2.0 http://schemas.opengis.net/wfs/2.0/wfs.xsd http://www.opengis.net/gml/3.2 http://schemas.opengis.net/gml/3.2.1/gml.xsd"` +
    ` timeStamp="${new Date().toISOString()}" numberMatched="unknown" numberReturned="${features.length}">\n` +
    members.join('\n') +
    (members.length ? '\n' : '') +
    `</wfs:FeatureCollection>\n`
  );
}
