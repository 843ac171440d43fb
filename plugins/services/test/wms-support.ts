import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { LayerStyle } from '@werkbank/plugin-layers/api';

/** Writes rows of WKT geometries and properties as GeoJSON through ogr2ogr (the fixtures of the WMS suites). */
function wktGeojson(dir: string, name: string, header: string, rows: string[]): string {
  const csv = join(dir, `${name}.csv`);
  writeFileSync(csv, [header, ...rows].join('\n') + '\n');
  const out = join(dir, `${name}.geojson`);
  execFileSync('ogr2ogr', [
    '-f',
    'GeoJSON',
    out,
    csv,
    '-oo',
    'GEOM_POSSIBLE_NAMES=wkt',
    '-oo',
    'KEEP_GEOM_COLUMNS=NO',
    '-oo',
    'AUTODETECT_TYPE=YES',
    '-a_srs',
    'EPSG:4326',
    '-lco',
    'COORDINATE_PRECISION=7',
  ]);
  return out;
}

/**
 * Parcels over Cologne as GDAL writes them: a 6 × 4 grid of squares 0.01° wide with 0.002° gaps
 * from 6.90°E, 50.90°N; `art` alternates Wiese/Wald, `nr` counts from 1, `name` is "P{nr}".
 */
export function parcelsGeojson(dir: string): string {
  const rows: string[] = [];
  let nr = 0;
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 6; c++) {
      nr++;
      const x = 6.9 + c * 0.012;
      const y = 50.9 + r * 0.012;
      const ring = [
        [x, y],
        [x + 0.01, y],
        [x + 0.01, y + 0.01],
        [x, y + 0.01],
        [x, y],
      ]
        .map((p) => p.map((v) => v.toFixed(4)).join(' '))
        .join(', ');
      rows.push(`"POLYGON ((${ring}))",${nr},${nr % 2 ? 'Wiese' : 'Wald'},P${nr}`);
    }
  return wktGeojson(dir, 'parcels', 'wkt,nr,art,name', rows);
}

/** Streets as GDAL writes them: 8 zig-zag lines from west to east, `klasse` alternating A/B. */
export function streetsGeojson(dir: string): string {
  const rows: string[] = [];
  for (let i = 0; i < 8; i++) {
    const y = 50.902 + i * 0.006;
    const pts = [0, 1, 2, 3, 4].map((k) => `${(6.902 + k * 0.016).toFixed(4)} ${(y + (k % 2) * 0.003).toFixed(4)}`).join(', ');
    rows.push(`"LINESTRING (${pts})",${i + 1},${i % 2 ? 'B' : 'A'}`);
  }
  return wktGeojson(dir, 'streets', 'wkt,nr,klasse', rows);
}

/** Trees as GDAL writes them: a 7 × 5 grid of points 0.01° apart, `art` alternating Buche/Eiche, `nr` from 1. */
export function pointsGeojson(dir: string): string {
  const rows: string[] = [];
  let nr = 0;
  for (let r = 0; r < 5; r++)
    for (let c = 0; c < 7; c++) {
      nr++;
      rows.push(
        `"POINT (${(6.905 + c * 0.01).toFixed(4)} ${(50.905 + r * 0.009).toFixed(4)})",${nr},${nr % 2 ? 'Buche' : 'Eiche'}`,
      );
    }
  return wktGeojson(dir, 'points', 'wkt,nr,art', rows);
}

/** The map window every comparison draws: [west, south, east, north]. */
export const WINDOW = [6.895, 50.895, 6.975, 50.95] as const;

/** The RGBA pixels of a PNG. */
export async function pixels(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: g.getImageData(0, 0, image.width, image.height).data };
}

/**
 * Pixels of a colour (#rrggbb, each channel within `tolerance`): how many MapServer's image `a` has,
 * how many `b` has, and how many both have at the same place.
 */
export async function colourOverlap(
  a: Buffer,
  b: Buffer,
  hex: string,
  tolerance = 16,
): Promise<{ a: number; b: number; both: number }> {
  const [pa, pb] = [await pixels(a), await pixels(b)];
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const is = (d: Uint8ClampedArray, i: number) =>
    Math.abs(d[i] - want[0]) <= tolerance &&
    Math.abs(d[i + 1] - want[1]) <= tolerance &&
    Math.abs(d[i + 2] - want[2]) <= tolerance;
  const out = { a: 0, b: 0, both: 0 };
  for (let i = 0; i < pa.data.length; i += 4) {
    const [x, y] = [is(pa.data, i), is(pb.data, i)];
    if (x) out.a++;
    if (y) out.b++;
    if (x && y) out.both++;
  }
  return out;
}

/**
 * The share of pixels (0–1) whose colour differs by more than `tolerance` in any channel, and the
 * share of the drawn pixels (those that are not background in either image) that differ.
 */
export async function pixelDifference(a: Buffer, b: Buffer, tolerance = 48): Promise<{ all: number; drawn: number }> {
  const pa = await pixels(a);
  const pb = await pixels(b);
  if (pa.width !== pb.width || pa.height !== pb.height)
    throw new Error(`sizes ${pa.width}×${pa.height} and ${pb.width}×${pb.height}`);
  let differ = 0;
  let drawn = 0;
  let drawnDiffer = 0;
  const bg = [pa.data[0], pa.data[1], pa.data[2], pa.data[3]];
  for (let i = 0; i < pa.data.length; i += 4) {
    let d = 0;
    let isBg = true;
    for (let k = 0; k < 4; k++) {
      d = Math.max(d, Math.abs(pa.data[i + k] - pb.data[i + k]));
      if (pa.data[i + k] !== bg[k] || pb.data[i + k] !== bg[k]) isBg = false;
    }
    if (!isBg) drawn++;
    if (d > tolerance) {
      differ++;
      if (!isBg) drawnDiffer++;
    }
  }
  return { all: differ / (pa.width * pa.height), drawn: drawn ? drawnDiffer / drawn : 0 };
}

