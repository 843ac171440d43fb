import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import type { i18n } from 'i18next';
import {
  ApiError,
  guard,
  isValidEmail,
  parseRef,
  type ServerConfig,
  type WerkbankContext,
  type WerkbankState,
} from '@werkbank/sdk/node';
import type { EventService } from '../resources/event-service';
import { readForm } from '../http/body';
import { displayName, type UserRow } from './account-service';
import { AccountLinks, type LinkPurpose } from './account-links';
import type { AccountMailer } from './account-mailer';
import { MIN_PASSWORD_LENGTH } from './accounts-routes';

/** Invitations one superuser may send per hour. */
export const INVITES_PER_HOUR = 50;
/** Password-reset requests per client address per hour (beyond: 429, whatever the addresses). */
export const RESET_REQUESTS_PER_IP_HOUR = 20;
/** Reset mails per e-mail address per hour (beyond: the same reply, no mail). */
export const RESET_MAILS_PER_ADDRESS_HOUR = 3;

const languageOf = (v: unknown, fallback: string): 'de' | 'en' =>
  v === 'de' || v === 'en' ? v : fallback === 'de' ? 'de' : 'en';

const clientIp = (ctx: WerkbankContext) => (ctx.ip || ctx.request.socket.remoteAddress || '').slice(0, 64);

/**
 * Account mail (issue 19, spec 000 §7 "POST /accounts/send-invite/", decision 0041): invitations
 * sent by superusers, password resets anyone may ask for, and the one-time links of both, used on
 * the workbench's public page /accounts/set-password/. Unsafe calls need the CSRF token like every
 * other (anonymous callers have one too).
 */
