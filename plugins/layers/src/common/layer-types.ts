/**
 * Layer types and what each accepts (spec 001 §3.1, issue 16). One place for the rules both sides
 * apply: the server refuses what they refuse, the editor offers only what they allow.
 */

/** The layer types, in the order the editor offers them. */
export const LAYER_TYPES = ['feature', 'wfs', 'external_feature', 'external_map', 'mapproxy', 'pmtiles', 'metalayer'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

/** spec 001 §3.1 "Layer types with zoom settings": only these carry the zoom keys of `attr`. */
export const ZOOM_LAYER_TYPES: readonly LayerType[] = [
  'mapproxy',
  'wfs',
  'feature',
  'external_feature',
  'external_map',
  'pmtiles',
  'metalayer',
];

/** spec 001 §3.1 "Layer attr zoom keys". */
export const ZOOM_KEYS = ['min_zoom', 'max_zoom', 'min_load_level', 'max_load_level'] as const;
export type ZoomKey = (typeof ZOOM_KEYS)[number];

/** spec 001 §9: zoom level choices 0 to 24. */
export const ZOOM_MIN = 0;
export const ZOOM_MAX = 24;

/**
 * The depot content types a layer of each type stacks as layerpiles (a depot qualifies when its
 * type is one of these or derives from one). Remote sources (wfs, external_feature) come as OGC API
 * collections or features a WFS import wrote; maps as WMS/WMTS datums; a metalayer stacks layers.
 */
export const PILE_TYPES: Record<LayerType, readonly string[]> = {
  feature: ['feature'],
  wfs: ['feature', 'ogcapicollection'],
  external_feature: ['ogcapicollection', 'feature'],
  external_map: ['wms', 'wmts'],
  mapproxy: ['wms', 'wmts'],
  pmtiles: ['feature'],
  metalayer: ['layer'],
};

export function isLayerType(v: unknown): v is LayerType {
  return typeof v === 'string' && (LAYER_TYPES as readonly string[]).includes(v);
}

export function hasZoomSettings(type: string): boolean {
  return (ZOOM_LAYER_TYPES as readonly string[]).includes(type);
}

/** The layer type a depot of `contentType` is shown as, or undefined (`isAssignable` from the type registry). */
export function layerTypeForDepot(
  contentType: string,
  isAssignable: (from: string, to: string) => boolean,
): LayerType | undefined {
  if (isAssignable(contentType, 'feature')) return 'feature';
  if (isAssignable(contentType, 'ogcapicollection')) return 'external_feature';
  if (isAssignable(contentType, 'wms') || isAssignable(contentType, 'wmts')) return 'external_map';
  if (isAssignable(contentType, 'layer')) return 'metalayer';
  return undefined;
}
