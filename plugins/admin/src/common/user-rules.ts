/**
 * The rules of the user editor (spec 002 §3–§5), shared by the editor and its tests. The server
 * enforces the username rule and max_concurrent_sessions < 1 → no limit as well.
 */

import { isValidEmail } from '@werkbank/sdk';

/** spec 002 §5: no spaces or special characters; allowed besides letters and digits are . _ - */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

/** spec 002 §5: new users start with every permission except these. */
export const NOT_GRANTED_TO_NEW_USERS = ['publish_view', 'access_connect'];

export interface UserDraft {
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  /** Empty: the password stays as it is (a new user without one cannot log in yet). */
  password: string;
  notes: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  /** As typed; below 1 or empty means no limit. */
  max_concurrent_sessions: string;
  /** yyyy-mm-dd as typed; empty means none. */
  expiration_date: string;
  groups: string[];
  user_permissions: string[];
  /**
   * spec 002 §4 'Send invitation' (new users, while invitations are enabled): the user gets an
   * e-mail with a one-time link to set their password and becomes active then (decision 0041).
   */
  send_invite: boolean;
  /** The language of the invitation mail, as the inviter chooses. */
  invite_language: 'de' | 'en';
}

export interface UserRecord {
  first_name?: string;
  last_name?: string;
  username?: string;
  email?: string;
  notes?: string;
  is_active?: boolean;
  is_staff?: boolean;
  is_superuser?: boolean;
  max_concurrent_sessions?: number | null;
  expiration_date?: string | null;
  groups?: string[];
  user_permissions?: string[];
}

/**
 * The editor's draft of a user. A new user (no record) is active, not staff, and holds every
 * permission of `known` but publish_view and access_connect (spec 002 §5).
 */
export function userDraftOf(u: UserRecord | undefined, known: string[], language = 'en'): UserDraft {
  return {
    send_invite: false,
    invite_language: language === 'de' ? 'de' : 'en',
    first_name: u?.first_name ?? '',
    last_name: u?.last_name ?? '',
    username: u?.username ?? '',
    email: u?.email ?? '',
    password: '',
    notes: u?.notes ?? '',
    is_active: u?.is_active ?? true,
    is_staff: u?.is_staff ?? false,
    is_superuser: u?.is_superuser ?? false,
    max_concurrent_sessions: u?.max_concurrent_sessions ? String(u.max_concurrent_sessions) : '',
    expiration_date: u?.expiration_date ? u.expiration_date.slice(0, 10) : '',
    groups: u?.groups ?? [],
    user_permissions: u ? (u.user_permissions ?? []) : known.filter((p) => !NOT_GRANTED_TO_NEW_USERS.includes(p)),
  };
}

/** spec 002 §5: below 1 (or not a number) is sent as null, no limit. */
export function sessionLimitOf(typed: string): number | null {
  const n = Number.parseInt(typed.trim(), 10);
  return Number.isFinite(n) && n >= 1 ? n : null;
}

/** spec 002 §5: an empty expiration date is sent as null; a date expires at the end of that day (UTC). */
export function expirationOf(typed: string): string | null {
  const d = typed.trim();
  return d ? `${d}T23:59:59.000Z` : null;
}

/**
 * The body a save sends; the password only when one was typed. spec 002 §4: with 'Send invitation'
 * the user is sent inactive and without a password (the invitation's link sets both).
 */
export function userBodyOf(d: UserDraft): Record<string, unknown> {
  if (d.send_invite) return { ...userBodyOf({ ...d, send_invite: false, password: '' }), is_active: false };
  return {
    first_name: d.first_name.trim(),
    last_name: d.last_name.trim(),
    username: d.username.trim(),
    email: d.email.trim(),
    notes: d.notes,
    is_active: d.is_active,
    is_staff: d.is_staff,
    is_superuser: d.is_superuser,
    max_concurrent_sessions: sessionLimitOf(d.max_concurrent_sessions),
    expiration_date: expirationOf(d.expiration_date),
    groups: d.groups,
    user_permissions: d.user_permissions,
    ...(d.password && { raw_password: d.password }),
  };
}

/** The fields of `next` that differ from `before` (a save sends only those). */
export function changedFields(before: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v)));
}

/** spec 002 §5: the email is checked only when an invitation is to be sent. */
export function emailProblem(d: Pick<UserDraft, 'email' | 'send_invite'>): 'email_invalid' | undefined {
  return d.send_invite && !isValidEmail(d.email) ? 'email_invalid' : undefined;
}

/** Why a username cannot be saved, as a translation key, or undefined when it can. */
export function usernameProblem(username: string): 'username_required' | 'username_invalid' | undefined {
  const u = username.trim();
  if (!u) return 'username_required';
  return USERNAME_PATTERN.test(u) ? undefined : 'username_invalid';
}

export interface PermissionBox {
  checked: boolean;
  disabled: boolean;
  /** Granted through one of the user's groups. */
  fromGroup: boolean;
}

/**
 * One permission checkbox of the user editor (spec 002 §5): a superuser shows every permission
 * checked (and nothing to change); group-granted permissions show checked; for a staff user who is
 * not superuser the boxes are disabled except those granted by group membership.
 */
export function permissionBox(
  permission: string,
  user: Pick<UserDraft, 'is_staff' | 'is_superuser' | 'user_permissions'>,
  groupGranted: ReadonlySet<string>,
): PermissionBox {
  const fromGroup = groupGranted.has(permission);
  if (user.is_superuser) return { checked: true, disabled: true, fromGroup };
  return {
    checked: fromGroup || user.user_permissions.includes(permission),
    disabled: user.is_staff && !fromGroup,
    fromGroup,
  };
}

/** The new list of own permissions after ticking or clearing `permission`. */
export function togglePermission(own: string[], permission: string, on: boolean): string[] {
  return on ? [...new Set([...own, permission])] : own.filter((p) => p !== permission);
}