export function mountAccountMailRoutes(
  router: Router<WerkbankState>,
  deps: {
    db: DataSource;
    config: ServerConfig;
    mailer: AccountMailer;
    events: EventService;
    i18n: i18n;
    log: (m: string) => void;
  },
): void {
  const { db, config, mailer, events } = deps;
  const translate = (lang: 'de' | 'en', key: string, params: Record<string, unknown>) =>
    deps.i18n.getFixedT(lang, 'server')(key, params);
  const links = new AccountLinks(db);
  const expiresText = (lang: 'de' | 'en', d: Date) =>
    new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Berlin',
      timeZoneName: 'short',
    }).format(d);
  const audit = async (user: UserRow, metadata: Record<string, unknown>, by: number | null) => {
    await events.record(db.manager, {
      key: 'update',
      userId: by,
      kind: 'user',
      objectId: user.id,
      objectUri: `/api/v1/user/${user.id}/`,
      repr: user.username,
      ownerId: null,
      metadata,
    });
    events.announce('user');
  };
  /** Issues a link and mails it; the link is revoked again when the mail cannot be sent. */
  const mailLink = async (user: UserRow, purpose: LinkPurpose, lang: 'de' | 'en', by: { id: number; name: string } | null) => {
    const hours = purpose === 'invite' ? config.invitationValidHours : config.passwordResetValidHours;
    const link = await links.issue(user.id, purpose, hours, by?.id ?? null);
    const params = {
      name: displayName(user),
      username: user.username,
      inviter: by?.name ?? '',
      link: mailer.link(link.url),
      expires: expiresText(lang, link.expires),
    };
    try {
      await mailer.send({
        to: user.email,
        subject: translate(lang, `mail.${purpose}_subject`, params),
        text: translate(lang, `mail.${purpose}_body`, params),
      });
    } catch (e) {
      await links.revoke(link.token);
      throw e;
    }
    return link;
  };

  // spec 000 §7: POST /accounts/send-invite/ form with email; spec 002 §4 (new users only).
  router.post('/accounts/send-invite/', async (ctx) => {
    guard(ctx, undefined, undefined, 'user');
    const me = ctx.state.user!;
    if (!me.isSuperuser) throw ApiError.forbidden('superuser_required', 'errors.superuser_required');
    const form = await readForm(ctx, config.bodyLimit);
    const email = (form.email ?? '').trim();
    if (!isValidEmail(email)) throw ApiError.badRequest('invalid_email', 'errors.invalid_email', {}, 'email');
    mailer.assertReady();
    const user = await invitee(db, email, form.user);
    if (user.password || user.last_login) throw ApiError.badRequest('invite_not_new', 'errors.invite_not_new', {}, 'email');
    if ((await links.sentLastHour(me.id)) >= INVITES_PER_HOUR)
      throw new ApiError(429, 'too_many_invitations', 'errors.too_many_invitations', { count: INVITES_PER_HOUR });
    const lang = languageOf(form.language, ctx.state.lang);
    const link = await mailLink(user, 'invite', lang, { id: me.id, name: me.displayName });
    await audit(user, { invitation: 'sent', language: lang }, me.id);
    ctx.body = {
      status: 'ok',
      message: ctx.state.t('messages.invitation_sent'),
      user: `/api/v1/user/${user.id}/`,
      expires: link.expires.toISOString(),
    };
  });

  // 'Forgot password?': the same reply whether or not the address belongs to anyone.
  router.post('/accounts/password-reset/', async (ctx) => {
    const form = await readForm(ctx, config.bodyLimit);
    const email = (form.email ?? '').trim();
    if (!isValidEmail(email)) throw ApiError.badRequest('invalid_email', 'errors.invalid_email', {}, 'email');
    mailer.assertReady();
    const ip = clientIp(ctx);
    const [{ byIp, byAddress }] = (await db.query(
      `SELECT count(*) FILTER (WHERE ip_address = $1)::int AS "byIp", count(*) FILTER (WHERE address = lower($2))::int AS "byAddress"
       FROM werkbank_mail_request WHERE created > now() - interval '1 hour' AND (ip_address = $1 OR address = lower($2))`,
      [ip, email],
    )) as { byIp: number; byAddress: number }[];
    if (byIp >= RESET_REQUESTS_PER_IP_HOUR)
      throw new ApiError(429, 'too_many_attempts', 'errors.too_many_reset_requests', { minutes: 60 });
    await db.query(`INSERT INTO werkbank_mail_request (address, ip_address) VALUES (lower($1), $2)`, [email, ip]);
    await db.query(`DELETE FROM werkbank_mail_request WHERE created < now() - interval '1 day'`);
    if (byAddress < RESET_MAILS_PER_ADDRESS_HOUR) {
      const users = (await db.query(
        `SELECT * FROM werkbank_user WHERE lower(email) = lower($1) AND is_active
           AND (expiration_date IS NULL OR expiration_date > now()) ORDER BY id LIMIT 5`,
        [email],
      )) as UserRow[];
      // Sent after the reply, so its time does not tell whether the address is known.
      const fallback = languageOf(form.language, ctx.state.lang);
      for (const u of users) {
        void mailLink(u, 'reset', languageOf(u.language, fallback), null).then(
          () => audit(u, { password_reset: 'requested' }, null),
          (e: Error) =>
            deps.log(`password reset mail to user ${u.id} failed: ${e.message} ${JSON.stringify((e as ApiError).params ?? {})}`),
        );
      }
    }
    ctx.body = { status: 'ok', message: ctx.state.t('messages.password_reset_sent') };
  });

  // The set-password page asks whom a link is for before showing the form.
  router.post('/accounts/link/', async (ctx) => {
    const form = await readForm(ctx, config.bodyLimit);
    const target = await links.peek(form.token ?? '');
    ctx.body = {
      status: 'ok',
      purpose: target.purpose,
      username: target.user.username,
      display_name: displayName(target.user),
      expires: target.expires.toISOString(),
    };
  });

  router.post('/accounts/set-password/', async (ctx) => {
    const form = await readForm(ctx, config.bodyLimit);
    const next = form.new_password1 ?? '';
    await links.peek(form.token ?? '');
    if (next !== (form.new_password2 ?? ''))
      throw ApiError.badRequest('password_mismatch', 'errors.password_mismatch', {}, 'new_password2');
    if (next.length < MIN_PASSWORD_LENGTH)
      throw ApiError.badRequest('password_too_short', 'errors.password_too_short', { min: MIN_PASSWORD_LENGTH }, 'new_password1');
    if (next.length > 1000) throw ApiError.badRequest('password_too_long', 'errors.password_too_long', {}, 'new_password1');
    const own = ctx.state.user && ctx.state.sessionKey ? ctx.state.sessionKey : undefined;
    const target = await links.redeem(form.token ?? '', next, own);
    await audit(
      target.user,
      target.purpose === 'invite' ? { invitation: 'accepted' } : { password_reset: 'done' },
      target.user.id,
    );
    ctx.body = {
      status: 'ok',
      purpose: target.purpose,
      username: target.user.username,
      message: ctx.state.t(target.purpose === 'invite' ? 'messages.invitation_accepted' : 'messages.password_reset_done'),
    };
  });
}

/**
 * The user an invitation goes to: the one named by `userRef` (whose email must be `email`), or the
 * one new user (no password, never logged in) with that address. 400 otherwise, saying why.
 */
async function invitee(db: DataSource, email: string, userRef: string | undefined): Promise<UserRow> {
  if (userRef) {
    const id = parseRef(userRef, '/api/v1/user/');
    const [u] = id ? ((await db.query(`SELECT * FROM werkbank_user WHERE id = $1`, [id])) as UserRow[]) : [];
    if (!u) throw ApiError.badRequest('invalid_user', 'errors.invalid_user', {}, 'user');
    if (u.email.trim().toLowerCase() !== email.toLowerCase())
      throw ApiError.badRequest('invite_email_mismatch', 'errors.invite_email_mismatch', {}, 'email');
    return u;
  }
  const found = (await db.query(
    `SELECT * FROM werkbank_user WHERE lower(email) = lower($1) AND password = '' AND last_login IS NULL ORDER BY id DESC LIMIT 2`,
    [email],
  )) as (UserRow & { last_login: Date | null })[];
  if (!found.length) throw ApiError.badRequest('invite_no_user', 'errors.invite_no_user', {}, 'email');
  if (found.length > 1) throw ApiError.badRequest('invite_ambiguous', 'errors.invite_ambiguous', {}, 'email');
  return found[0];
}
