import { spawn } from 'node:child_process';

/** Positions in EPSG:25832 by GDAL's gdaltransform (stdin in, stdout out; asynchronous). */
export function toUtm(points: Array<[number, number]>): Promise<Array<[number, number]>> {
  return new Promise((resolve, reject) => {
    const child = spawn('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', 'EPSG:25832', '-output_xy']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () =>
      resolve(
        out
          .trim()
          .split('\n')
          .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]),
      ),
    );
    child.stdin.end(points.map(([x, y]) => `${x} ${y}`).join('\n') + '\n');
  });
}

/** A tile and the pixel in it: [set, matrix, row, col] and [px, py]. */
export type TileAt = { tile: [string, string, number, number]; px: [number, number] };

/** The WebMercatorQuad tile of zoom `z` holding a position, and the position's pixel in it. */
export function mercatorTile(lon: number, lat: number, z: number): TileAt {
  const n = 2 ** z;
  const u = ((lon + 180) / 360) * n;
  const r = (lat * Math.PI) / 180;
  const v = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  const [x, y] = [Math.floor(u), Math.floor(v)];
  return { tile: ['WebMercatorQuad', String(z), y, x], px: [Math.floor((u - x) * 256), Math.floor((v - y) * 256)] };
}

/** The DE_EPSG_25832_ADV tile of a level holding a UTM position, and its pixel (origin and resolutions of the AdV set). */
export function advTile([e, n]: [number, number], level: number): TileAt {
  const span = (4891.96981025128 / 2 ** level) * 256;
  const u = (e + 46133.17) / span;
  const v = (6301219.54 - n) / span;
  const [x, y] = [Math.floor(u), Math.floor(v)];
  return {
    tile: ['DE_EPSG_25832_ADV', String(level).padStart(2, '0'), y, x],
    px: [Math.floor((u - x) * 256), Math.floor((v - y) * 256)],
  };
}
