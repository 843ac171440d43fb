/** The viewer's measure tool and coordinates readout (pure): geodesic figures and their text. */
import { pathLength, ringArea, utm32Of } from '@werkbank/sdk';

export interface Measured {
  /** Metres along the points; with three points or more, around the closed ring. */
  length: number;
  /** Square metres of the closed ring (three points or more), else null. */
  area: number | null;
}

/** The geodesic length of the path and, from three points on, the area of the ring it closes (WGS 84). */
export function measured(points: readonly [number, number][]): Measured {
  const closed = points.length > 2;
  return { length: pathLength([...points], closed), area: closed ? ringArea([...points]) : null };
}

const number = (v: number, digits: number, lang: string) =>
  v.toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A length in m below 1 km (one decimal), else km (two decimals). */
export const formatLength = (m: number, lang: string) =>
  m < 1000 ? `${number(m, 1, lang)} m` : `${number(m / 1000, 2, lang)} km`;

/** An area in m² below 1 ha, in ha below 1 km², else km² (two decimals). */
export function formatArea(m2: number, lang: string): string {
  if (m2 < 10_000) return `${number(m2, 0, lang)} m²`;
  if (m2 < 1_000_000) return `${number(m2 / 10_000, 2, lang)} ha`;
  return `${number(m2 / 1_000_000, 2, lang)} km²`;
}

/** The readout's figures: degrees with 5 decimals (about 1 m), UTM 32N metres. */
export function readout(lon: number, lat: number, lang: string): { lat: string; lon: string; e: string; n: string } {
  const [e, n] = utm32Of(lon, lat);
  return { lat: number(lat, 5, lang), lon: number(lon, 5, lang), e: number(e, 0, lang), n: number(n, 0, lang) };
}
