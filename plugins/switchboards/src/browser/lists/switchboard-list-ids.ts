import { SWITCHBOARDS_ROUTE } from '../../common/switchboard-types';

/** spec 000 §9: persisted navigation keys of the switchboard list. */
/** The folder the list shows: a folder address, or null for the root. Also the folder of new switchboards. */
export const SWITCHBOARD_FOLDER_KEY = 'switchboard_folder';
/** The submitted search text. */
export const SWITCHBOARD_FILTER_KEY = 'switchboard_filter';
/** Cards or table. */
export const SWITCHBOARD_PRESENTATION_KEY = 'switchboard_presentation';
/** spec 000 §6: the system-tags toggle (read by the SDK's RealmTagList as well). */
export const SHOW_SYSTEM_TAGS_KEY = 'show_system_tags';
/** Only favourites (kept for the session, not across reloads). */
export const SWITCHBOARD_FAVORITES_KEY = 'switchboard_favorites';

/** spec 000 §9: the two most recently used switchboards (a `_mru` key, kept per user across reloads). */
export const SWITCHBOARD_MRU_KEY = 'switchboard_mru';
export const SWITCHBOARD_MRU_LIMIT = 2;

/**
 * The tag realm of switchboards (spec 000 §2 "A sidebar tag list exists per realm"). The tags API
 * names realms by resource kind (`?realm=switchboard`), so the realm is the kind, not the list name.
 */
export const SWITCHBOARD_TAG_REALM = 'switchboard';

/** spec 000 §4: after a folder was deleted the list reloads after this delay. */
export const FOLDER_DELETE_RELOAD_MS = 250;

/** "Use in switchboard": the screen that creates a switchboard from a datum (`?datum=` its address). */
export const FROM_DATUM_ROUTE = `${SWITCHBOARDS_ROUTE}from-datum`;
export const fromDatumRoute = (datum: string) => `${FROM_DATUM_ROUTE}?datum=${encodeURIComponent(datum)}`;

/** What the caller may do with an object (its `access` list, docs/api.md "Objects"). */
export const mayWrite = (o: { access?: string[] } | undefined) => !!o?.access?.includes('write');
export const mayExecute = (o: { access?: string[] } | undefined) => !!o?.access?.includes('execute');
