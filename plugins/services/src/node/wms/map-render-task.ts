/**
 * The WMS renderer (issue 17, decision 0083): draws features with a layer's style through Skia
 * (@napi-rs/canvas). It runs in the server's worker pool (decision 0026): plain code, no services;
 * the features arrive already in the map's CRS. Which rules draw what is `evaluateStyle`'s answer,
 * the same evaluation as the style editor's preview (decision 0061).
 */
import { createCanvas, GlobalFonts, Path2D, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  evaluateStyle,
  SHAPE_PATHS,
  symbolizersOf,
  UnknownSymbolTypeError,
  type GeometryKind,
  type LayerStyle,
  type Symbolizer,
} from '@werkbank/plugin-layers/api';
import {
  FeaturePacker,
  geometryParts,
  PackedReader,
  styleAttributes,
  type PackedFeatures,
  type PixelParts,
} from './packed-features';
import { encodePng } from './png-writer';
import { PolygonBatches } from './polygon-batches';
import { drawIcon, iconsOf, type Icons } from './map-icons';

/** Labels are set in DejaVu Sans (a free font on every Debian; the MapServer comparison uses the same file). */
export const LABEL_FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const LABEL_FAMILY = 'WerkbankLabel';
let fontReady = false;
function labelFont(size: number): string {
  if (!fontReady) {
    fontReady = true;
    try {
      GlobalFonts.registerFromPath(LABEL_FONT_FILE, LABEL_FAMILY);
    } catch {
      // Without the file Skia falls back to a system sans-serif.
    }
  }
  return `${size}px ${LABEL_FAMILY}, "DejaVu Sans", sans-serif`;
}

export type ImageFormat = 'image/png' | 'image/jpeg';

/** A feature as the renderer gets it: its geometry in the map's CRS (x east, y north), its properties. */
export interface RenderFeature {
  geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  properties: Record<string, unknown> | null;
}

export interface MapRenderInput {
  width: number;
  height: number;
  /** [minx, miny, maxx, maxy] in the map's CRS, x east and y north. */
  bbox: [number, number, number, number];
  /** The map's scale (1:n) that selects the rules. */
  scaleDenominator: number;
  style: LayerStyle;
  /** The features, packed (the server) or as GeoJSON (packed here). */
  features: PackedFeatures | RenderFeature[];
  format: ImageFormat;
  /** True: pixels without features stay transparent (PNG only). */
  transparent: boolean;
  /** The background colour as #rrggbb. */
  background: string;
  /** The bytes of the images the style's graphics name by address (StyleImages); a missing one is drawn as a square. */
  images?: Record<string, Uint8Array>;
}

export interface LegendRenderInput {
  style: LayerStyle;
  /** The rule to draw (index); undefined: every rule, one line each with its name. */
  rule?: number;
  /** The geometry kind the symbols are drawn for. */
  kind: GeometryKind;
  width: number;
  height: number;
  format: ImageFormat;
  transparent: boolean;
  background: string;
  /** As MapRenderInput's. */
  images?: Record<string, Uint8Array>;
}

export interface MessageRenderInput {
  width: number;
  height: number;
  format: ImageFormat;
  transparent: boolean;
  background: string;
  /** The text written into the image (EXCEPTIONS=INIMAGE); empty: a blank image. */
  text: string;
}

