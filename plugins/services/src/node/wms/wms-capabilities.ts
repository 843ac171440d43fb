import type { LayerStyle } from '@werkbank/plugin-layers/api';
import { IMAGE_FORMATS, INFO_FORMATS, PIXEL_METRES, WMS_CRS, type WmsVersion } from '../../common/wms-params';

/** XML text and attribute escaping. */
export const xml = (v: unknown) =>
  String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** The scale range the style draws in: the widest of its rules' (undefined ends are open). */
export function styleScaleRange(style: LayerStyle): { min?: number; max?: number } {
  const rules = style.rules ?? [];
  if (!rules.length) return {};
  const mins = rules.map((r) => r.min_scale_denominator);
  const maxs = rules.map((r) => r.max_scale_denominator);
  const min = mins.every((m) => typeof m === 'number') ? Math.min(...(mins as number[])) : undefined;
  const max = maxs.every((m) => typeof m === 'number') ? Math.max(...(maxs as number[])) : undefined;
  return { min, max };
}

export interface CapabilitiesInput {
  version: WmsVersion;
  /** The service's address with the query parameters every request must repeat (apikey, moment), ending in `?` or `&`. */
  url: string;
  /** The layer's name in requests. */
  name: string;
  title: string;
  abstract: string;
  /** The style's name in STYLES=. */
  styleName: string;
  styleTitle: string;
  style: LayerStyle;
  /** [west, south, east, north] in degrees. */
  extent: [number, number, number, number];
  /** Per offered CRS its box [minx, miny, maxx, maxy] (x east), when it could be computed. */
  boxes: Map<string, [number, number, number, number]>;
  maxSize: number;
  /** False: GetFeatureInfo finds nothing in this layer (default true). */
  queryable?: boolean;
  /** The legend's size in the LegendURL (default 200 wide, 20 px a rule); null: no LegendURL. */
  legend?: { width: number; height: number } | null;
  /** A metalayer's members (decision 0084): named child layers, nested as their stack. */
  children?: CapabilitiesLayer[];
}

/** A child Layer of a group (a metalayer's member): its own name, style, extent and children. */
export type CapabilitiesLayer = Omit<CapabilitiesInput, 'version' | 'url' | 'maxSize'>;

/** North-first CRSs whose 1.3.0 BoundingBox lists y first. */
const NORTH_FIRST = new Set(['EPSG:4326', 'EPSG:31466', 'EPSG:31467', 'EPSG:31468', 'EPSG:31469']);

/** The geographic extent element of a layer (1.3.0 EX_GeographicBoundingBox, 1.1.1 LatLonBoundingBox). */
function geographicXml([w, s, e, n]: [number, number, number, number], v13: boolean): string {
  return v13
    ? `<EX_GeographicBoundingBox><westBoundLongitude>${w}</westBoundLongitude><eastBoundLongitude>${e}</eastBoundLongitude><southBoundLatitude>${s}</southBoundLatitude><northBoundLatitude>${n}</northBoundLatitude></EX_GeographicBoundingBox>`
    : `<LatLonBoundingBox minx="${w}" miny="${s}" maxx="${e}" maxy="${n}"/>`;
}

/**
 * One named Layer element: its extent, boxes, style with LegendURL, scale range, and its children
 * (a metalayer's members, each requestable by its name at the same address). `crsList` is written
 * on the top named layer only; children inherit it.
 */
function layerXml(
  c: CapabilitiesInput,
  l: CapabilitiesLayer,
  v13: boolean,
  href: (query: string) => string,
  crsList: string,
): string {
  const crsTag = v13 ? 'CRS' : 'SRS';
  const range = styleScaleRange(l.style);
  const boxes = [...l.boxes]
    .map(([crs, b]) => {
      const [x0, y0, x1, y1] = v13 && NORTH_FIRST.has(crs) ? [b[1], b[0], b[3], b[2]] : b;
      return `<BoundingBox ${crsTag}="${crs}" minx="${x0}" miny="${y0}" maxx="${x1}" maxy="${y1}"/>`;
    })
    .join('');
  const legendUrl = `${c.url}SERVICE=WMS&REQUEST=GetLegendGraphic&VERSION=${c.version}&FORMAT=image/png&LAYER=${encodeURIComponent(l.name)}&STYLE=${encodeURIComponent(l.styleName)}`;
  const legend = l.legend === undefined ? { width: 200, height: Math.max(1, l.style.rules.length) * 20 } : l.legend;
  const style =
    `<Style><Name>${xml(l.styleName)}</Name><Title>${xml(l.styleTitle)}</Title>` +
    (legend
      ? `<LegendURL width="${legend.width}" height="${legend.height}"><Format>image/png</Format>${href(legendUrl.slice(c.url.length))}</LegendURL>`
      : '') +
    `</Style>`;
  const scale = l.children
    ? ''
    : v13
      ? (range.min !== undefined ? `<MinScaleDenominator>${range.min}</MinScaleDenominator>` : '') +
        (range.max !== undefined ? `<MaxScaleDenominator>${range.max}</MaxScaleDenominator>` : '')
      : range.min !== undefined || range.max !== undefined
        ? `<ScaleHint min="${(range.min ?? 0) * PIXEL_METRES * Math.SQRT2}" max="${(range.max ?? 1e12) * PIXEL_METRES * Math.SQRT2}"/>`
        : '';
  const children = (l.children ?? []).map((child) => layerXml(c, child, v13, href, '')).join('');
  return (
    `<Layer queryable="${l.queryable === false ? 0 : 1}"><Name>${xml(l.name)}</Name><Title>${xml(l.title)}</Title>` +
    (l.abstract ? `<Abstract>${xml(l.abstract)}</Abstract>` : '') +
    `${crsList}${geographicXml(l.extent, v13)}${boxes}${style}${scale}${children}</Layer>`
  );
}

