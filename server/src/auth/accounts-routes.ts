import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import { normaliseLanguage, LANGUAGES } from '@werkbank/kernel';
import { ApiError, guard, type WerkbankContext, type WerkbankState } from '@werkbank/sdk/node';
import { readForm, readJsonObject } from '../http/body';
import { AccountService, displayName } from './account-service';
import { CSRF_COOKIE, SESSION_COOKIE, cookieOptions } from './auth-middleware';

export const MIN_PASSWORD_LENGTH = 8;

function clientIp(ctx: WerkbankContext): string {
  return (ctx.ip || ctx.request.socket.remoteAddress || '').slice(0, 64);
}

/**
 * Login, logout, password change and the caller's profile (spec 000 §7 "Accounts and keys").
 * Logging in always issues a new session id and a new CSRF token (no session fixation).
 */
export function mountAccountRoutes(
  router: Router<WerkbankState>,
  accounts: AccountService,
  db: DataSource,
  opts: { secureCookies: boolean; bodyLimit: number },
): void {
  router.post('/accounts/login/', async (ctx) => {
    const form = await readForm(ctx, opts.bodyLimit);
    const username = (form.username ?? '').trim();
    const user = await accounts.authenticate(username, form.password ?? '', clientIp(ctx));
    if (ctx.state.sessionKey) await accounts.closeSession(ctx.state.sessionKey);
    const session = await accounts.createSession(user, clientIp(ctx), ctx.get('user-agent'));
    ctx.cookies.set(SESSION_COOKIE, session.key, cookieOptions(opts.secureCookies, true));
    ctx.cookies.set(CSRF_COOKIE, session.csrfToken, cookieOptions(opts.secureCookies, false));
    ctx.body = { status: 'ok', user: `/api/v1/user/${user.id}/`, username: user.username, display_name: displayName(user) };
  });

  const logout = async (ctx: WerkbankContext) => {
    if (ctx.state.sessionKey) await accounts.closeSession(ctx.state.sessionKey);
    ctx.cookies.set(SESSION_COOKIE, null, cookieOptions(opts.secureCookies, true));
    ctx.cookies.set(CSRF_COOKIE, null, cookieOptions(opts.secureCookies, false));
  };
  // spec 000 §2: /accounts/logout/ is a full page load; it ends the session and shows the login page.
  router.get('/accounts/logout/', async (ctx) => {
    await logout(ctx);
    ctx.redirect('/accounts/login/');
  });
  router.post('/accounts/logout/', async (ctx) => {
    await logout(ctx);
    ctx.body = { status: 'ok' };
  });

  router.post('/accounts/password/', async (ctx) => {
    guard(ctx, undefined, undefined, 'accounts');
    const user = ctx.state.user!;
    const form = await readForm(ctx, opts.bodyLimit);
    await accounts.checkOldPassword(user.id, form.old_password ?? '', clientIp(ctx));
    const next = form.new_password1 ?? '';
    if (next !== (form.new_password2 ?? ''))
      throw ApiError.badRequest('password_mismatch', 'errors.password_mismatch', {}, 'new_password2');
    if (next.length < MIN_PASSWORD_LENGTH) {
      throw ApiError.badRequest('password_too_short', 'errors.password_too_short', { min: MIN_PASSWORD_LENGTH }, 'new_password1');
    }
    await accounts.setPassword(user.id, next);
    await accounts.closeOtherSessions(user.id, ctx.state.sessionKey);
    ctx.body = { status: 'ok' };
  });

  router.get('/api/v2/backend/profile', async (ctx) => {
    guard(ctx, undefined, undefined, 'accounts');
    const user = ctx.state.user!;
    ctx.body = {
      user: `/api/v1/user/${user.id}/`,
      username: user.username,
      display_name: user.displayName,
      language: ctx.state.lang,
      is_superuser: user.isSuperuser,
    };
  });
  router.patch('/api/v2/backend/profile', async (ctx) => {
    guard(ctx, undefined, undefined, 'accounts');
    const user = ctx.state.user!;
    const body = await readJsonObject(ctx, opts.bodyLimit);
    for (const k of Object.keys(body)) {
      if (k !== 'language') throw ApiError.badRequest('unknown_field', 'errors.unknown_field', { field: k }, k);
    }
    const lang = body.language;
    if (typeof lang !== 'string' || !(LANGUAGES as readonly string[]).includes(lang)) {
      throw ApiError.badRequest('invalid_language', 'errors.invalid_language', {}, 'language');
    }
    await db.query(`UPDATE werkbank_user SET language = $1 WHERE id = $2`, [normaliseLanguage(lang), user.id]);
    ctx.body = { status: 'ok', language: lang };
  });
}
