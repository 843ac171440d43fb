import { tileLimits, type TileMatrixSet } from '../../common/tile-matrix-sets';
import { xml } from '../wms/wms-capabilities';
import type { WmtsInfoFormat } from './wmts-feature-info';

type Box = [number, number, number, number];

export interface WmtsCapabilitiesInput {
  /** The KVP address with the parameters every request must repeat (apikey, moment), ending in `?` or `&`. */
  kvpUrl: string;
  /** The RESTful base address (`…/services/wmts/{name}`), without a trailing slash. */
  restBase: string;
  /** The query every RESTful address repeats (`?apikey=…`), or empty. */
  restQuery: string;
  /** The layer's name in LAYER=. */
  name: string;
  title: string;
  abstract: string;
  styleName: string;
  styleTitle: string;
  /** [west, south, east, north] in degrees. */
  extent: Box;
  /** The tile matrix sets with the layer's box in each set's CRS (none: the whole set). */
  sets: Array<{ set: TileMatrixSet; box: Box | null }>;
  /** GetFeatureInfo's formats (InfoFormat, and a RESTful FeatureInfo resource each). */
  infoFormats: readonly WmtsInfoFormat[];
}

const num = (v: number) => String(Math.round(v * 1e9) / 1e9);

/** One operation of OperationsMetadata, offered as KVP and RESTful (GetCapabilities, GetTile, GetFeatureInfo). */
function operation(name: string, kvp: string, rest: string | null): string {
  const get = (href: string, encoding: string) =>
    `<ows:Get xlink:href="${xml(href)}"><ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>${encoding}</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>`;
  return (
    `<ows:Operation name="${name}"><ows:DCP><ows:HTTP>${get(kvp, 'KVP')}` +
    (rest ? get(rest, 'RESTful') : '') +
    `</ows:HTTP></ows:DCP></ows:Operation>`
  );
}

function tileMatrixSetXml(set: TileMatrixSet): string {
  const [x, y] = set.origin;
  const [minx, miny, maxx, maxy] = set.bounds;
  return (
    `<TileMatrixSet><ows:Title>${xml(set.title)}</ows:Title><ows:Identifier>${xml(set.id)}</ows:Identifier>` +
    `<ows:BoundingBox crs="${set.crsUrn}"><ows:LowerCorner>${num(minx)} ${num(miny)}</ows:LowerCorner><ows:UpperCorner>${num(maxx)} ${num(maxy)}</ows:UpperCorner></ows:BoundingBox>` +
    `<ows:SupportedCRS>${set.crsUrn}</ows:SupportedCRS>` +
    (set.wellKnownScaleSet ? `<WellKnownScaleSet>${set.wellKnownScaleSet}</WellKnownScaleSet>` : '') +
    set.matrices
      .map(
        (m) =>
          `<TileMatrix><ows:Identifier>${m.id}</ows:Identifier><ScaleDenominator>${m.scaleDenominator}</ScaleDenominator>` +
          `<TopLeftCorner>${num(x)} ${num(y)}</TopLeftCorner><TileWidth>${set.tileSize}</TileWidth><TileHeight>${set.tileSize}</TileHeight>` +
          `<MatrixWidth>${m.matrixWidth}</MatrixWidth><MatrixHeight>${m.matrixHeight}</MatrixHeight></TileMatrix>`,
      )
      .join('') +
    `</TileMatrixSet>`
  );
}

/** The link of the layer to a set, limited to the tiles its box meets (none when it meets none). */
function tileMatrixSetLink(set: TileMatrixSet, box: Box | null): string {
  if (!box) return `<TileMatrixSetLink><TileMatrixSet>${xml(set.id)}</TileMatrixSet></TileMatrixSetLink>`;
  const limits: string[] = [];
  for (const m of set.matrices) {
    const l = tileLimits(set, m, box);
    if (!l) return '';
    limits.push(
      `<TileMatrixLimits><TileMatrix>${m.id}</TileMatrix><MinTileRow>${l.minRow}</MinTileRow><MaxTileRow>${l.maxRow}</MaxTileRow>` +
        `<MinTileCol>${l.minCol}</MinTileCol><MaxTileCol>${l.maxCol}</MaxTileCol></TileMatrixLimits>`,
    );
  }
  return `<TileMatrixSetLink><TileMatrixSet>${xml(set.id)}</TileMatrixSet><TileMatrixSetLimits>${limits.join('')}</TileMatrixSetLimits></TileMatrixSetLink>`;
}

