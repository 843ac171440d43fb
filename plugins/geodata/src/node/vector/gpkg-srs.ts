import { execFile } from 'node:child_process';
import { epsgCode } from '../reproject/crs-definitions';

/** A row of gpkg_spatial_ref_sys (GeoPackage 1.3 §1.1.2). */
export interface GpkgSrs {
  srs_name: string;
  srs_id: number;
  organization: string;
  organization_coordsys_id: number;
  definition: string;
}

/**
 * The spatial reference row of a CRS `EPSG:<code>` for a GeoPackage export (decision 0035): the
 * EPSG code as srs_id and organization id, and PROJ's WKT 1 as definition (`projinfo … -o
 * WKT1_GDAL`, the form GDAL writes); 'undefined' when projinfo is not installed, which readers
 * such as GDAL resolve by the EPSG organization and code.
 */
export async function gpkgSrs(crs: string): Promise<GpkgSrs> {
  const code = epsgCode(crs);
  if (code === undefined) throw new Error(`not an EPSG code: ${crs}`);
  const definition = await projinfoWkt(code);
  const name = /^\w+\["([^"]*)"/.exec(definition)?.[1] ?? `EPSG:${code}`;
  return { srs_name: name, srs_id: code, organization: 'EPSG', organization_coordsys_id: code, definition };
}

function projinfoWkt(code: number): Promise<string> {
  return new Promise((resolve) => {
    execFile('projinfo', [`EPSG:${code}`, '-o', 'WKT1_GDAL', '-q', '--single-line'], { timeout: 15_000 }, (error, stdout) => {
      const text = String(stdout).trim();
      resolve(!error && /^[A-Z]+CS\[/.test(text) ? text : 'undefined');
    });
  });
}
