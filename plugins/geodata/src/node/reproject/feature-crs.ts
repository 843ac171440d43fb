import type { FrameItems } from '@werkbank/sdk/node';
import { epsgCode } from './crs-definitions';
import { failure } from './reproject-errors';

/** GeoJSON's own CRS (RFC 7946 §4): what a feature without a `crs` member is in. */
export const WGS84 = 'EPSG:4326';

/** GeoJSON 2008's named CRS member (`{type: 'name', properties: {name}}`) for an EPSG code. */
export function crsMember(crs: string): { type: 'name'; properties: { name: string } } {
  return { type: 'name', properties: { name: `urn:ogc:def:crs:EPSG::${epsgCode(crs) ?? crs}` } };
}

/**
 * The CRS a feature is in (decision 0035): its `crs` member as `EPSG:<code>`, or EPSG:4326 when it
 * has none. Throws `crs_invalid` for a member that names no EPSG code.
 */
export function featureCrs(feature: unknown): string {
  const member = (feature as { crs?: unknown } | null | undefined)?.crs;
  if (member === undefined || member === null) return WGS84;
  const name = (member as { properties?: { name?: unknown } }).properties?.name;
  const code = typeof name === 'string' ? epsgCode(name) : undefined;
  if (code === undefined) throw failure('crs_invalid', { crs: typeof name === 'string' ? name : JSON.stringify(member) });
  return `EPSG:${code}`;
}

/** The feature labelled as being in `crs`: with its `crs` member, or without one for EPSG:4326. */
export function labelled<F extends object>(feature: F, crs: string): F {
  const { crs: _old, ...rest } = feature as F & { crs?: unknown };
  void _old;
  return (epsgCode(crs) === 4326 ? rest : { ...rest, crs: crsMember(crs) }) as F;
}

/** Items (feature datums) with each feature labelled as being in `crs`; other items stay as they are. */
export function labelItems(items: FrameItems, crs: string): FrameItems {
  if (epsgCode(crs) === 4326 && !items.some((item) => hasMember(item))) return items;
  return items.map((item) =>
    item && typeof item.feature === 'object' && item.feature ? { ...item, feature: labelled(item.feature, crs) } : item,
  );
}

const hasMember = (item: FrameItems[number]) => !!(item?.feature as { crs?: unknown } | undefined)?.crs;

/**
 * The one CRS of a frame's features (decision 0035): the CRS every feature is in. Features in
 * different CRSs cannot be worked on together: `crs_mixed` names the port and two of them.
 * Items without a feature do not count; without features the frame is in EPSG:4326.
 */
export function itemsCrs(items: FrameItems, port: string): string {
  let found: string | undefined;
  for (const item of items) {
    const feature = item?.feature;
    if (!feature || typeof feature !== 'object') continue;
    const crs = featureCrs(feature);
    if (found === undefined) found = crs;
    else if (found !== crs) throw failure('crs_mixed', { port, first: found, second: crs });
  }
  return found ?? WGS84;
}

/**
 * The one CRS of the features of several ports together (an overlay needs its inputs in one
 * CRS): `crs_differs` names two ports and their CRSs otherwise.
 */
export function portsCrs(ports: Array<[port: string, items: FrameItems]>): string {
  let found: [string, string] | undefined;
  for (const [port, items] of ports) {
    if (!items.length) continue;
    const crs = itemsCrs(items, port);
    if (!found) found = [port, crs];
    else if (found[1] !== crs) throw failure('crs_differs', { a: found[0], crsA: found[1], b: port, crsB: crs });
  }
  return found?.[1] ?? WGS84;
}

/**
 * The one CRS of a frame's features like itemsCrs, for work that must know it (exports, measuring
 * on WGS 84): unlabelled features whose positions are no longitudes and latitudes are in some
 * unknown CRS, and `crs_missing` asks for it rather than writing or computing nonsense.
 */
export function knownCrs(items: FrameItems, port: string): string {
  const crs = itemsCrs(items, port);
  if (crs === WGS84 && !allDegrees(items)) throw failure('crs_missing', { port });
  return crs;
}

/**
 * Whether every position of the features' geometries could be a longitude and latitude
 * (|x| ≤ 180, |y| ≤ 90): unlabelled features with a position beyond are evidently not in
 * EPSG:4326, whatever their missing label says.
 */
export function allDegrees(items: FrameItems): boolean {
  const ok = (g: unknown): boolean => {
    if (!g || typeof g !== 'object') return true;
    const geometry = g as { geometries?: unknown[]; coordinates?: unknown };
    if (Array.isArray(geometry.geometries)) return geometry.geometries.every(ok);
    return positionsOk(geometry.coordinates);
  };
  return items.every((item) => ok((item?.feature as { geometry?: unknown } | undefined)?.geometry));
}

function positionsOk(c: unknown): boolean {
  if (!Array.isArray(c)) return true;
  if (typeof c[0] === 'number') return Math.abs(c[0]) <= 180 && Math.abs(Number(c[1])) <= 90;
  return c.every(positionsOk);
}