type Ctx = SKRSContext2D;
type Xy = (x: number, y: number) => [number, number];
/** Draws a map: every feature's symbolizers in feature order, then all labels on top. */
export function renderMap(input: MapRenderInput): Uint8Array {
  const { width, height, bbox } = input;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  background(g, input);
  const [minx, miny, maxx, maxy] = bbox;
  const sx = width / (maxx - minx);
  const sy = height / (maxy - miny);
  const xy: Xy = (x, y) => [(x - minx) * sx, (maxy - y) * sy];
  const labels: Array<{ s: Extract<Symbolizer, { kind: 'label' }>; at: [number, number] }> = [];
  const packed = Array.isArray(input.features) ? pack(input.features, styleAttributes(input.style)) : input.features;
  // The style's answer per geometry type and property values: features alike are evaluated once.
  const evaluated = new Map<string, Symbolizer[] | null>();
  const icons = iconsOf(input.images);
  const reader = new PackedReader(packed);
  const batches = new PolygonBatches<PolygonSymbolizer>(width, height, (s, trace) => paintPolygon(g, s, trace));
  for (; reader.index < packed.count; reader.next()) {
    const key = reader.styleKey();
    let drawn = key === null ? undefined : evaluated.get(key);
    if (drawn === undefined) {
      try {
        drawn = evaluateStyle(
          input.style,
          { geometry: reader.geometry(), properties: reader.properties() },
          input.scaleDenominator,
        );
      } catch (e) {
        if (!(e instanceof UnknownSymbolTypeError)) throw e;
        drawn = null;
      }
      if (key !== null) evaluated.set(key, drawn);
    }
    if (!drawn) continue;
    const type = reader.type();
    const polygonal = type === 'Polygon' || type === 'MultiPolygon';
    let parts: PixelParts | undefined;
    for (const s of drawn) {
      if (s.kind === 'label') {
        const at = labelPoint((parts ??= reader.parts(xy)));
        if (at) labels.push({ s, at });
      } else if (polygonal && s.kind === 'polygon') {
        // Traced straight from the packed coordinates: the same path as drawGeometry's, without building it.
        if (s.dash?.length) {
          batches.flush();
          reader.eachPolygon(g, minx, sx, maxy, sy, (trace) => paintPolygon(g, s, trace));
        } else reader.eachPolygon(g, minx, sx, maxy, sy, (trace, box) => batches.add(s, trace, box));
      } else {
        batches.flush();
        drawGeometry(g, s, (parts ??= reader.parts(xy)), icons);
      }
    }
  }
  batches.flush();
  for (const { s, at } of labels) drawLabel(g, s, at[0] + s.dx, at[1] - s.dy);
  return encode(canvas, input.format);
}

/**
 * Draws a legend: one rule's symbol filling the image, or every rule as a line of symbol and name
 * (the names are given by the caller in `style.rules[i].name`).
 */
export function renderLegend(input: LegendRenderInput): Uint8Array {
  const canvas = createCanvas(input.width, input.height);
  const g = canvas.getContext('2d');
  background(g, input);
  const rules = input.style.rules;
  const icons = iconsOf(input.images);
  const indices = input.rule === undefined ? rules.map((_, i) => i) : [input.rule];
  const box = input.rule === undefined ? LEGEND_ROW : Math.min(input.width, input.height);
  indices.forEach((i, row) => {
    const top = row * LEGEND_ROW;
    let parts: Symbolizer[];
    try {
      parts = symbolizersOf(rules[i].symbol, input.kind, i);
    } catch (e) {
      if (e instanceof UnknownSymbolTypeError) return;
      throw e;
    }
    for (const s of parts) if (s.kind !== 'label') drawLegendSymbol(g, s, input.kind, top, box, icons);
    if (input.rule === undefined) {
      g.save();
      g.fillStyle = '#000000';
      g.globalAlpha = 1;
      g.font = labelFont(12);
      g.textAlign = 'left';
      g.textBaseline = 'middle';
      g.fillText(rules[i].name || `#${i + 1}`, LEGEND_ROW + 4, top + LEGEND_ROW / 2);
      g.restore();
    }
  });
  return encode(canvas, input.format);
}

/** An image holding only a message (EXCEPTIONS=INIMAGE) or nothing (BLANK). */
export function renderMessage(input: MessageRenderInput): Uint8Array {
  const canvas = createCanvas(input.width, input.height);
  const g = canvas.getContext('2d');
  background(g, input);
  if (input.text) {
    g.fillStyle = '#000000';
    g.font = labelFont(12);
    g.textAlign = 'left';
    g.textBaseline = 'top';
    g.fillText(input.text, 4, 4, Math.max(1, input.width - 8));
  }
  return encode(canvas, input.format);
}

/** GeoJSON features packed as the server sends them. */
function pack(features: RenderFeature[], attributes: string[]): PackedFeatures {
  const packer = new FeaturePacker(attributes);
  for (const f of features) packer.add(f.geometry, f.properties);
  return packer.finish();
}

/** Height of one rule's line in a legend of all rules (px). */
export const LEGEND_ROW = 20;

function background(
  g: Ctx,
  input: { format: ImageFormat; transparent: boolean; background: string; width: number; height: number },
) {
  if (input.transparent && input.format === 'image/png') return;
  g.fillStyle = input.background;
  g.fillRect(0, 0, input.width, input.height);
}

/** JPEG by Skia; PNG by encodePng from the canvas's pixels (the same pixels, in about half the time). */
function encode(canvas: Canvas, format: ImageFormat): Uint8Array {
  if (format === 'image/jpeg') return canvas.encodeSync('jpeg', 90);
  const { width, height } = canvas;
  return encodePng(canvas.getContext('2d').getImageData(0, 0, width, height).data, width, height);
}

