/**
 * Query parameters shared by the layer services, parsed the same way for every service (decision
 * 0083). Each parser returns the value or a problem key (`services:errors.*`); the services turn
 * problems into their own error form (JSON, OGC exception report).
 */

/** A window `[west, south, east, north]` in degrees (WGS 84); west > east crosses the antimeridian. */
export type Window = [number, number, number, number];

export type Parsed<T> = { value: T } | { problem: string; params?: Record<string, unknown> };

/**
 * `bbox=west,south,east,north` in degrees (4 numbers; OGC API's 6-number form with heights is read
 * as its 2D part). South above north, latitudes beyond ±90 or longitudes beyond ±180 are refused.
 */
export function parseBbox(raw: string | undefined): Parsed<Window | undefined> {
  if (raw === undefined || raw.trim() === '') return { value: undefined };
  const parts = raw.split(',').map((p) => p.trim());
  if ((parts.length !== 4 && parts.length !== 6) || parts.some((p) => p === '' || !Number.isFinite(Number(p))))
    return { problem: 'bbox_invalid' };
  const n = parts.map(Number);
  const [w, s, e, north] = n.length === 6 ? [n[0], n[1], n[3], n[4]] : n;
  if ([w, e].some((x) => Math.abs(x) > 180) || [s, north].some((y) => Math.abs(y) > 90)) return { problem: 'bbox_range' };
  if (s > north) return { problem: 'bbox_inverted' };
  return { value: [w, s, e, north] };
}

/** `properties=a,b`: the property names to keep (undefined: all); empty names are ignored. */
export function parseProperties(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** A non-negative whole number parameter within `max` (e.g. limit, offset); `fallback` when absent. */
export function parseCount(raw: string | undefined, fallback: number, max: number, name: string): Parsed<number> {
  if (raw === undefined || raw === '') return { value: fallback };
  if (!/^\d{1,12}$/.test(raw.trim())) return { problem: 'count_invalid', params: { name } };
  const value = Number(raw.trim());
  if (value > max) return { problem: 'count_too_large', params: { name, max } };
  return { value };
}
