/**
 * The viewer's layer state (decision 0088): which entries and groups are switched on, which groups
 * are open, each layer's opacity — and from it the imagery to draw. Pure functions, so the rules
 * are tested without a browser.
 */
import { attributeFilterParam, ATTRIBUTE_FILTER_PARAM, type AttributeFilter } from '@werkbank/plugin-layers/api';
import { fittableExtent, type SceneLayer, type SceneLayerGroup } from '../common/view-scene';

export interface LayerState {
  /** Entry id → switched on. */
  on: Record<string, boolean>;
  /** Group path ('0', '0.1', ...) → switched on. */
  groupsOn: Record<string, boolean>;
  /** Group path → open in the tree. */
  open: Record<string, boolean>;
  /** Entry id → opacity 0–1. */
  opacity: Record<string, number>;
  /** Entry id → the attribute filters the visitor set (decision 0091); absent: the layer as it is. */
  filters?: Record<string, AttributeFilter[]>;
  /** The time slider's time (ISO 8601); absent or null: the slider was not moved. */
  time?: string | null;
}

/** The attribute filters a layer offers visitors (those not hidden). */
export const offeredFilters = (layer: SceneLayer): AttributeFilter[] =>
  (layer.source?.attribute_filters ?? []).filter((f) => f.visible !== false);

/** Sets (or with undefined, resets) one of an entry's filters; the others keep what the visitor set. */
export function setFilter(state: LayerState, layer: SceneLayer, index: number, filter: AttributeFilter | undefined): LayerState {
  const offered = offeredFilters(layer);
  const current = state.filters?.[layer.id] ?? offered;
  const next = offered.map((f, i) => (i === index ? (filter ?? f) : (current[i] ?? f)));
  const changed = next.some((f, i) => JSON.stringify(f.filter) !== JSON.stringify(offered[i].filter));
  const filters = { ...state.filters };
  if (changed) filters[layer.id] = next;
  else delete filters[layer.id];
  return { ...state, filters };
}

/** The time range of the view's time slider: the earliest start and latest end of its entries' time ranges. */
export function timeRange(root: SceneLayerGroup): [string, string] | null {
  let min: string | null = null;
  let max: string | null = null;
  const walk = (group: SceneLayerGroup) => {
    for (const l of group.layers)
      if (l.time_min && l.time_max) {
        if (!min || Date.parse(l.time_min) < Date.parse(min)) min = l.time_min;
        if (!max || Date.parse(l.time_max) > Date.parse(max)) max = l.time_max;
      }
    group.layergroups.forEach(walk);
  };
  walk(root);
  return min && max ? [min, max] : null;
}

/** Whether an entry is shown at the slider's time: entries without a time range always are. */
export function atTime(layer: SceneLayer, state: LayerState): boolean {
  if (!state.time || !layer.time_min || !layer.time_max) return true;
  const t = Date.parse(state.time);
  return t >= Date.parse(layer.time_min) && t <= Date.parse(layer.time_max);
}

/**
 * The filters the map service applies to an entry: those the visitor changed, and with the time
 * slider moved, the layer's time filter up to the slider's time (the state of the data then).
 */
export function activeFilters(layer: SceneLayer, state: LayerState): AttributeFilter[] {
  const set = state.filters?.[layer.id];
  const offered = offeredFilters(layer);
  let filters = set ? [...set] : [];
  const temporal = offered.findIndex((f) => f.filter.filter_type === 'temporal-bounds');
  if (state.time && layer.time_min && layer.time_max && temporal >= 0) {
    const base = (set ?? offered)[temporal];
    const timed: AttributeFilter = {
      ...base,
      filter: { ...base.filter, filter_arguments: { ...base.filter.filter_arguments, time_max: state.time } },
    };
    filters = set ? filters.map((f, i) => (i === temporal ? timed : f)) : [timed];
  }
  return filters;
}

