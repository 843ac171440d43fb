/**
 * Our style as a MapLibre style document (style spec version 8): per rule and geometry kind one
 * style layer, the rule's filter as a MapLibre expression, its scale range as zoom limits
 * (decision 0061: written here, geostyler-mapbox-parser does not run on Node 20).
 */
import { symbolizersOf, type GeometryKind, type LayerStyle, type StyleFilter, type Symbolizer } from './style-model';

/** Scale denominator at zoom 0 of MapLibre's 512 px tiles (OGC 0.28 mm pixels, web mercator). */
export const MAPLIBRE_Z0_SCALE = 279541132.014;

/** The MapLibre zoom that a scale denominator stands for. */
export const scaleToMapLibreZoom = (denominator: number): number =>
  Math.min(24, Math.max(0, Math.round(Math.log2(MAPLIBRE_Z0_SCALE / denominator) * 100) / 100));

type Expression = unknown[];

/** A rule's filter as a MapLibre expression. */
export function filterToMapLibre(f: StyleFilter): Expression {
  if (f.op === 'and') return ['all', ...f.filters.map(filterToMapLibre)];
  if (f.op === 'or') return ['any', ...f.filters.map(filterToMapLibre)];
  if (f.op === 'not') return ['!', filterToMapLibre(f.filter)];
  const get = ['get', f.attribute];
  if (f.value === null)
    return f.op === '!=' ? ['has', f.attribute] : f.op === '==' ? ['!', ['has', f.attribute]] : ['boolean', false];
  if (f.op === '==' || f.op === '!=') return [f.op, get, f.value];
  // Ordering comparisons need one type on both sides: numbers compare as numbers, others as text.
  return typeof f.value === 'number' ? [f.op, ['to-number', get, 0], f.value] : [f.op, ['to-string', get], String(f.value)];
}

const GEOMETRY: Record<GeometryKind, string[]> = {
  point: ['Point', 'MultiPoint'],
  line: ['LineString', 'MultiLineString'],
  polygon: ['Polygon', 'MultiPolygon'],
};

/** A MapLibre style layer (loosely typed: the document is JSON). */
export type MapLibreLayer = Record<string, unknown> & { id: string; type: string };

export interface MapLibreStyle {
  version: 8;
  name: string;
  sources: Record<string, { type: 'geojson'; data: string }>;
  layers: MapLibreLayer[];
}

function layersOf(
  s: Symbolizer,
  base: { id: string; source: string; filter: Expression; zoom: Record<string, number> },
): MapLibreLayer[] {
  const common = { source: base.source, filter: base.filter, ...base.zoom };
  switch (s.kind) {
    case 'polygon': {
      const fill: MapLibreLayer = {
        id: `${base.id}-fill`,
        type: 'fill',
        ...common,
        paint: { 'fill-color': s.fill, 'fill-opacity': s.fillOpacity },
      };
      if (s.strokeWidth <= 0) return [fill];
      return [
        fill,
        {
          id: `${base.id}-outline`,
          type: 'line',
          ...common,
          paint: {
            'line-color': s.stroke,
            'line-width': s.strokeWidth,
            'line-opacity': s.strokeOpacity,
            ...(s.dash ? { 'line-dasharray': dashInWidths(s.dash, s.strokeWidth) } : {}),
          },
        },
      ];
    }
    case 'line':
      return [
        {
          id: `${base.id}-line`,
          type: 'line',
          ...common,
          paint: {
            'line-color': s.stroke,
            'line-width': s.strokeWidth,
            'line-opacity': s.strokeOpacity,
            ...(s.dash ? { 'line-dasharray': dashInWidths(s.dash, s.strokeWidth) } : {}),
          },
        },
      ];
    case 'mark':
      if (s.mark === 'circle')
        return [
          {
            id: `${base.id}-circle`,
            type: 'circle',
            ...common,
            paint: {
              'circle-radius': s.radius,
              'circle-color': s.fill,
              'circle-opacity': s.fillOpacity,
              'circle-stroke-color': s.stroke,
              'circle-stroke-width': s.strokeWidth,
              'circle-stroke-opacity': s.strokeOpacity,
            },
          },
        ];
      return [iconLayer(base.id, common, s.mark, s.radius * 2, s.fillOpacity)];
    case 'icon':
      return [iconLayer(base.id, common, s.url ?? s.icon ?? 'marker', s.size, s.opacity)];
    case 'label':
      return [
        {
          id: `${base.id}-label`,
          type: 'symbol',
          ...common,
          layout: {
            'text-field': ['to-string', ['get', s.field]],
            'text-size': s.size,
            ...(s.dx || s.dy ? { 'text-offset': [s.dx / s.size, s.dy / s.size] } : {}),
          },
          paint: {
            'text-color': s.fill,
            ...(s.halo ? { 'text-halo-color': s.halo.fill, 'text-halo-width': s.halo.radius } : {}),
          },
        },
      ];
  }
}

/** MapLibre measures dashes in line widths; ours are px. */
const dashInWidths = (dash: number[], width: number) => dash.map((d) => Math.round((d / Math.max(width, 1)) * 100) / 100);

/** A symbol layer drawing a sprite image (a mark, billboard or image address: the map's sprite must offer it). */
function iconLayer(id: string, common: Record<string, unknown>, image: string, size: number, opacity: number): MapLibreLayer {
  return {
    id: `${id}-icon`,
    type: 'symbol',
    ...common,
    layout: { 'icon-image': image, 'icon-size': Math.round((size / 32) * 100) / 100, 'icon-allow-overlap': true },
    paint: { 'icon-opacity': opacity },
  };
}

/**
 * Our style as a MapLibre style: one GeoJSON source (`data`, the layer's GeoJSON address) and,
 * per rule and geometry kind in `kinds`, the layers that draw it (rules in order, labels on top of
 * their rule's geometry). Scale ranges become minzoom (from max_scale_denominator) and maxzoom.
 */
export function styleToMapLibre(
  style: LayerStyle,
  options: { name: string; source: string; data: string; kinds?: readonly GeometryKind[] },
): MapLibreStyle {
  const kinds = options.kinds ?? ['polygon', 'line', 'point'];
  const layers: MapLibreLayer[] = [];
  style.rules.forEach((rule, i) => {
    const zoom: Record<string, number> = {};
    if (typeof rule.max_scale_denominator === 'number' && rule.max_scale_denominator > 0)
      zoom.minzoom = scaleToMapLibreZoom(rule.max_scale_denominator);
    if (typeof rule.min_scale_denominator === 'number' && rule.min_scale_denominator > 0)
      zoom.maxzoom = scaleToMapLibreZoom(rule.min_scale_denominator);
    for (const kind of (['polygon', 'line', 'point'] as const).filter((k) => kinds.includes(k))) {
      const geometry: Expression = ['in', ['geometry-type'], ['literal', GEOMETRY[kind]]];
      const filter = rule.filter ? ['all', geometry, filterToMapLibre(rule.filter)] : geometry;
      for (const s of symbolizersOf(rule.symbol, kind, i))
        layers.push(...layersOf(s, { id: `rule-${i + 1}-${kind}`, source: options.source, filter, zoom }));
    }
  });
  return { version: 8, name: options.name, sources: { [options.source]: { type: 'geojson', data: options.data } }, layers };
}
