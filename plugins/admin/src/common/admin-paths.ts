/** The server addresses the administration screens use (spec 000 §7). */
export const USER_PATH = '/api/v1/user/';
export const GROUP_PATH = '/api/v1/group/';
export const APIKEY_PATH = '/api/v1/apikey/';
export const SESSION_PATH = '/api/v1/session/';
export const PERMISSIONS_PATH = '/api/v2/backend/permissions';
export const REALMS_PATH = '/api/v2/backend/realms';
/** spec 000 §7: POST /accounts/send-invite/ with email (and the user and the mail's language, decision 0041). */
export const SEND_INVITE_PATH = '/accounts/send-invite/';

/** Navigation-state keys of the lists (spec 000 §3: presentation and filters per list). */
export const USER_PRESENTATION_KEY = 'admin.users.presentation';
export const USER_FILTERS_KEY = 'admin.users.filters';
export const GROUP_PRESENTATION_KEY = 'admin.groups.presentation';

/** Impersonation (spec 000 §7): start acting as the user with this id. */
export const impersonatePath = (id: number) => `/api/v2/backend/users/${id}/impersonate`;
