import type { Middleware } from 'koa';
import type { i18n } from 'i18next';
import { languageFromHeader, normaliseLanguage } from '@werkbank/kernel';
import { ApiError, hasNamedPermission, NamedPermission, type WerkbankState } from '@werkbank/sdk/node';
import type { AccountService } from './account-service';
import { randomToken, safeEqual } from './password';
import { runActingAs } from './acting-as';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const LANG_COOKIE = 'werkbank_lang';
export const CSRF_HEADER = 'x-csrftoken';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * GET addresses of the spec that change state (spec 000 §7): they need the X-CSRFToken header like
 * unsafe methods, and each has a POST form (docs/api.md "State-changing GETs"). An address is one
 * of them when its last segment is in `lastSegments` (any kind's `{id}/favor/`, a function's
 * `favor/`, an add-on's `inform/`, a moment's `finalize/`) or it is one of `paths`. Compared on
 * the normalised path (normalisePath), in any letter case. The OpenAPI document marks these GETs
 * with `x-changes-state: true`; test/api/hardening-csrf.spec.ts checks both against each other.
 */
export const STATE_CHANGING_GETS = {
  lastSegments: ['favor', 'unfavor', 'inform', 'finalize'],
  paths: ['/api/v2/switchboard/create/', '/api/v2/switchboard/create/datum/', '/switchboard/create-finalview/'],
} as const;

/** Whether a GET of this (normalised) path changes state and so needs the CSRF header. */
export function isStateChangingGet(path: string): boolean {
  const p = path.toLowerCase();
  const last = /([^/]*)\/?$/.exec(p)![1];
  return (
    (STATE_CHANGING_GETS.lastSegments as readonly string[]).includes(last) ||
    STATE_CHANGING_GETS.paths.some((x) => p === x || p === x.slice(0, -1))
  );
}

export function cookieOptions(secure: boolean, httpOnly: boolean) {
  return { httpOnly, sameSite: 'lax' as const, secure, path: '/', overwrite: true, signed: false };
}

/** Where desktop GIS clients call: their addresses may carry the API key as a query parameter. */
export const SERVICE_PATH_PREFIX = '/services/';

/**
 * The `apikey` query parameter (any case, as OGC clients send their parameters) of a call to a
 * layer service (decision 0083). Desktop GIS clients cannot set headers on every request, so the
 * services accept the key in the address; the risk (the key lands in logs and histories of proxies
 * and clients) is documented for administrators, and only service addresses accept it.
 */
function serviceUrlKey(ctx: Parameters<Middleware<WerkbankState>>[0]): string {
  if (!ctx.path.startsWith(SERVICE_PATH_PREFIX)) return '';
  for (const [name, value] of Object.entries(ctx.query)) {
    if (name.toLowerCase() === 'apikey') return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  }
  return '';
}

/**
 * Resolves the caller (API key header or session cookie), the language, and enforces CSRF
 * (spec 000 §7: csrftoken cookie echoed in X-CSRFToken on every unsafe method and state-changing
 * GET; the token must be the session's, whatever the cookie says). Runs on the normalised path
 * (normalisePathMiddleware comes first), the one the router sees. API-key calls
 * carry no cookies and need no CSRF token; a call presenting an unknown, expired or deleted key
 * stays anonymous (never falls back to the session cookie) and is refused with 401; a key of a user
 * without the access_connect permission is refused with 403 `access_connect_required`.
 */
export function authMiddleware(accounts: AccountService, i18nInstance: i18n, secureCookies: boolean): Middleware<WerkbankState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const apiKey = (header.startsWith('ApiKey ') ? header.slice(7).trim() : ctx.get('x-api-key')) || serviceUrlKey(ctx);
    const viaKey = !!apiKey;
    if (apiKey) {
      const found = await accounts.apiKeyUser(apiKey);
      const user = found && (await accounts.loadAuthUser(found.userId));
      if (user) {
        ctx.state.user = user;
        ctx.state.apiKeyRealms = found.realms;
      }
    } else {
      const key = ctx.cookies.get(SESSION_COOKIE);
      const session = key ? await accounts.userFromSession(key) : undefined;
      if (session) {
        ctx.state.user = session.user;
        ctx.state.sessionKey = session.keyHash;
        ctx.state.csrfToken = session.csrfToken;
        if (session.impersonator) ctx.state.impersonator = session.impersonator;
      }
    }
    ctx.state.lang = normaliseLanguage(
      ctx.state.user?.language ?? ctx.cookies.get(LANG_COOKIE) ?? languageFromHeader(ctx.get('accept-language')),
    );
    ctx.state.t = i18nInstance.getFixedT(ctx.state.lang, 'server');
    // Calling with an API key needs access_connect (decision 0041), read with the user on every call,
    // so granting or taking it (on the user or a group) counts at once.
    if (viaKey && ctx.state.user && !hasNamedPermission(ctx.state.user, NamedPermission.accessConnect)) {
      throw ApiError.forbidden('access_connect_required', 'errors.access_connect_required');
    }

    // The csrftoken cookie: the session's token when signed in, otherwise an anonymous one.
    let cookieToken = ctx.cookies.get(CSRF_COOKIE);
    const expected = ctx.state.csrfToken ?? cookieToken;
    if (!viaKey && (!cookieToken || (ctx.state.csrfToken && cookieToken !== ctx.state.csrfToken))) {
      cookieToken = ctx.state.csrfToken ?? randomToken(24);
      ctx.cookies.set(CSRF_COOKIE, cookieToken, cookieOptions(secureCookies, false));
    }
    const needsToken = !SAFE.has(ctx.method) || isStateChangingGet(ctx.path);
    if (needsToken && !viaKey) {
      const sent = ctx.get(CSRF_HEADER);
      if (!sent) throw new ApiError(403, 'csrf_missing', 'errors.csrf_missing');
      if (!expected || !safeEqual(sent, expected)) throw new ApiError(403, 'csrf_mismatch', 'errors.csrf_mismatch');
    }
    // While impersonating, whatever the request records names the superuser behind it (issue 19).
    if (ctx.state.impersonator) await runActingAs(ctx.state.impersonator, next);
    else await next();
  };
}