/** The capabilities document of a one-layer WMTS 1.0.0, KVP and RESTful. */
export function wmtsCapabilitiesXml(c: WmtsCapabilitiesInput): string {
  const [w, s, e, n] = c.extent;
  const capsRest = `${c.restBase}/1.0.0/WMTSCapabilities.xml${c.restQuery}`;
  const links = c.sets.map(({ set, box }) => tileMatrixSetLink(set, box)).filter(Boolean);
  const template = `${c.restBase}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png${c.restQuery}`;
  // WMTS 1.0.0 §10.2.2: a FeatureInfo resource per InfoFormat, the pixel as {J}/{I} below the tile.
  const infoTemplate = (f: WmtsInfoFormat) =>
    `${c.restBase}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}/{J}/{I}.${f.extension}${c.restQuery}`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:gml="http://www.opengis.net/gml" ` +
    `xsi:schemaLocation="http://www.opengis.net/wmts/1.0 http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd" version="1.0.0">` +
    `<ows:ServiceIdentification><ows:Title>${xml(c.title)}</ows:Title>` +
    (c.abstract ? `<ows:Abstract>${xml(c.abstract)}</ows:Abstract>` : '') +
    `<ows:ServiceType>OGC WMTS</ows:ServiceType><ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>` +
    `<ows:OperationsMetadata>` +
    operation('GetCapabilities', c.kvpUrl, capsRest) +
    operation('GetTile', c.kvpUrl, `${c.restBase}/`) +
    operation('GetFeatureInfo', c.kvpUrl, `${c.restBase}/`) +
    `</ows:OperationsMetadata>` +
    `<Contents><Layer><ows:Title>${xml(c.title)}</ows:Title>` +
    (c.abstract ? `<ows:Abstract>${xml(c.abstract)}</ows:Abstract>` : '') +
    `<ows:WGS84BoundingBox><ows:LowerCorner>${num(w)} ${num(s)}</ows:LowerCorner><ows:UpperCorner>${num(e)} ${num(n)}</ows:UpperCorner></ows:WGS84BoundingBox>` +
    `<ows:Identifier>${xml(c.name)}</ows:Identifier>` +
    `<Style isDefault="true"><ows:Title>${xml(c.styleTitle)}</ows:Title><ows:Identifier>${xml(c.styleName)}</ows:Identifier></Style>` +
    `<Format>image/png</Format>` +
    c.infoFormats.map((f) => `<InfoFormat>${xml(f.mime)}</InfoFormat>`).join('') +
    links.join('') +
    `<ResourceURL format="image/png" resourceType="tile" template="${xml(template)}"/>` +
    c.infoFormats
      .map((f) => `<ResourceURL format="${xml(f.mime)}" resourceType="FeatureInfo" template="${xml(infoTemplate(f))}"/>`)
      .join('') +
    `</Layer>` +
    c.sets.map(({ set }) => tileMatrixSetXml(set)).join('') +
    `</Contents>` +
    `<ServiceMetadataURL xlink:href="${xml(capsRest)}"/>` +
    `</Capabilities>\n`
  );
}

/** An OWS 1.1 exception report (WMTS 1.0.0 §7.4.1) in the caller's language. */
export function owsExceptionXml(code: string, locator: string | undefined, text: string, lang: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<ExceptionReport xmlns="http://www.opengis.net/ows/1.1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xsi:schemaLocation="http://www.opengis.net/ows/1.1 http://schemas.opengis.net/ows/1.1.0/owsExceptionReport.xsd" version="1.1.0" xml:lang="${xml(lang)}">` +
    `<Exception exceptionCode="${xml(code)}"${locator ? ` locator="${xml(locator)}"` : ''}><ExceptionText>${xml(text)}</ExceptionText></Exception>` +
    `</ExceptionReport>\n`
  );
}
