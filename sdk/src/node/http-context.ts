import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { TFunction } from 'i18next';
import type { Language } from '@werkbank/kernel';

/** The authenticated caller of a request. */
export interface AuthUser {
  id: number;
  username: string;
  isSuperuser: boolean;
  isStaff: boolean;
  groupIds: number[];
  /** Named permissions, own and through groups (spec 002 §6). */
  permissions: Set<string>;
  language: string | null;
  displayName: string;
}

export interface WerkbankState {
  user?: AuthUser;
  /** Session id (hash) when authenticated by cookie. */
  sessionKey?: string;
  csrfToken?: string;
  /**
   * The superuser acting as `user` when the session was opened by impersonation (issue 19); `user`
   * is then the impersonated user, whose permissions apply.
   */
  impersonator?: { id: number; displayName: string };
  /** Realms of the API key when authenticated by key; undefined for sessions. */
  apiKeyRealms?: string[];
  /** How long a JSON or form body may take to arrive (BODY_TIMEOUT_SECONDS); readText's default otherwise. */
  bodyTimeoutMs?: number;
  lang: Language;
  t: TFunction;
}

export type WerkbankContext = ParameterizedContext<WerkbankState>;

/** The router a plugin's routes and service endpoints are mounted on (under the app root). */
export type WerkbankRouter = Router<WerkbankState>;
