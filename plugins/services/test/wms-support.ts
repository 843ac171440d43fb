import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { LayerStyle, StyleFilter, StyleSymbol } from '@werkbank/plugin-layers/api';

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

const rgb = (hex: string) => {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).join(' ');
};

function expression(f: StyleFilter): string {
  switch (f.op) {
    case 'and':
      return `(${f.filters.map(expression).join(' AND ')})`;
    case 'or':
      return `(${f.filters.map(expression).join(' OR ')})`;
    case 'not':
      return `(NOT ${expression(f.filter)})`;
    default: {
      const v = f.value;
      const op = f.op === '==' ? '=' : f.op;
      return typeof v === 'number' ? `([${f.attribute}] ${op} ${v})` : `("[${f.attribute}]" ${op} "${String(v)}")`;
    }
  }
}

/**
 * The same style as a MapServer 8 mapfile over a GeoJSON file (the rules' classes in order; the
 * comparisons use rules that exclude each other, since MapServer draws a feature with its first
 * matching class only). Labels are set in DejaVu Sans, the file the Werkbank renderer uses; MapServer's
 * AGG renderer reads a label SIZE as points at 96 dpi, so px sizes are written as 3/4 of them.
 */
export function mapfile(dir: string, data: string, kind: 'polygon' | 'line' | 'point', style: LayerStyle): string {
  const fontset = join(dir, 'fonts.txt');
  writeFileSync(fontset, 'dejavu /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\n');
  const opacity = (v: number | null | undefined) => Math.round((v ?? 1) * 100);
  const pattern = (s: StyleSymbol) => {
    const d = Array.isArray(s.stroke_dasharray) ? s.stroke_dasharray : null;
    return d ? `PATTERN ${d.join(' ')} END` : '';
  };
  const classes = style.rules.map((rule) => {
    const s = rule.symbol;
    const styles: string[] = [];
    if (kind === 'polygon') {
      styles.push(`STYLE COLOR ${rgb(s.fill!)} OPACITY ${opacity(s.fill_opacity)} END`);
      styles.push(
        `STYLE OUTLINECOLOR ${rgb(s.stroke!)} WIDTH ${s.stroke_width ?? 1} OPACITY ${opacity(s.stroke_opacity)} ${pattern(s)} LINECAP ROUND LINEJOIN ROUND END`,
      );
    } else if (kind === 'line') {
      styles.push(
        `STYLE COLOR ${rgb(s.stroke!)} WIDTH ${s.stroke_width ?? 1} OPACITY ${opacity(s.stroke_opacity)} ${pattern(s)} LINECAP ROUND LINEJOIN ROUND END`,
      );
    } else {
      const r = s.circle_radius ?? 6;
      styles.push(
        `STYLE SYMBOL "circle" SIZE ${2 * r} COLOR ${rgb(s.fill!)} OUTLINECOLOR ${rgb(s.stroke!)} WIDTH ${s.stroke_width ?? 1} END`,
      );
    }
    const label = s.text_label
      ? `TEXT "[${s.text_label}]" LABEL TYPE TRUETYPE FONT "dejavu" SIZE ${((s.text_size ?? 12) * 72) / 96} COLOR ${rgb(s.text_fill ?? '#000000')} ` +
        (s.text_halo_fill ? `OUTLINECOLOR ${rgb(s.text_halo_fill)} OUTLINEWIDTH ${s.text_halo_radius ?? 1} ` : '') +
        `POSITION CC OFFSET ${s.text_dx ?? 0} ${-(s.text_dy ?? 0)} FORCE TRUE PARTIALS TRUE END`
      : '';
    const scale =
      (rule.min_scale_denominator != null ? `MINSCALEDENOM ${rule.min_scale_denominator} ` : '') +
      (rule.max_scale_denominator != null ? `MAXSCALEDENOM ${rule.max_scale_denominator} ` : '');
    return `CLASS NAME "${rule.name ?? ''}" ${rule.filter ? `EXPRESSION (${expression(rule.filter)})` : ''} ${scale} ${styles.join(' ')} ${label} END`;
  });
  const text = `MAP
  NAME "compare"
  EXTENT -180 -90 180 90
  SIZE 400 300
  UNITS DD
  FONTSET "${fontset}"
  PROJECTION "init=epsg:4326" END
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
  OUTPUTFORMAT NAME "png" DRIVER AGG/PNG MIMETYPE "image/png" IMAGEMODE RGBA EXTENSION "png" FORMATOPTION "QUANTIZE_FORCE=OFF" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:4326 EPSG:3857 EPSG:25832 EPSG:31466" "wms_title" "compare" "wms_onlineresource" "http://localhost/" END END
  LAYER
    NAME "data"
    TYPE ${kind.toUpperCase()}
    STATUS ON
    CONNECTIONTYPE OGR
    CONNECTION "${data}"
    PROJECTION "init=epsg:4326" END
    METADATA "wms_title" "data" END
    ${kind === 'point' ? '' : ''}
    ${classes.join('\n    ')}
  END
END
`;
  const path = join(dir, `${kind}.map`);
  writeFileSync(path, text);
  // MapServer 8 reads its configuration file first; it names the mapfile.
  writeFileSync(`${path}.conf`, `CONFIG\n  ENV\n    MS_MAPFILE "${path}"\n  END\nEND\n`);
  return path;
}

/** The south-west and north-east corners of WINDOW in another CRS, by GDAL (gdaltransform). */
export async function corners(crs: string): Promise<number[][]> {
  const [w, s, e, n] = WINDOW;
  const { stdout } = await promisify(execFile)('bash', [
    '-c',
    `printf '${w} ${s}\\n${e} ${n}\\n' | gdaltransform -s_srs EPSG:4326 -t_srs ${crs} -output_xy`,
  ]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/).map(Number));
}

/** MapServer's answer to a WMS query string on a mapfile (`mapserv -nh`, its image bytes). */
export async function mapserver(mapPath: string, query: string): Promise<Buffer> {
  const { stdout } = await promisify(execFile)('mapserv', ['-nh', `QUERY_STRING=${query}`], {
    encoding: 'buffer',
    env: { ...process.env, MAPSERVER_CONFIG_FILE: `${mapPath}.conf` },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The RGBA pixels of a PNG. */
export async function pixels(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: g.getImageData(0, 0, image.width, image.height).data };
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
