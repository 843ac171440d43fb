import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SHAPE_PATHS, type LayerStyle, type StyleFilter, type StyleSymbol } from '@werkbank/plugin-layers/api';
import { WINDOW } from './wms-support';

/*
 * The MapServer 8 side of the WMS comparisons (services-wms-mapserver.spec.ts, services-external.spec.ts):
 * a layer style written as a mapfile, label points as the Werkbank renderer sets them, and mapserv's answers.
 */

/**
 * Where the Werkbank renderer labels lines — each line's middle vertex (decision 0083), as the style
 * editor's preview does — as GeoJSON points with the lines' properties. MapServer labels a line at
 * the middle of its longest segment instead; given these points, it sets the same labels where
 * ours are, so that their lettering and halo can be compared.
 */
export function middleVertices(dir: string, lines: string): string {
  const fc = JSON.parse(readFileSync(lines, 'utf8')) as {
    features: Array<{ geometry: { coordinates: number[][] }; properties: Record<string, unknown> }>;
  };
  const features = fc.features.map((f) => {
    const c = f.geometry.coordinates;
    return { type: 'Feature', properties: f.properties, geometry: { type: 'Point', coordinates: c[Math.floor(c.length / 2)] } };
  });
  const out = join(dir, 'middle-vertices.geojson');
  writeFileSync(out, JSON.stringify({ type: 'FeatureCollection', features }));
  return out;
}

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

/** The marks other than the circle, drawn by both renderers from the same outline. */
const MARK_SYMBOLS = ['square', 'triangle', 'star', 'cross', 'x'] as const;

/**
 * A mark's outline (SHAPE_PATHS: straight segments only, in a 24-unit box with y down) as the
 * points of a MapServer VECTOR symbol, moved to start at 0 0 (MapServer measures a symbol from its
 * origin to its largest x and y and centres that box on the point), and its height in units.
 */
function markSymbol(name: (typeof MARK_SYMBOLS)[number]): { points: number[][]; height: number } {
  const tokens = SHAPE_PATHS[name].match(/[A-Za-z]|-?\d*\.?\d+/g) ?? [];
  const pts: number[][] = [];
  let [x, y] = [0, 0];
  let cmd = '';
  for (let k = 0; k < tokens.length;) {
    if (/[A-Za-z]/.test(tokens[k])) cmd = tokens[k++];
    const n = () => Number(tokens[k++]);
    if (cmd === 'M' || cmd === 'L') [x, y] = [n(), n()];
    else if (cmd === 'l') [x, y] = [x + n(), y + n()];
    else if (cmd === 'H') x = n();
    else if (cmd === 'h') x += n();
    else if (cmd === 'V') y = n();
    else if (cmd === 'v') y += n();
    else if (cmd === 'z' || cmd === 'Z') {
      [x, y] = pts[0];
      pts.push([x, y]);
      continue;
    } else throw new Error(`path command ${cmd}`);
    pts.push([x, y]);
  }
  const minx = Math.min(...pts.map((p) => p[0]));
  const miny = Math.min(...pts.map((p) => p[1]));
  const maxy = Math.max(...pts.map((p) => p[1]));
  return { points: pts.map(([a, b]) => [a - minx, b - miny]), height: maxy - miny };
}

/**
 * The same style as a MapServer 8 mapfile over a GeoJSON file (the rules' classes in order; the
 * comparisons use rules that exclude each other, since MapServer draws a feature with its first
 * matching class only). Labels are set in DejaVu Sans, the file the Werkbank renderer uses; MapServer's
 * AGG renderer reads a label SIZE as points at 96 dpi, so px sizes are written as 3/4 of them.
 * `labelsAt` (GeoJSON points with the same attributes) sets the labels there instead (see middleVertices).
 */
