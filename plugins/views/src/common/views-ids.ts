/** Routes and navigation keys of the view screens (spec 000 §2, §9 persisted navigation keys). */
export const VIEWS_ROUTE = '/views/';
export const viewEditRoute = (id: number | string) => `/views/edit/${id}`;
export const VIEW_PRESENTATION_KEY = 'view_presentation';
export const VIEW_FAVORITES_KEY = 'view_favorites';
/** spec 000 §8: the view list shows the 2 recently used views. */
export const VIEW_MRU_KEY = 'view_mru';
export const VIEW_MRU_LIMIT = 2;
/** The tag realm of views. */
export const VIEW_REALM = 'view';
/** The view editor's active tab (spec 002 §2: from navigation state, else the first). */
export const VIEW_TAB_KEY = 'view_editor_tab';
/** Messages between the view editor and the viewer in its preview frame (same origin only). */
export const PREVIEW_SCENE_MESSAGE = 'werkbank_view_scene';
export const PREVIEW_CAMERA_MESSAGE = 'werkbank_viewer_camera';
export const PREVIEW_READY_MESSAGE = 'werkbank_viewer_ready';