/** The comparisons' styles: filtered rules that exclude each other, a scale range, opacity, dashes, marks, a label with halo. */
export const PARCELS: LayerStyle = {
  rules: [
    // Only below 1:1,000: never at the scales these maps are drawn at.
    {
      name: 'nah',
      max_scale_denominator: 1000,
      symbol: { symbol_type: 'style', fill: '#ff0000', fill_opacity: 1, stroke: '#000000', stroke_width: 1 },
    },
    {
      name: 'Wiese',
      filter: { op: '==', attribute: 'art', value: 'Wiese' },
      symbol: { symbol_type: 'style', fill: '#33aa33', fill_opacity: 0.6, stroke: '#115511', stroke_opacity: 1, stroke_width: 2 },
    },
    {
      name: 'Wald',
      filter: { op: '==', attribute: 'art', value: 'Wald' },
      symbol: {
        symbol_type: 'style',
        fill: '#996633',
        fill_opacity: 1,
        stroke: '#222222',
        stroke_opacity: 1,
        stroke_width: 2,
        stroke_dasharray: [6, 4],
      },
    },
  ],
};
export const STREETS: LayerStyle = {
  rules: [
    {
      name: 'A',
      filter: { op: '==', attribute: 'klasse', value: 'A' },
      symbol: { symbol_type: 'style', stroke: '#cc2200', stroke_width: 4, stroke_opacity: 1 },
    },
    {
      name: 'B',
      filter: { op: '==', attribute: 'klasse', value: 'B' },
      symbol: { symbol_type: 'style', stroke: '#0033cc', stroke_width: 2, stroke_opacity: 0.8, stroke_dasharray: [10, 5] },
    },
  ],
};
export const TREES: LayerStyle = {
  rules: [
    {
      name: 'Buche',
      filter: { op: '==', attribute: 'art', value: 'Buche' },
      symbol: { symbol_type: 'style', fill: '#ffcc00', fill_opacity: 1, stroke: '#333333', stroke_width: 1, circle_radius: 6 },
    },
    {
      name: 'Eiche',
      filter: { op: '==', attribute: 'art', value: 'Eiche' },
      symbol: { symbol_type: 'style', fill: '#00aa88', fill_opacity: 1, stroke: '#000000', stroke_width: 2, circle_radius: 4 },
    },
  ],
};
export const LABELS: LayerStyle = {
  rules: [
    {
      name: 'Baum',
      symbol: {
        symbol_type: 'style',
        fill: '#ffcc00',
        fill_opacity: 1,
        stroke: '#333333',
        stroke_width: 1,
        circle_radius: 3,
        text_label: 'art',
        text_size: 11,
        text_fill: '#000000',
        text_halo_fill: '#ffffff',
        text_halo_radius: 2,
        text_dy: 10,
      },
    },
  ],
};
/** Marks of three shapes and sizes by the trees' numbers: squares, triangles, stars. */
export const MARKS: LayerStyle = {
  rules: [
    {
      name: 'Quadrat',
      filter: { op: '<=', attribute: 'nr', value: 12 },
      symbol: {
        symbol_type: 'graphic',
        graphic: 'square',
        circle_radius: 6,
        fill: '#cc3333',
        stroke: '#000000',
        stroke_width: 1,
      },
    },
    {
      name: 'Dreieck',
      filter: {
        op: 'and',
        filters: [
          { op: '>', attribute: 'nr', value: 12 },
          { op: '<=', attribute: 'nr', value: 24 },
        ],
      },
      symbol: {
        symbol_type: 'graphic',
        graphic: 'triangle',
        circle_radius: 8,
        fill: '#3366cc',
        stroke: '#111111',
        stroke_width: 2,
      },
    },
    {
      name: 'Stern',
      filter: { op: '>', attribute: 'nr', value: 24 },
      symbol: { symbol_type: 'graphic', graphic: 'star', circle_radius: 9, fill: '#ffaa00', stroke: '#553300', stroke_width: 3 },
    },
  ],
};
/** The parcels with their names as labels with a halo, at their centres. */
export const PARCEL_LABELS: LayerStyle = {
  rules: [
    {
      name: 'Flurstück',
      symbol: {
        symbol_type: 'style',
        fill: '#88bb88',
        fill_opacity: 1,
        stroke: '#115511',
        stroke_width: 1,
        text_label: 'name',
        text_size: 12,
        text_fill: '#000000',
        text_halo_fill: '#ffff99',
        text_halo_radius: 2,
      },
    },
  ],
};
/** The streets with their numbers as labels with a halo. */
export const STREET_LABELS: LayerStyle = {
  rules: [
    {
      name: 'Straße',
      symbol: {
        symbol_type: 'style',
        stroke: '#0033cc',
        stroke_width: 3,
        text_label: 'nr',
        text_size: 12,
        text_fill: '#000000',
        text_halo_fill: '#ffff00',
        text_halo_radius: 2,
      },
    },
  ],
};
