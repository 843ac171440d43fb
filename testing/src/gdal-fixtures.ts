import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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
