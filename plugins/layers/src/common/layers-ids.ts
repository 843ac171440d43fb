/** Navigation keys and routes of the layer screens (spec 000 §2, §9 persisted navigation keys). */
export const LAYERS_ROUTE = '/layers/';
export const layerEditRoute = (id: number | string) => `/layers/edit/${id}`;
export const LAYER_FILTER_KEY = 'layer_filter';
export const LAYER_PRESENTATION_KEY = 'layer_presentation';
export const LAYER_FAVORITES_KEY = 'layer_favorites';
/** Recently used layers; the spec gives no number for layers, so as many as depots. */
export const LAYER_MRU_KEY = 'layer_mru';
export const LAYER_MRU_LIMIT = 4;
/** The tag realm of layers (the sidebar tag list per realm, spec 000 §2). */
export const LAYER_REALM = 'layer';
