/**
 * What the public viewer opens (decision 0088): a view or a frozen view as one document — its texts,
 * trees, start position, configuration and translations, and per layer entry what the viewer needs
 * to draw it (its service address, extent, descriptions, selection fields). One module for the
 * server that builds it and the viewer that reads it.
 */
import type { AttributeFilter, SelectionField } from '@werkbank/plugin-layers/api';
import type { CameraPosition, Poi, PoiGroup, ViewConfig, ViewLayer, ViewLayerGroup } from './view-tree';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from './view-translations';

export const VIEW_SCENE_PATH = '/api/v2/presenting/view/:ref/scene';
export const VIEW_PREVIEW_PATH = '/api/v2/presenting/view/:ref/preview';
export const viewPreviewPath = (id: number) => `/api/v2/presenting/view/${id}/preview`;
export const FINALVIEW_SCENE_PATH = '/api/v2/presenting/finalview/:slug/scene';
export const viewScenePath = (ref: string) => `/api/v2/presenting/view/${encodeURIComponent(ref)}/scene`;
export const finalviewScenePath = (slug: string) => `/api/v2/presenting/finalview/${encodeURIComponent(slug)}/scene`;

/** A layer as the viewer draws it; absent from an entry when the visitor may not read the layer. */
export interface SceneLayerSource {
  id: number;
  /** The layer's own name (the entry's `name` wins when set). */
  name: string;
  description_title: string;
  description: string;
  /** Where the layer has data: west, south, east, north in degrees (its bbox, else its data's extent); null: unknown. */
  bbox: [number, number, number, number] | null;
  /** When the layer was last changed (ISO 8601; the tree shows it when the entry asks). */
  modified: string;
  /** The WMS endpoint (GetMap, GetFeatureInfo, GetLegendGraphic) and the layer's name in it. */
  wms: { url: string; layers: string };
  /**
   * The WMTS (KVP) the viewer draws the layer from when there is one: cached tiles of
   * WebMercatorQuad, so every visitor after the first gets them from the tile cache; null: drawn by WMS.
   */
  wmts: { url: string; layer: string; tileMatrixSet: string } | null;
  /** The GeoJSON service of the layer (vector layers), for downloads of the current extent. */
  geojson: string | null;
  selection_title: string;
  selection_fields: SelectionField[];
  attribute_filters: AttributeFilter[];
}

export interface SceneLayer extends ViewLayer {
  source?: SceneLayerSource;
}

export interface SceneLayerGroup extends Omit<ViewLayerGroup, 'layers' | 'layergroups'> {
  layers: SceneLayer[];
  layergroups: SceneLayerGroup[];
}

export interface ViewScene {
  /** `view` or `finalview`. */
  kind: 'view' | 'finalview';
  id: number;
  slug: string;
  name: string;
  subline: string;
  description: string;
  image: string;
  public: boolean;
  home: CameraPosition | null;
  layergroup: SceneLayerGroup;
  poigroup: PoiGroup;
  config: ViewConfig;
  /** Key (a text in the author's language) → its translations. */
  translations: Record<string, Partial<Record<TranslationLanguage, string>>>;
  /** A frozen view's short name, which every service request carries (`finalview=`), else null. */
  finalview: string | null;
  /** The configured base map (z/x/y), null: the Natural Earth imagery shipped with the viewer. */
  base_map_tile_url: string | null;
  /** Where the view's start mode starts the viewer when it has no explicit start position; null: 'Automatic'. */
  start: SceneStart | null;
}

/** Where a start mode starts the viewer: a camera, an extent to fit, or a place (decision 0093). */
export type SceneStart =
  | { kind: 'camera'; camera: CameraPosition }
  | { kind: 'extent'; bbox: [number, number, number, number] }
  | { kind: 'place'; poi: Poi };

/**
 * A text of the view in `lang`: its translation when there is one, else the author's own text (the
 * key), so a view without translations reads as its author wrote it.
 */
export function translated(scene: Pick<ViewScene, 'translations'>, text: string, lang: string): string {
  if (!text) return text;
  const values = scene.translations[text];
  return (values && TRANSLATION_LANGUAGES.includes(lang as TranslationLanguage) && values[lang as TranslationLanguage]) || text;
}

/**
 * A viewer address from a template (VIEWER_URL_VIEW, VIEWER_URL_FINALVIEW): `{slug}` is the short
 * name, or the id when there is none; `{id}` the id.
 */
export function viewerAddress(template: string, object: { id: number; slug?: string | null }): string {
  const name = encodeURIComponent(object.slug || String(object.id));
  return template.replaceAll('{slug}', name).replaceAll('{id}', String(object.id));
}

/** The layer entries of a scene, depth first in tree order. */
export function sceneLayers(group: SceneLayerGroup): SceneLayer[] {
  return [...group.layers, ...group.layergroups.flatMap(sceneLayers)];
}

/** The union of the extents of the layers shown at start ('Automatic' home), or null when none has one. */
export function startExtent(group: SceneLayerGroup, shown = true): [number, number, number, number] | null {
  const here = shown && group.visible && group.init_visible;
  let out: [number, number, number, number] | null = null;
  const add = (b: [number, number, number, number] | null | undefined) => {
    if (!b) return;
    out = out ? [Math.min(out[0], b[0]), Math.min(out[1], b[1]), Math.max(out[2], b[2]), Math.max(out[3], b[3])] : [...b];
  };
  for (const layer of group.layers) if (here && layer.visible && layer.init_visible) add(layer.source?.bbox);
  for (const child of group.layergroups) add(startExtent(child, here));
  return out;
}

/**
 * An extent the camera can fit: one without width or height (a single point, a line along a
 * meridian) grows to at least `min` degrees around its middle, clamped to the world.
 */
export function fittableExtent(bbox: [number, number, number, number], min = 0.01): [number, number, number, number] {
  const [w, s, e, n] = bbox;
  const grow = (lo: number, hi: number, limit: number): [number, number] => {
    if (hi - lo >= min) return [lo, hi];
    const mid = (lo + hi) / 2;
    return [Math.max(-limit, mid - min / 2), Math.min(limit, mid + min / 2)];
  };
  const [west, east] = grow(w, e, 180);
  const [south, north] = grow(s, n, 90);
  return [west, south, east, north];
}

/** The union of the extents of every layer in the tree (shown at start or not), or null. */
export function fullExtent(group: SceneLayerGroup): [number, number, number, number] | null {
  const boxes = sceneLayers(group)
    .map((l) => l.source?.bbox)
    .filter((b): b is [number, number, number, number] => !!b);
  if (!boxes.length) return null;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** The first visible place of the tree, depth first in its order, or null. */
export function firstPlace(group: PoiGroup): Poi | null {
  if (!group.visible) return null;
  const poi = group.pois.find((p) => p.visible);
  if (poi) return poi;
  for (const child of group.poigroups) {
    const found = firstPlace(child);
    if (found) return found;
  }
  return null;
}
