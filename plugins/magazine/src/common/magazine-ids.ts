/** spec 000 §9: the most-recently-used depots (navigation key, kept per user across reloads). */
export const DEPOT_MRU_KEY = 'depot_mru';
export const DEPOT_MRU_LIMIT = 4;

/** Navigation state: the folder the depot list shows (default folder of new depots and folders). */
export const DEPOT_FOLDER_KEY = 'depot_folder';
/** Navigation state (spec 000 §3): the last depot path chosen in a depot path editor. */
export const LAST_DEPOT_PATH_KEY = 'last_depot_path';
/** Navigation state: cards or table on the depot list and in a depot. */
export const DEPOT_PRESENTATION_KEY = 'depot_presentation';
export const DATUM_PRESENTATION_KEY = 'datum_presentation';
export const DEPOT_FAVORITES_KEY = 'depot_favorites';

/** spec 000 §4: after a folder was deleted the list reloads after this delay. */
export const FOLDER_DELETE_RELOAD_MS = 250;
