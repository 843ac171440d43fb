import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes a zipped Shapefile of realistic size as GIS authors receive them (issue 14 item 1): a
 * GeoJSON of `rows × cols` irregular polygons of 160 vertices each over Germany (EPSG:4326) goes
 * through GDAL (`ogr2ogr -f "ESRI Shapefile" -t_srs EPSG:25832 -lco ENCODING=UTF-8`), and Python's
 * zipfile packs .shp, .shx, .dbf, .prj and .cpg (the .shp first, as most tools order them). The
 * jitter comes from a fixed seed, so every run writes the same bytes. Returns the archive's path.
 */
export function zippedShapefile(dir: string, name = 'gebiete', rows = 20, cols = 20): string {
  let seed = 20261127;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const features = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const [cx, cy] = [6 + (i * 8) / rows, 47.5 + (j * 7) / cols];
      const ring = Array.from({ length: 160 }, (_, k) => {
        const a = (2 * Math.PI * k) / 160;
        const r = 0.12 * (0.8 + 0.4 * random());
        return [Number((cx + r * Math.cos(a)).toFixed(7)), Number((cy + 0.7 * r * Math.sin(a)).toFixed(7))];
      });
      ring.push(ring[0]);
      features.push({
        type: 'Feature',
        properties: { name: `Gebiet ${i}-${j}`, nummer: i * cols + j, flaeche: Math.round(random() * 1e6) / 100 },
        geometry: { type: 'Polygon', coordinates: [ring] },
      });
    }
  }
  const source = join(dir, `${name}.geojson`);
  writeFileSync(source, JSON.stringify({ type: 'FeatureCollection', features }));
  execFileSync('ogr2ogr', [
    '-f',
    'ESRI Shapefile',
    '-t_srs',
    'EPSG:25832',
    '-lco',
    'ENCODING=UTF-8',
    join(dir, `${name}.shp`),
    source,
  ]);
  const zip = join(dir, `${name}-shp.zip`);
  const parts = ['shp', 'shx', 'dbf', 'prj', 'cpg'].map((ext) => `${name}.${ext}`);
  execFileSync('python3', ['-m', 'zipfile', '-c', zip, ...parts], { cwd: dir });
  return zip;
}

/** The bytes of `zippedShapefile`'s archive. */
export const zippedShapefileBytes = (dir: string, name?: string): Buffer => readFileSync(zippedShapefile(dir, name));

/**
 * An image written by one of GDAL's raster drivers (`PNG`, `JPEG`, `WEBP`, `GIF`, …; Debian's
 * python3-gdal, a test prerequisite): `bands` 4 is RGBA (transparent background), 3 RGB, 1 grey,
 * each band filled with one value.
 */
export function gdalImage(driver: string, width: number, height: number, bands: 1 | 3 | 4): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'gdal-image-'));
  try {
    const out = join(dir, 'image');
    const script = [
      'import sys',
      'from osgeo import gdal',
      'driver, w, h, n, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]',
      "ds = gdal.GetDriverByName('MEM').Create('', w, h, n, gdal.GDT_Byte)",
      'for b in range(1, n + 1): ds.GetRasterBand(b).Fill(0 if b == 4 else 40 * b)',
      'gdal.GetDriverByName(driver).CreateCopy(out, ds)',
    ].join('\n');
    execFileSync('/usr/bin/python3', ['-c', script, driver, String(width), String(height), String(bands), out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
