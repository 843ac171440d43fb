import { execFile } from 'node:child_process';
import { failure } from './vector-params';

/**
 * ESRI names (as ArcGIS and GDAL write them into .prj files, without an authority) of the CRSs
 * reproject has built in (reproject/crs-definitions.ts), so the usual German data needs no PROJ look-up.
 */
const ESRI_NAMES: Record<string, number> = {
  GCS_WGS_1984: 4326,
  GCS_ETRS_1989: 4258,
  WGS_1984_Web_Mercator_Auxiliary_Sphere: 3857,
  ETRS_1989_UTM_Zone_32N: 25832,
  ETRS_1989_UTM_Zone_33N: 25833,
  ETRS_1989_LAEA: 3035,
  DHDN_3_Degree_Gauss_Zone_2: 31466,
  DHDN_3_Degree_Gauss_Zone_3: 31467,
  DHDN_3_Degree_Gauss_Zone_4: 31468,
  DHDN_3_Degree_Gauss_Zone_5: 31469,
};

/** A .prj larger than this is no CRS. */
const MAX_WKT = 64 * 1024;

/**
 * The EPSG name (`EPSG:<code>`) of the CRS a WKT text (a Shapefile's .prj, OGC or ESRI WKT 1, or
 * WKT 2) describes: its own AUTHORITY["EPSG",…] / ID["EPSG",…], else its ESRI name when that is
 * one of the built-in CRSs, else what the installed PROJ identifies (`projinfo --identify`) as one
 * EPSG CRS with at least 90 % confidence (equivalent, names may differ). Throws `prj_crs_unknown`
 * naming the CRS otherwise (the crs setting then says which CRS the data is in).
 */
export async function crsOfWkt(wkt: string): Promise<string> {
  const text = wkt.trim();
  const name = /^\w+\[\s*"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 60);
  const own = /(?:AUTHORITY|ID)\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]\s*\]\s*$/i.exec(text);
  if (own) return `EPSG:${own[1]}`;
  if (ESRI_NAMES[name]) return `EPSG:${ESRI_NAMES[name]}`;
  const code = /^[A-Z]/.test(text) && text.length <= MAX_WKT ? await identify(text) : undefined;
  if (code === undefined) throw failure('prj_crs_unknown', { name });
  return `EPSG:${code}`;
}

/** The EPSG code PROJ identifies `wkt` as (one best match, ≥ 90 %), undefined when none or no projinfo. */
function identify(wkt: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    // No shell; the WKT is one argument and starts with a letter, so it is never read as an option.
    execFile('projinfo', ['--identify', '-o', 'PROJ', wkt], { timeout: 15_000 }, (error, stdout) => {
      if (error) return resolve(undefined);
      const matches = [...String(stdout).matchAll(/^EPSG:(\d+): (\d+) %$/gm)].map((m) => ({
        code: Number(m[1]),
        score: Number(m[2]),
      }));
      const best = Math.max(0, ...matches.map((m) => m.score));
      const top = matches.filter((m) => m.score === best);
      resolve(best >= 90 && top.length === 1 ? top[0].code : undefined);
    });
  });
}
