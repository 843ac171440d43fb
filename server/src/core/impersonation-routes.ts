import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import { ApiError, type WerkbankContext, type WerkbankState } from '@werkbank/sdk/node';
import { displayName, type AccountService, type UserRow } from '../auth/account-service';
import { CSRF_COOKIE, SESSION_COOKIE, cookieOptions } from '../auth/auth-middleware';
import { runActingAs } from '../auth/acting-as';
import type { EventService } from '../resources/event-service';

/**
 * Impersonation (spec 000 §6, §7 "POST /api/v2/backend/users/{id}/impersonate"; issue 19; decision
 * 0040). A superuser signed in by session acts as another user who is not a superuser: the current
 * session ends and a new one (new id, new CSRF token) opens for that user, naming the superuser.
 * `POST /api/v2/backend/impersonate/stop` ends it the same way and returns to the superuser. Both
 * are recorded in the activity feed with both users; so is everything done in between.
 */
export function mountImpersonationRoutes(
  router: Router<WerkbankState>,
  db: DataSource,
  accounts: AccountService,
  events: EventService,
  opts: { secureCookies: boolean },
): void {
  const ip = (ctx: WerkbankContext) => (ctx.ip || ctx.request.socket.remoteAddress || '').slice(0, 64);
  const openSession = async (ctx: WerkbankContext, user: UserRow, impersonatorId: number | null) => {
    if (ctx.state.sessionKey) await accounts.closeSession(ctx.state.sessionKey);
    const session = await accounts.createSession(user, ip(ctx), ctx.get('user-agent'), impersonatorId);
    ctx.cookies.set(SESSION_COOKIE, session.key, cookieOptions(opts.secureCookies, true));
    ctx.cookies.set(CSRF_COOKIE, session.csrfToken, cookieOptions(opts.secureCookies, false));
  };
  // An 'update' of the user (the feed's keys are the spec's), marked as the start or end of acting as them.
  const record = async (impersonation: 'start' | 'stop', by: { id: number; displayName: string }, target: UserRow) => {
    await runActingAs(by, () =>
      events.record(db.manager, {
        key: 'update',
        userId: target.id,
        kind: 'user',
        objectId: target.id,
        objectUri: `/api/v1/user/${target.id}/`,
        repr: target.username,
        ownerId: null,
        metadata: { impersonation },
      }),
    );
    events.announce('user');
  };
  const sessionOnly = (ctx: WerkbankContext) => {
    if (!ctx.state.user) throw ApiError.unauthorized();
    if (!ctx.state.sessionKey) throw ApiError.forbidden('session_required', 'errors.impersonate_session_required');
  };

  router.post('/api/v2/backend/users/:id/impersonate', async (ctx) => {
    sessionOnly(ctx);
    const me = ctx.state.user!;
    if (ctx.state.impersonator) throw ApiError.forbidden('already_impersonating', 'errors.already_impersonating');
    if (!me.isSuperuser) throw ApiError.forbidden('superuser_required', 'errors.superuser_required');
    const id = /^\d+$/.test(ctx.params.id) ? Number(ctx.params.id) : NaN;
    const [target] = Number.isSafeInteger(id)
      ? ((await db.query(`SELECT * FROM werkbank_user WHERE id = $1`, [id])) as UserRow[])
      : [];
    if (!target) throw ApiError.notFound();
    if (target.id === me.id) throw ApiError.badRequest('invalid_user', 'errors.impersonate_self');
    // Never into another superuser: that would hide who holds the highest rights.
    if (target.is_superuser) throw ApiError.forbidden('impersonate_superuser', 'errors.impersonate_superuser');
    if (!accounts.mayLogIn(target)) throw ApiError.badRequest('inactive_user', 'errors.impersonate_inactive');
    await openSession(ctx, target, me.id);
    await record('start', { id: me.id, displayName: me.displayName }, target);
    ctx.body = { status: 'ok', user: `/api/v1/user/${target.id}/`, display_name: displayName(target) };
  });

  router.post('/api/v2/backend/impersonate/stop', async (ctx) => {
    sessionOnly(ctx);
    const by = ctx.state.impersonator;
    if (!by) throw ApiError.badRequest('not_impersonating', 'errors.not_impersonating');
    const [target] = (await db.query(`SELECT * FROM werkbank_user WHERE id = $1`, [ctx.state.user!.id])) as UserRow[];
    const [original] = (await db.query(`SELECT * FROM werkbank_user WHERE id = $1`, [by.id])) as UserRow[];
    await record('stop', by, target);
    await openSession(ctx, original, null);
    ctx.body = { status: 'ok', user: `/api/v1/user/${original.id}/`, display_name: displayName(original) };
  });
}
