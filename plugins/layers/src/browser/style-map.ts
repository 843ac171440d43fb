import type { MapFeature } from '@werkbank/sdk';
import type { MapFeatureStyle, MapFeatureStyler } from '@werkbank/sdk/browser';
import { SHAPE_PATHS } from '../common/style-shapes';
import { evaluateStyle, UnknownSymbolTypeError, type LayerStyle, type Symbolizer } from '../common/style-model';

const images = new Map<string, HTMLCanvasElement>();

/** A mark or billboard icon drawn once on a canvas (the map's point image), cached by its look. */
function shapeImage(s: Extract<Symbolizer, { kind: 'mark' | 'icon' }>): HTMLCanvasElement | string {
  if (s.kind === 'icon' && s.url) return s.url;
  const key = JSON.stringify(
    s.kind === 'mark'
      ? [s.mark, s.radius, s.fill, s.fillOpacity, s.stroke, s.strokeOpacity, s.strokeWidth]
      : [s.icon, s.size, s.fill],
  );
  const cached = images.get(key);
  if (cached) return cached;
  const size = Math.max(4, Math.ceil(s.kind === 'mark' ? s.radius * 2 + s.strokeWidth * 2 : s.size));
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const g = canvas.getContext('2d');
  if (g) {
    const inner = s.kind === 'mark' ? s.radius * 2 : s.size;
    g.translate((size - inner) / 2, (size - inner) / 2);
    g.scale(inner / 24, inner / 24);
    const path = new Path2D(SHAPE_PATHS[s.kind === 'mark' ? s.mark : (s.icon ?? 'marker')]);
    g.fillStyle = s.fill;
    g.globalAlpha = s.kind === 'mark' ? s.fillOpacity : 1;
    g.fill(path, 'evenodd');
    if (s.kind === 'mark' && s.strokeWidth > 0) {
      g.globalAlpha = s.strokeOpacity;
      g.strokeStyle = s.stroke;
      g.lineWidth = (s.strokeWidth * 24) / inner;
      g.stroke(path);
    }
  }
  images.set(key, canvas);
  return canvas;
}

/** What one rule's symbolizers look like on the SDK map. */
function toMapStyle(parts: Symbolizer[]): MapFeatureStyle {
  const out: MapFeatureStyle = {};
  for (const s of parts) {
    switch (s.kind) {
      case 'polygon':
        Object.assign(out, {
          fill: s.fill,
          fillOpacity: s.fillOpacity,
          stroke: s.stroke,
          strokeOpacity: s.strokeOpacity,
          strokeWidth: s.strokeWidth,
          dash: s.dash,
        });
        break;
      case 'line':
        Object.assign(out, { stroke: s.stroke, strokeOpacity: s.strokeOpacity, strokeWidth: s.strokeWidth, dash: s.dash });
        break;
      case 'mark':
        out.point =
          s.mark === 'circle'
            ? { size: s.radius * 2 }
            : { image: shapeImage(s), size: Math.ceil(s.radius * 2 + s.strokeWidth * 2) };
        Object.assign(out, {
          fill: s.fill,
          fillOpacity: s.fillOpacity,
          stroke: s.stroke,
          strokeOpacity: s.strokeOpacity,
          strokeWidth: s.strokeWidth,
        });
        break;
      case 'icon':
        out.point = { image: shapeImage(s), size: s.size, opacity: s.opacity };
        break;
      case 'label':
        out.label = {
          text: s.text,
          size: s.size,
          fill: s.fill,
          haloFill: s.halo?.fill,
          haloWidth: s.halo?.radius,
          dx: s.dx,
          dy: s.dy,
        };
        break;
    }
  }
  return out;
}

/**
 * The SDK map's styler for a layer style: per feature, evaluateStyle's symbolizers at the map's
 * scale, one map style per rule that applies (decision 0061: the same evaluation as the server's);
 * for the feature under the pointer the hover symbols of the rules that enable them (decision 0067).
 */
export function mapStyler(style: LayerStyle): MapFeatureStyler {
  return (feature: MapFeature, scale: number, state?: { hover: boolean }) => {
    let parts: Symbolizer[];
    try {
      parts = evaluateStyle(style, { geometry: feature.geometry, properties: feature.properties }, scale, {
        hover: state?.hover ?? false,
      });
    } catch (e) {
      if (e instanceof UnknownSymbolTypeError) return [];
      throw e;
    }
    const byRule = new Map<number, Symbolizer[]>();
    for (const p of parts) byRule.set(p.rule, [...(byRule.get(p.rule) ?? []), p]);
    return [...byRule.values()].map(toMapStyle);
  };
}
