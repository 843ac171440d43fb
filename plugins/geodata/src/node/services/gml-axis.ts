import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { epsgCode } from '../reproject/crs-definitions';
import { resolveCrs } from '../reproject/crs-resolver';
import { featureReprojector } from '../reproject/reproject-geometry';
import { labelItems, labelled } from '../reproject/feature-crs';
import { CHUNK, yieldToLoop } from '../vector/vector-params';
import type { GmlGeometry } from './gml-geometry';
import type { GmlFeature } from './gml-read';

/** The vector import settings of spec 001 §3.4 that apply to GML and services. */
export interface CrsSettings {
  /** Reproject to EPSG:4326 (WGS 84) when the CRS is known and another one. */
  auto_transform: boolean;
  /** The CRS of the data, replacing the srsName of the document ('' to use it). */
  crs: string;
}

/**
 * Projected CRSs whose EPSG definition puts northing first (Gauss-Krüger zones 2–5, ETRS89-LAEA,
 * ETRS89-LCC). Geographic CRSs put latitude first as well; both only in the URN and http forms
 * (decision 0023).
 */
const NORTH_FIRST_PROJECTED = new Set([31466, 31467, 31468, 31469, 3034, 3035]);

/**
 * The CRS name in a form `epsgCode` reads: GML 2's `http://www.opengis.net/gml/srs/epsg.xml#4326`
 * becomes `EPSG:4326`, the old `urn:x-ogc:def:crs:EPSG:` becomes `urn:ogc:def:crs:EPSG:`.
 */
export function normalizeSrs(srsName: string): string {
  const gml2 = /^https?:\/\/www\.opengis\.net\/gml\/srs\/epsg\.xml#(\d+)$/i.exec(srsName);
  if (gml2) return `EPSG:${gml2[1]}`;
  return srsName.replace(/^urn:x-ogc:def:crs:/i, 'urn:ogc:def:crs:');
}

/**
 * True when positions in `srsName` are written northing (latitude) first: the OGC URN and http
 * forms (`urn:ogc:def:crs:EPSG::4326`, `http://www.opengis.net/def/crs/EPSG/0/4326`) follow the
 * EPSG axis order, which is latitude, longitude for geographic CRSs; `EPSG:4326` and CRS84 are
 * longitude, latitude by long-standing practice (WFS 1.0, GML 2, GeoJSON).
 */
export async function isNorthFirst(srsName: string): Promise<boolean> {
  const name = normalizeSrs(srsName);
  if (!/^(urn:ogc:def:crs:EPSG:|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/)/i.test(name)) return false;
  const code = epsgCode(name);
  if (code === undefined) return false;
  if (NORTH_FIRST_PROJECTED.has(code)) return true;
  try {
    return (await resolveCrs(`EPSG:${code}`)).geographic;
  } catch {
    return false;
  }
}

/**
 * GML features as feature datums in x, y (east, north) order, reprojected to EPSG:4326 when the
 * settings ask for it (each feature from its own srsName, or from `settings.crs` when given).
 * `defaultSrs` applies to features without any srsName. Reprojection failures name the feature
 * index (`offset` + its place; geodata-reproject reasons).
 */
export async function gmlFeatureItems(
  features: GmlFeature[],
  settings: CrsSettings,
  ctx: FunctionRunContext,
  offset = 0,
  defaultSrs = '',
): Promise<FrameItems> {
  const ways = new Map<string, Promise<(g: GmlFeature, index: number) => Record<string, unknown>>>();
  const items: FrameItems = [];
  for (const [i, f] of features.entries()) {
    const srs = normalizeSrs(settings.crs || f.srsName || defaultSrs);
    let way = ways.get(srs);
    if (!way) {
      way = orientation(srs, settings);
      ways.set(srs, way);
    }
    items.push({ feature: (await way)(f, offset + i) });
    if ((i + 1) % CHUNK === 0) await yieldToLoop(ctx);
  }
  return items;
}

/** How features in `srs` become GeoJSON: axes swapped when north comes first, then reprojected. */
async function orientation(
  srs: string,
  settings: CrsSettings,
): Promise<(g: GmlFeature, index: number) => Record<string, unknown>> {
  const swap = srs ? await isNorthFirst(srs) : false;
  const reproject =
    settings.auto_transform && srs && epsgCode(srs) !== 4326 ? await featureReprojector(srs, 'EPSG:4326') : undefined;
  // Kept in its own CRS (auto_transform off), a feature says which it is (decision 0035).
  const code = srs ? epsgCode(srs) : undefined;
  const keep = (feature: Record<string, unknown>) => (code && code !== 4326 ? labelled(feature, `EPSG:${code}`) : feature);
  return (f, index) => {
    const geometry = f.geometry && swap ? swapAxes(f.geometry) : f.geometry;
    const feature = { type: 'Feature', ...(f.id ? { id: f.id } : {}), geometry, properties: f.properties };
    return reproject ? reproject(feature, index) : keep(feature);
  };
}

/** The geometry with the first two values of every position exchanged. */
function swapAxes(g: GmlGeometry): GmlGeometry {
  if (g.geometries) return { ...g, geometries: g.geometries.map(swapAxes) };
  return { ...g, coordinates: swapped(g.coordinates) };
}

function swapped(c: unknown): unknown {
  if (!Array.isArray(c)) return c;
  if (typeof c[0] === 'number') return [c[1], c[0], ...c.slice(2)];
  return c.map(swapped);
}

/**
 * GeoJSON feature datums (a service's GeoJSON answer) reprojected to EPSG:4326 when the settings
 * ask for it, from `settings.crs` or else the answer's `crs` member; GeoJSON positions are x, y
 * (RFC 7946) whatever the crs member's form. `offset` numbers the features in messages.
 */
export async function reprojectItems(
  items: FrameItems,
  from: string | undefined,
  settings: CrsSettings,
  ctx: FunctionRunContext,
  offset = 0,
): Promise<FrameItems> {
  const crs = normalizeSrs(settings.crs || from || '');
  const code = crs ? epsgCode(crs) : undefined;
  if (!crs || code === 4326) return items;
  if (!settings.auto_transform) return code ? labelItems(items, `EPSG:${code}`) : items;
  const reproject = await featureReprojector(crs, 'EPSG:4326');
  const result: FrameItems = [];
  for (const [i, item] of items.entries()) {
    result.push({ ...item, feature: reproject(item.feature, offset + i) });
    if ((i + 1) % CHUNK === 0) await yieldToLoop(ctx);
  }
  return result;
}
