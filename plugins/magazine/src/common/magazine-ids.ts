/**
 * Ids other plugins use to extend the Magazine screens.
 *
 * DATUM_CARD_MENU: the menu of a datum card and table row (spec 000 §2 "Datum card with a menu").
 * Contribute entries with the kernel's MenuContribution, `menu: DATUM_CARD_MENU`; `run(target)` and
 * `when(ctx, target)` receive a DatumMenuTarget. The Magazine itself adds edit, duplicate and delete.
 */
export const DATUM_CARD_MENU = 'magazine.datum-card';

/** What a datum card menu entry receives. */
export interface DatumMenuTarget {
  /** The datum as listed (envelope and type fields). */
  datum: { id: number; index: number; resource_uri: string; content_type: string; [field: string]: unknown };
  depot: { id: number; resource_uri: string; name: string; content_type: string };
  /** True when the datum cannot be changed: shown at an older moment, or the caller may only read the depot. */
  readOnly: boolean;
}

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
