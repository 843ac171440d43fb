/**
 * The viewer's layer state (decision 0088): which entries and groups are switched on, which groups
 * are open, each layer's opacity — and from it the imagery to draw. Pure functions, so the rules
 * are tested without a browser.
 */
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
}

/** A group's path below the root: its indexes joined by dots; the root is ''. */
export const childPath = (path: string, index: number) => (path === '' ? String(index) : `${path}.${index}`);

/** The state a view opens with: its `init_visible` and `init_expanded` settings and its opacities. */
export function initialState(root: SceneLayerGroup): LayerState {
  const state: LayerState = { on: {}, groupsOn: {}, open: {}, opacity: {} };
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
    for (const layer of group.layers) if (state.on[layer.id] && layer.source) out.push(layer);
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
  const pinned = (url: string) => (finalview ? `${url}?finalview=${encodeURIComponent(finalview)}` : url);
  return layers
    .filter((l) => l.source)
    .map((l): DrawnImagery => {
      const source = l.source!;
      const common = {
        opacity: state.opacity[l.id] ?? l.opacity,
        // Where tiles are asked for; a single point's extent has no area, so it grows a little.
        ...(source.bbox ? { bbox: fittableExtent(source.bbox) } : {}),
      };
      return source.wmts
        ? {
            kind: 'wmts',
            url: pinned(source.wmts.url),
            layer: source.wmts.layer,
            tileMatrixSet: source.wmts.tileMatrixSet,
            ...common,
          }
        : { kind: 'wms', url: pinned(source.wms.url), layers: source.wms.layers, ...common };
    })
    .reverse();
}

/** Imagery as the viewer draws it: WMTS tiles where the layer has them, else WMS. */
export type DrawnImagery = { opacity: number; bbox?: [number, number, number, number] } & (
  { kind: 'wms'; url: string; layers: string } | { kind: 'wmts'; url: string; layer: string; tileMatrixSet: string }
);

/** The name that identifies drawn imagery (its layer's service name). */
export const imageryName = (i: DrawnImagery) => (i.kind === 'wms' ? i.layers : i.layer);