/** The capabilities document of a one-layer WMS in version 1.3.0 or 1.1.1. */
export function capabilitiesXml(c: CapabilitiesInput): string {
  const v13 = c.version === '1.3.0';
  const href = (query: string) =>
    `<OnlineResource xmlns:xlink="http://www.w3.org/1999/xlink" xlink:type="simple" xlink:href="${xml(c.url + query)}"/>`;
  const dcp = `<DCPType><HTTP><Get>${href('')}</Get></HTTP></DCPType>`;
  const op = (name: string, formats: readonly string[]) =>
    `<${name}>${formats.map((f) => `<Format>${xml(f)}</Format>`).join('')}${dcp}</${name}>`;
  const capsFormat = v13 ? 'text/xml' : 'application/vnd.ogc.wms_xml';
  const crsTag = v13 ? 'CRS' : 'SRS';
  const crsList = WMS_CRS.filter((x) => v13 || x !== 'CRS:84')
    .map((x) => `<${crsTag}>${x}</${crsTag}>`)
    .join('');
  const layer = layerXml(c, c, v13, href, crsList);
  const root = `<Layer><Title>${xml(c.title)}</Title>${crsList}${geographicXml(c.extent, v13)}${layer}</Layer>`;
  const exceptions = v13
    ? ['XML', 'INIMAGE', 'BLANK']
    : ['application/vnd.ogc.se_xml', 'application/vnd.ogc.se_inimage', 'application/vnd.ogc.se_blank'];
  const request =
    `<Request>${op('GetCapabilities', [capsFormat])}${op('GetMap', IMAGE_FORMATS)}${op('GetFeatureInfo', INFO_FORMATS)}` +
    `${v13 ? `<sld:GetLegendGraphic>${['image/png', 'image/jpeg'].map((f) => `<Format>${f}</Format>`).join('')}${dcp}</sld:GetLegendGraphic>` : op('GetLegendGraphic', IMAGE_FORMATS)}</Request>`;
  const exception = `<Exception>${exceptions.map((f) => `<Format>${f}</Format>`).join('')}</Exception>`;
  const service =
    `<Service><Name>${v13 ? 'WMS' : 'OGC:WMS'}</Name><Title>${xml(c.title)}</Title>` +
    (c.abstract ? `<Abstract>${xml(c.abstract)}</Abstract>` : '') +
    `${href('')}${v13 ? `<MaxWidth>${c.maxSize}</MaxWidth><MaxHeight>${c.maxSize}</MaxHeight>` : ''}</Service>`;
  if (v13)
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n<WMS_Capabilities version="1.3.0" xmlns="http://www.opengis.net/wms" ` +
      `xmlns:sld="http://www.opengis.net/sld" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
      `xsi:schemaLocation="http://www.opengis.net/wms http://schemas.opengis.net/wms/1.3.0/capabilities_1_3_0.xsd http://www.opengis.net/sld http://schemas.opengis.net/sld/1.1.0/sld_capabilities.xsd">` +
      `${service}<Capability>${request}${exception}${root}</Capability></WMS_Capabilities>\n`
    );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<WMT_MS_Capabilities version="1.1.1">` +
    `${service}<Capability>${request}${exception}${root}</Capability></WMT_MS_Capabilities>\n`
  );
}

/** A ServiceExceptionReport (1.3.0 or 1.1.1) with one exception. */
export function exceptionXml(version: WmsVersion, code: string | undefined, locator: string | undefined, text: string): string {
  const attrs = `${code ? ` code="${xml(code)}"` : ''}${locator ? ` locator="${xml(locator)}"` : ''}`;
  const head =
    version === '1.3.0'
      ? `<ServiceExceptionReport version="1.3.0" xmlns="http://www.opengis.net/ogc" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.opengis.net/ogc http://schemas.opengis.net/wms/1.3.0/exceptions_1_3_0.xsd">`
      : `<ServiceExceptionReport version="1.1.1">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}<ServiceException${attrs}>${xml(text)}</ServiceException></ServiceExceptionReport>\n`;
}