export function mapfile(
  dir: string,
  data: string,
  kind: 'polygon' | 'line' | 'point',
  style: LayerStyle,
  labelsAt?: string,
): string {
  const fontset = join(dir, 'fonts.txt');
  writeFileSync(fontset, 'dejavu /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\n');
  const opacity = (v: number | null | undefined) => Math.round((v ?? 1) * 100);
  const pattern = (s: StyleSymbol) => {
    const d = Array.isArray(s.stroke_dasharray) ? s.stroke_dasharray : null;
    return d ? `PATTERN ${d.join(' ')} END` : '';
  };
  const classes = (draw: boolean, labels: boolean) =>
    style.rules.map((rule) => {
      const s = rule.symbol;
      const styles: string[] = [];
      if (!draw) {
        // Labels only.
      } else if (kind === 'polygon') {
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
        // A mark's 24-unit box spans 2.4 radii (20 units are the diameter), so its height is units × r/10.
        const mark = MARK_SYMBOLS.find((m) => s.symbol_type === 'graphic' && s.graphic === m);
        const size = mark ? (markSymbol(mark).height * r) / 10 : 2 * r;
        styles.push(
          `STYLE SYMBOL "${mark ?? 'circle'}" SIZE ${size} COLOR ${rgb(s.fill!)} OUTLINECOLOR ${rgb(s.stroke!)} WIDTH ${s.stroke_width ?? 1} END`,
        );
      }
      const label =
        s.text_label && labels
          ? `TEXT "[${s.text_label}]" LABEL TYPE TRUETYPE FONT "dejavu" SIZE ${((s.text_size ?? 12) * 72) / 96} COLOR ${rgb(s.text_fill ?? '#000000')} ` +
            (s.text_halo_fill ? `OUTLINECOLOR ${rgb(s.text_halo_fill)} OUTLINEWIDTH ${s.text_halo_radius ?? 1} ` : '') +
            `POSITION CC OFFSET ${s.text_dx ?? 0} ${-(s.text_dy ?? 0)} FORCE TRUE PARTIALS TRUE END`
          : '';
      const scale =
        (rule.min_scale_denominator != null ? `MINSCALEDENOM ${rule.min_scale_denominator} ` : '') +
        (rule.max_scale_denominator != null ? `MAXSCALEDENOM ${rule.max_scale_denominator} ` : '');
      return `CLASS NAME "${rule.name ?? ''}" ${rule.filter ? `EXPRESSION (${expression(rule.filter)})` : ''} ${scale} ${styles.join(' ')} ${label} END`;
    });
  const layer = (name: string, type: string, source: string, group: boolean, draw: boolean, labels: boolean) => `LAYER
    NAME "${name}"
    ${group ? 'GROUP "data"' : ''}
    TYPE ${type}
    STATUS ON
    CONNECTIONTYPE OGR
    CONNECTION "${source}"
    PROJECTION "init=epsg:4326" END
    METADATA "wms_title" "${name}" END
    ${classes(draw, labels).join('\n    ')}
  END`;
  // With `labelsAt`, the labels are set at those points (a point layer of the same attributes), the
  // geometries drawn without labels: both as the group "data".
  const layers = labelsAt
    ? [
        layer('data_geometry', kind.toUpperCase(), data, true, true, false),
        layer('data_labels', 'POINT', labelsAt, true, false, true),
      ]
    : [layer('data', kind.toUpperCase(), data, false, true, true)];
  const text = `MAP
  NAME "compare"
  EXTENT -180 -90 180 90
  SIZE 400 300
  UNITS DD
  FONTSET "${fontset}"
  PROJECTION "init=epsg:4326" END
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
  ${MARK_SYMBOLS.map((m) => `SYMBOL NAME "${m}" TYPE VECTOR FILLED TRUE POINTS ${markSymbol(m).points.flat().join(' ')} END END`).join('\n  ')}
  OUTPUTFORMAT NAME "png" DRIVER AGG/PNG MIMETYPE "image/png" IMAGEMODE RGBA EXTENSION "png" FORMATOPTION "QUANTIZE_FORCE=OFF" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:4326 EPSG:3857 EPSG:25832 EPSG:31466" "wms_title" "compare" "wms_onlineresource" "http://localhost/" END END
  ${layers.join('\n  ')}
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