/** An address with more query parameters (`&` when it has some already). */
export function withQuery(url: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .filter(([, v]) => v)
    // Commas may stay as they are (bbox=w,s,e,n reads better).
    .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`)
    .join('&');
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

/** The query parameters of an entry's map requests: the frozen view's name, the active filters. */
export function layerParams(layer: SceneLayer, state: LayerState, finalview: string | null): Record<string, string> {
  return { finalview: finalview ?? '', [ATTRIBUTE_FILTER_PARAM]: attributeFilterParam(activeFilters(layer, state)) };
}

/** A group's path below the root: its indexes joined by dots; the root is ''. */
export const childPath = (path: string, index: number) => (path === '' ? String(index) : `${path}.${index}`);

/** The state a view opens with: its `init_visible` and `init_expanded` settings and its opacities. */
export function initialState(root: SceneLayerGroup): LayerState {
  const state: LayerState = { on: {}, groupsOn: {}, open: {}, opacity: {}, filters: {}, time: null };
  const walk = (group: SceneLayerGroup, path: string) => {
    if (path !== '') {
      state.groupsOn[path] = group.init_visible;
      state.open[path] = group.init_expanded;
    }
    for (const layer of group.layers) {
      state.on[layer.id] = layer.init_visible;
      state.opacity[layer.id] = layer.opacity;
    }
    group.layergroups.forEach((g, i) => walk(g, childPath(path, i)));
  };
  walk(root, '');
  return state;
}

/**
 * Switches an entry on or off. A `single` entry switched on switches off the other entries of its
 * group, and so does any entry of a group shown as variants (one variant at a time).
 */
export function switchLayer(state: LayerState, group: SceneLayerGroup, layer: SceneLayer, on: boolean): LayerState {
  const next = { ...state, on: { ...state.on, [layer.id]: on } };
  if (on && (layer.single || group.group_display === 'variants'))
    for (const other of group.layers) if (other.id !== layer.id) next.on[other.id] = false;
  return next;
}

/** A layer is drawn when it and every group above it are switched on and the visitor may read it. */
export function drawnLayers(root: SceneLayerGroup, state: LayerState): SceneLayer[] {
  const out: SceneLayer[] = [];
  const walk = (group: SceneLayerGroup, path: string) => {
    if (path !== '' && !state.groupsOn[path]) return;
    for (const layer of group.layers) if (state.on[layer.id] && layer.source && atTime(layer, state)) out.push(layer);
    group.layergroups.forEach((g, i) => walk(g, childPath(path, i)));
  };
  walk(root, '');
  return out;
}

/**
 * The imagery of the drawn layers, bottom first: the tree's first row is drawn on top, as in a
 * GIS's layer list. A frozen view's requests carry its name, so the services answer its pinned data.
 */
export function imageryOf(layers: readonly SceneLayer[], state: LayerState, finalview: string | null): DrawnImagery[] {
  return layers
    .filter((l) => l.source)
    .map((l): DrawnImagery => {
      const source = l.source!;
      const params = layerParams(l, state, finalview);
      const common = {
        opacity: state.opacity[l.id] ?? l.opacity,
        // Where tiles are asked for; a single point's extent has no area, so it grows a little.
        ...(source.bbox ? { bbox: fittableExtent(source.bbox) } : {}),
      };
      // Filtered maps come from the WMS: the cached tiles show the layer unfiltered.
      return source.wmts && !params[ATTRIBUTE_FILTER_PARAM]
        ? {
            kind: 'wmts',
            url: withQuery(source.wmts.url, params),
            layer: source.wmts.layer,
            tileMatrixSet: source.wmts.tileMatrixSet,
            ...common,
          }
        : { kind: 'wms', url: withQuery(source.wms.url, params), layers: source.wms.layers, ...common };
    })
    .reverse();
}

/** Imagery as the viewer draws it: WMTS tiles where the layer has them, else WMS. */
export type DrawnImagery = { opacity: number; bbox?: [number, number, number, number] } & (
  { kind: 'wms'; url: string; layers: string } | { kind: 'wmts'; url: string; layer: string; tileMatrixSet: string }
);

/** The name that identifies drawn imagery (its layer's service name). */
export const imageryName = (i: DrawnImagery) => (i.kind === 'wms' ? i.layers : i.layer);