type Position = number[];

/**
 * The fill and stroke settings last given to a context: setting them again costs a call into Skia
 * each, so they are set only when they change (drawing code that changes them otherwise does so
 * between save and restore).
 */
interface Pen {
  fill?: string;
  stroke?: string;
  alpha?: number;
  width?: number;
  dash?: string;
  round?: boolean;
}
const pens = new WeakMap<Ctx, Pen>();
function penOf(g: Ctx): Pen {
  let pen = pens.get(g);
  if (!pen) pens.set(g, (pen = {}));
  return pen;
}

function alphaWith(g: Ctx, pen: Pen, opacity: number) {
  if (pen.alpha !== opacity) g.globalAlpha = pen.alpha = opacity;
}

/**
 * A #rrggbb colour with an opacity as one rgba() colour (the same pixels as the colour under
 * globalAlpha): features filled translucent and stroked opaque then need no change of globalAlpha
 * between fill and stroke, which costs a call into Skia each. Null for other colour forms.
 */
const translucent = new Map<string, string | null>();
function colourWith(colour: string, opacity: number): string | null {
  if (opacity === 1) return colour;
  const key = `${colour}/${opacity}`;
  let out = translucent.get(key);
  if (out === undefined) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
    out = m ? `rgba(${parseInt(m[1], 16)},${parseInt(m[2], 16)},${parseInt(m[3], 16)},${opacity})` : null;
    if (translucent.size > 1000) translucent.clear();
    translucent.set(key, out);
  }
  return out;
}

function fillWith(g: Ctx, colour: string, opacity: number) {
  const pen = penOf(g);
  const combined = colourWith(colour, opacity);
  if (combined !== null) {
    colour = combined;
    opacity = 1;
  }
  if (pen.fill !== colour) g.fillStyle = pen.fill = colour;
  alphaWith(g, pen, opacity);
}

function strokeWith(g: Ctx, colour: string, opacity: number, width: number, dash: number[] | null) {
  const pen = penOf(g);
  const combined = colourWith(colour, opacity);
  if (combined !== null) {
    colour = combined;
    opacity = 1;
  }
  if (pen.stroke !== colour) g.strokeStyle = pen.stroke = colour;
  alphaWith(g, pen, opacity);
  if (pen.width !== width) g.lineWidth = pen.width = width;
  if (!pen.round) {
    g.lineCap = 'round';
    g.lineJoin = 'round';
    pen.round = true;
  }
  const key = dash ? dash.join(',') : '';
  if (pen.dash !== key) {
    g.setLineDash(dash ?? []);
    pen.dash = key;
  }
}

function tracePath(g: Ctx, rings: Position[][], close: boolean) {
  for (const ring of rings) {
    if (ring.length < 2) continue;
    g.moveTo(ring[0][0], ring[0][1]);
    for (let i = 1; i < ring.length; i++) g.lineTo(ring[i][0], ring[i][1]);
    if (close) g.closePath();
  }
}

/** Fills and strokes one polygon, its rings traced by `trace`. */
function paintPolygon(g: Ctx, s: Extract<Symbolizer, { kind: 'polygon' }>, trace: () => void) {
  g.beginPath();
  trace();
  if (s.fillOpacity > 0) {
    fillWith(g, s.fill, s.fillOpacity);
    g.fill('evenodd');
  }
  if (s.strokeWidth > 0 && s.strokeOpacity > 0) {
    strokeWith(g, s.stroke, s.strokeOpacity, s.strokeWidth, s.dash);
    g.stroke();
  }
}

type PolygonSymbolizer = Extract<Symbolizer, { kind: 'polygon' }>;

/** Draws one symbolizer (not a label) on a feature's geometry. */
function drawGeometry(g: Ctx, s: Exclude<Symbolizer, { kind: 'label' }>, p: PixelParts, icons: Icons) {
  if (s.kind === 'polygon') for (const rings of p.polygons) paintPolygon(g, s, () => tracePath(g, rings, true));
  if ((s.kind === 'polygon' || s.kind === 'line') && p.lines.length && s.strokeWidth > 0) {
    g.beginPath();
    tracePath(g, p.lines, false);
    strokeWith(g, s.stroke, s.strokeOpacity, s.strokeWidth, s.dash);
    g.stroke();
  }
  if (s.kind === 'mark') for (const [x, y] of p.points) drawMark(g, s, x, y);
  if (s.kind === 'icon') {
    const image = s.url ? icons(s.url) : null;
    for (const [x, y] of p.points) drawIcon(g, s, x, y, image);
  }
}

