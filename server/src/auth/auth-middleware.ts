import type { Middleware } from 'koa';
import type { i18n } from 'i18next';
import { languageFromHeader, normaliseLanguage } from '@werkbank/kernel';
import { ApiError, type WerkbankState } from '@werkbank/sdk/node';
import type { AccountService } from './account-service';
import { randomToken, safeEqual } from './password';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const LANG_COOKIE = 'werkbank_lang';
export const CSRF_HEADER = 'x-csrftoken';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** GET calls of the spec that change state; they need the CSRF header like unsafe methods. */
const STATEFUL_GET = /\/(favor|unfavor|inform|finalize)\/?$|^\/api\/v2\/switchboard\/create(\/datum)?\/?$/i;

export function cookieOptions(secure: boolean, httpOnly: boolean) {
  return { httpOnly, sameSite: 'lax' as const, secure, path: '/', overwrite: true, signed: false };
}

/**
 * Resolves the caller (API key header or session cookie), the language, and enforces CSRF
 * (spec 000 §7: csrftoken cookie echoed in X-CSRFToken on every unsafe method). API-key calls
 * carry no cookies and need no CSRF token; a call presenting an unknown, expired or deleted key
 * stays anonymous (never falls back to the session cookie) and is refused with 401.
 */
export function authMiddleware(accounts: AccountService, i18nInstance: i18n, secureCookies: boolean): Middleware<WerkbankState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const apiKey = header.startsWith('ApiKey ') ? header.slice(7).trim() : ctx.get('x-api-key');
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
      }
    }
    ctx.state.lang = normaliseLanguage(
      ctx.state.user?.language ?? ctx.cookies.get(LANG_COOKIE) ?? languageFromHeader(ctx.get('accept-language')),
    );
    ctx.state.t = i18nInstance.getFixedT(ctx.state.lang, 'server');

    // The csrftoken cookie: the session's token when signed in, otherwise an anonymous one.
    let cookieToken = ctx.cookies.get(CSRF_COOKIE);
    const expected = ctx.state.csrfToken ?? cookieToken;
    if (!viaKey && (!cookieToken || (ctx.state.csrfToken && cookieToken !== ctx.state.csrfToken))) {
      cookieToken = ctx.state.csrfToken ?? randomToken(24);
      ctx.cookies.set(CSRF_COOKIE, cookieToken, cookieOptions(secureCookies, false));
    }
    const needsToken = !SAFE.has(ctx.method) || STATEFUL_GET.test(ctx.path);
    if (needsToken && !viaKey) {
      const sent = ctx.get(CSRF_HEADER);
      if (!sent) throw new ApiError(403, 'csrf_missing', 'errors.csrf_missing');
      if (!expected || !safeEqual(sent, expected)) throw new ApiError(403, 'csrf_mismatch', 'errors.csrf_mismatch');
    }
    await next();
  };
}
