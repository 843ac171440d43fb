/**
 * The coordinate reference systems reproject knows without asking PROJ: PROJ strings exactly as
 * PROJ 9 writes them (`projinfo EPSG:<code> -o PROJ -q`), so proj4 computes what cs2cs computes.
 * Axis order is always east, north (longitude, latitude), as in GeoJSON.
 */
import { EPSG_25832 } from '@werkbank/sdk';

/** DHDN to WGS 84: the Helmert parameters PROJ writes for the Gauss-Krüger CRSs (EPSG:1777 family). */
export const DHDN_TOWGS84 = '+towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7';

/**
 * The NTv2 grid PROJ prefers for DHDN to ETRS89 inside Germany (BETA2007, EPSG:15948). When it is
 * installed (Debian's proj-data ships it) cs2cs uses it, and so does reproject; outside the grid
 * both fall back to the Helmert parameters above.
 */
export const DHDN_GRID = 'BETA2007.gsb';

export const BUILT_IN_CRS: Record<number, string> = {
  4326: '+proj=longlat +datum=WGS84 +no_defs',
  4258: '+proj=longlat +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +no_defs',
  3857: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs',
  25832: EPSG_25832,
  25833: '+proj=utm +zone=33 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // PROJ writes no +towgs84 for 3035; ETRS89 to WGS 84 is the null transformation in PROJ as well.
  3035: '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  31466: gaussKrueger(2),
  31467: gaussKrueger(3),
  31468: gaussKrueger(4),
  31469: gaussKrueger(5),
};

/** Gauss-Krüger zone 2..5 (EPSG:31466..31469) with the Helmert datum shift. */
function gaussKrueger(zone: number): string {
  const tmerc = `+proj=tmerc +lat_0=0 +lon_0=${3 * zone} +k=1 +x_0=${zone * 1_000_000 + 500_000} +y_0=0 +ellps=bessel`;
  return `${tmerc} ${DHDN_TOWGS84} +units=m +no_defs`;
}

/** The built-in Gauss-Krüger definition of `code` with the BETA2007 grid instead of Helmert parameters. */
export function withDhdnGrid(definition: string): string {
  return definition.replace(DHDN_TOWGS84, `+nadgrids=${DHDN_GRID}`);
}

export const GAUSS_KRUEGER_CODES = [31466, 31467, 31468, 31469];

/**
 * The EPSG code a CRS name stands for, or undefined when it is none: `EPSG:25832`, `epsg:25832`,
 * `25832`, `urn:ogc:def:crs:EPSG::25832`, `http(s)://www.opengis.net/def/crs/EPSG/0/25832`, and
 * `CRS84` / `urn:ogc:def:crs:OGC:1.3:CRS84` (WGS 84 in longitude, latitude order — what GeoJSON uses).
 */
export function epsgCode(name: string): number | undefined {
  const text = name.trim();
  if (/^(urn:ogc:def:crs:OGC:(1\.3)?:)?CRS84$/i.test(text) || /\/def\/crs\/OGC\/1\.3\/CRS84$/i.test(text)) return 4326;
  const match =
    /^(?:EPSG:)?(\d{1,6})$/i.exec(text) ??
    /^urn:ogc:def:crs:EPSG:[\d.]*:(\d{1,6})$/i.exec(text) ??
    /^https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/(\d{1,6})$/i.exec(text);
  if (!match) return undefined;
  const code = Number(match[1]);
  return code > 0 ? code : undefined;
}