/** A mark centred on (x, y): a circle of its radius, or its shape scaled so that 20 of 24 units span the diameter. */
function drawMark(g: Ctx, s: Extract<Symbolizer, { kind: 'mark' }>, x: number, y: number) {
  g.save();
  g.setLineDash([]);
  let path: Path2D;
  if (s.mark === 'circle') {
    path = new Path2D();
    path.arc(x, y, s.radius, 0, Math.PI * 2);
  } else {
    const k = s.radius / 10;
    const shape = new Path2D(SHAPE_PATHS[s.mark]);
    path = new Path2D();
    path.addPath(shape, { a: k, b: 0, c: 0, d: k, e: x - 12 * k, f: y - 12 * k });
  }
  if (s.fillOpacity > 0) {
    g.fillStyle = s.fill;
    g.globalAlpha = s.fillOpacity;
    g.fill(path, 'evenodd');
  }
  if (s.strokeWidth > 0 && s.strokeOpacity > 0) {
    g.strokeStyle = s.stroke;
    g.globalAlpha = s.strokeOpacity;
    g.lineWidth = s.strokeWidth;
    g.lineJoin = 'round';
    g.stroke(path);
  }
  g.restore();
}

/** Where a feature's label sits: a point's position, a line's middle vertex, a polygon's outer ring's centroid. */
function labelPoint(p: PixelParts): [number, number] | null {
  if (p.points.length) return p.points[0] as [number, number];
  if (p.polygons.length) {
    const ring = p.polygons[0][0] ?? [];
    let a = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const f = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
      a += f;
      cx += (ring[j][0] + ring[i][0]) * f;
      cy += (ring[j][1] + ring[i][1]) * f;
    }
    if (Math.abs(a) > 1e-9) return [cx / (3 * a), cy / (3 * a)];
    return ring.length ? (ring[0] as [number, number]) : null;
  }
  const line = p.lines[0];
  return line?.length ? (line[Math.floor(line.length / 2)] as [number, number]) : null;
}

/** A label centred on (x, y) by its ink, its halo a stroke of twice the halo radius under the text. */
function drawLabel(g: Ctx, s: Extract<Symbolizer, { kind: 'label' }>, x: number, y: number) {
  g.save();
  g.font = labelFont(s.size);
  g.textAlign = 'center';
  g.textBaseline = 'alphabetic';
  g.globalAlpha = 1;
  // Centred on the ink of the text (as MapServer's position CC), not on the em box.
  const m = g.measureText(s.text);
  y += (m.actualBoundingBoxAscent - m.actualBoundingBoxDescent) / 2;
  if (s.halo && s.halo.radius > 0) {
    g.strokeStyle = s.halo.fill;
    g.lineWidth = s.halo.radius * 2;
    g.lineJoin = 'round';
    g.strokeText(s.text, x, y);
  }
  g.fillStyle = s.fill;
  g.fillText(s.text, x, y);
  g.restore();
}

/** A rule's symbol in a legend box: a polygon as a square, a line across it, a point in its middle. */
function drawLegendSymbol(
  g: Ctx,
  s: Exclude<Symbolizer, { kind: 'label' }>,
  kind: GeometryKind,
  top: number,
  box: number,
  icons: Icons,
) {
  const m = Math.max(2, box * 0.15);
  const xy: Xy = (x, y) => [x, y];
  const geometry =
    kind === 'polygon'
      ? {
          type: 'Polygon',
          coordinates: [
            [
              [m, top + m],
              [box - m, top + m],
              [box - m, top + box - m],
              [m, top + box - m],
              [m, top + m],
            ],
          ],
        }
      : kind === 'line'
        ? {
            type: 'LineString',
            coordinates: [
              [m, top + box - m],
              [box / 2, top + m],
              [box - m, top + box - m],
            ],
          }
        : { type: 'Point', coordinates: [box / 2, top + box / 2] };
  if (s.kind === 'mark') s = { ...s, radius: Math.min(s.radius, box / 2 - Math.max(1, s.strokeWidth)) };
  if (s.kind === 'icon') s = { ...s, size: Math.min(s.size, box), anchor: [0.5, 0.5], offset: [0, 0] };
  drawGeometry(g, s, geometryParts(geometry, xy), icons);
}
