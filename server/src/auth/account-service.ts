import type { DataSource, EntityManager } from 'typeorm';
import { userDisplayName, userDisplayNameSql } from '@werkbank/kernel';
import { ApiError, type AuthUser } from '@werkbank/sdk/node';
import { hashPassword, randomToken, verifyPassword } from './password';
import { sha256 } from './hash';
import type { Impersonator } from './acting-as';

export interface UserRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  max_concurrent_sessions: number | null;
  expiration_date: Date | null;
  language: string | null;
  last_login?: Date | null;
}

export interface NewSession {
  key: string;
  csrfToken: string;
}

/** Failed logins allowed per account and address within the window before 429. */
export const LOGIN_ATTEMPT_LIMIT = 5;
/** Failed logins allowed per address (any account) within the window. */
export const LOGIN_ADDRESS_LIMIT = 30;
export const LOGIN_WINDOW_MINUTES = 15;

/** How a user is named to others: the one rule of the kernel (userDisplayName). */
export const displayName = (u: Pick<UserRow, 'first_name' | 'last_name' | 'username'>): string => userDisplayName(u);

/** Accounts, sessions and API keys (spec 002 §2 "User editor", §3 "API key"). */
export class AccountService {
  /** @param sessionMaxAgeHours a session ends this long after login (SESSION_MAX_AGE_HOURS). */
  constructor(
    private readonly db: DataSource,
    private readonly sessionMaxAgeHours = 24 * 14,
  ) {}

  /** One query: the user with group ids and named permissions (own and through groups). */
  private static readonly AUTH_COLUMNS = `u.*,
    ARRAY(SELECT group_id FROM werkbank_user_group WHERE user_id = u.id ORDER BY group_id) AS group_ids,
    ARRAY(SELECT permission FROM werkbank_user_permission WHERE user_id = u.id
          UNION SELECT gp.permission FROM werkbank_group_permission gp
            JOIN werkbank_user_group ug ON ug.group_id = gp.group_id WHERE ug.user_id = u.id) AS named_permissions`;

  private toAuthUser(u: UserRow & { group_ids: number[]; named_permissions: string[] }): AuthUser | undefined {
    if (!this.mayLogIn(u)) return undefined;
    return {
      id: u.id,
      username: u.username,
      isSuperuser: u.is_superuser,
      isStaff: u.is_staff,
      groupIds: u.group_ids ?? [],
      permissions: new Set(u.named_permissions ?? []),
      language: u.language,
      displayName: displayName(u),
    };
  }

  async loadAuthUser(userId: number, m: EntityManager = this.db.manager): Promise<AuthUser | undefined> {
    const [u] = (await m.query(`SELECT ${AccountService.AUTH_COLUMNS} FROM werkbank_user u WHERE u.id = $1`, [userId])) as Array<
      UserRow & { group_ids: number[]; named_permissions: string[] }
    >;
    return u ? this.toAuthUser(u) : undefined;
  }

  /** The signed-in user of a session key, in one query; undefined for closed sessions and users who may not log in. */
  async userFromSession(
    key: string,
  ): Promise<{ user: AuthUser; keyHash: string; csrfToken: string; impersonator?: Impersonator } | undefined> {
    const keyHash = sha256(key);
    const [row] = (await this.db.query(
      `SELECT s.csrf_token, s.impersonator_id, ${AccountService.AUTH_COLUMNS},
         (SELECT ${userDisplayNameSql('i')} FROM werkbank_user i WHERE i.id = s.impersonator_id) AS impersonator_name
       FROM werkbank_session s JOIN werkbank_user u ON u.id = s.user_id
       WHERE s.key_hash = $1 AND s.is_active AND s.created_at > now() - make_interval(hours => $2)`,
      [keyHash, this.sessionMaxAgeHours],
    )) as Array<
      UserRow & {
        group_ids: number[];
        named_permissions: string[];
        csrf_token: string;
        impersonator_id: number | null;
        impersonator_name: string | null;
      }
    >;
    const user = row && this.toAuthUser(row);
    if (!user) return undefined;
    const impersonator = row.impersonator_id ? { id: row.impersonator_id, displayName: row.impersonator_name ?? '' } : undefined;
    return { user, keyHash, csrfToken: row.csrf_token, ...(impersonator && { impersonator }) };
  }

  /** is_active and expiration_date are honoured at login and on every request. */
  mayLogIn(u: Pick<UserRow, 'is_active' | 'expiration_date'>): boolean {
    if (!u.is_active) return false;
    if (u.expiration_date && new Date(u.expiration_date).getTime() <= Date.now()) return false;
    return true;
  }

  /**
   * Records a password guess for `username` from `ip` and throws 429 `too_many_attempts` when the
   * account (from this address) or the address has guessed too often within the window. The attempt
   * is recorded before it is checked, so parallel guesses count against each other. Returns its id.
   */
  private async countAttempt(username: string, ip: string): Promise<number> {
    const [attempt] = (await this.db.query(
      `INSERT INTO werkbank_login_attempt (username, ip_address) VALUES ($1, $2) RETURNING id`,
      [username, ip],
    )) as { id: number }[];
    const [{ account, address }] = (await this.db.query(
      `SELECT count(*) FILTER (WHERE username = $1)::int AS account, count(*)::int AS address FROM werkbank_login_attempt
       WHERE ip_address = $2 AND created > now() - make_interval(mins => $3)`,
      [username, ip, LOGIN_WINDOW_MINUTES],
    )) as { account: number; address: number }[];
    if (account > LOGIN_ATTEMPT_LIMIT || address > LOGIN_ADDRESS_LIMIT) {
      throw new ApiError(429, 'too_many_attempts', 'errors.too_many_attempts', { minutes: LOGIN_WINDOW_MINUTES });
    }
    return attempt.id;
  }

  /** After a right password: forgets that account's failures from that address (and this attempt). */
  private async clearAttempts(username: string, ip: string, attempt: number): Promise<void> {
    await this.db.query(`DELETE FROM werkbank_login_attempt WHERE (username = $1 AND ip_address = $2) OR id = $3`, [
      username,
      ip,
      attempt,
    ]);
  }

  /**
   * Checks the old password of a password change (issue 14 item 27). Counted like logins, in the
   * same window and limits: a stolen session cannot guess the password the login limit protects.
   * Throws 429 `too_many_attempts`, or 400 `password_wrong`.
   */
  async checkOldPassword(userId: number, password: string, ip: string): Promise<void> {
    const [u] = (await this.db.query(`SELECT username, password FROM werkbank_user WHERE id = $1`, [userId])) as UserRow[];
    if (password.length > 1000) throw ApiError.badRequest('password_wrong', 'errors.password_wrong', {}, 'old_password');
    const attempt = await this.countAttempt(u.username, ip);
    if (!(await verifyPassword(password, u.password))) {
      throw ApiError.badRequest('password_wrong', 'errors.password_wrong', {}, 'old_password');
    }
    await this.clearAttempts(u.username, ip, attempt);
  }

  /**
   * Checks a login. Throws 429 when the account (from this address) or the address has failed too
   * often recently, 400 with one message for every other failure (no hint whether the user exists).
   */
  async authenticate(username: string, password: string, ip: string): Promise<UserRow> {
    if (username.length > 150 || password.length > 1000) throw ApiError.badRequest('invalid_login', 'errors.invalid_login');
    const attempt = await this.countAttempt(username, ip);
    const [u] = (await this.db.query(`SELECT * FROM werkbank_user WHERE username = $1`, [username])) as UserRow[];
    const ok = await verifyPassword(password, u?.password ?? '');
    if (!u || !ok) throw ApiError.badRequest('invalid_login', 'errors.invalid_login');
    await this.clearAttempts(username, ip, attempt);
    if (!u.is_active) throw ApiError.forbidden('inactive_user', 'errors.inactive_user');
    if (u.expiration_date && new Date(u.expiration_date).getTime() <= Date.now()) {
      throw ApiError.forbidden('expired_user', 'errors.expired_user');
    }
    return u;
  }

  /** Opens a session with a fresh id and CSRF token; closes the oldest beyond max_concurrent_sessions. */
  async createSession(user: UserRow, ip: string, userAgent: string, impersonatorId: number | null = null): Promise<NewSession> {
    const key = randomToken(32);
    const csrfToken = randomToken(24);
    await this.db.transaction(async (m) => {
      // One login of a user at a time, so the session limit holds under concurrent logins.
      await m.query(`SELECT 1 FROM werkbank_user WHERE id = $1 FOR UPDATE`, [user.id]);
      await m.query(
        `INSERT INTO werkbank_session (key_hash, csrf_token, user_id, ip_address, user_agent, impersonator_id)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [sha256(key), csrfToken, user.id, ip, userAgent.slice(0, 1000), impersonatorId],
      );
      // Acting as a user is not their login.
      if (!impersonatorId) await m.query(`UPDATE werkbank_user SET last_login = now() WHERE id = $1`, [user.id]);
      // The limit counts the user's own sessions; a superuser acting as them neither counts nor ends one.
      if (!impersonatorId && user.max_concurrent_sessions && user.max_concurrent_sessions > 0) {
        await m.query(
          `UPDATE werkbank_session SET is_active = false, closed_at = now()
           WHERE id IN (SELECT id FROM werkbank_session WHERE user_id = $1 AND is_active AND impersonator_id IS NULL
                        ORDER BY created_at DESC, id DESC OFFSET $2)`,
          [user.id, user.max_concurrent_sessions],
        );
      }
    });
    return { key, csrfToken };
  }

  async closeSession(keyHash: string): Promise<void> {
    await this.db.query(`UPDATE werkbank_session SET is_active = false, closed_at = now() WHERE key_hash = $1 AND is_active`, [
      keyHash,
    ]);
  }

  async closeOtherSessions(userId: number, exceptKeyHash: string | undefined): Promise<void> {
    await this.db.query(
      `UPDATE werkbank_session SET is_active = false, closed_at = now()
       WHERE user_id = $1 AND is_active AND key_hash <> $2`,
      [userId, exceptKeyHash ?? ''],
    );
  }

  async setPassword(userId: number, password: string): Promise<void> {
    await this.db.query(`UPDATE werkbank_user SET password = $1 WHERE id = $2`, [await hashPassword(password), userId]);
  }

  /** Creates a user; returns its id. Used at first start and by tests. */
  async createUser(fields: {
    username: string;
    password?: string;
    is_superuser?: boolean;
    is_staff?: boolean;
    is_active?: boolean;
    first_name?: string;
    last_name?: string;
    email?: string;
    max_concurrent_sessions?: number | null;
    expiration_date?: Date | null;
  }): Promise<number> {
    const hash = fields.password ? await hashPassword(fields.password) : '';
    const [row] = (await this.db.query(
      `INSERT INTO werkbank_user (username, password, is_superuser, is_staff, is_active, first_name, last_name, email,
         max_concurrent_sessions, expiration_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        fields.username,
        hash,
        fields.is_superuser ?? false,
        fields.is_staff ?? fields.is_superuser ?? false,
        fields.is_active ?? true,
        fields.first_name ?? '',
        fields.last_name ?? '',
        fields.email ?? '',
        fields.max_concurrent_sessions ?? null,
        fields.expiration_date ?? null,
      ],
    )) as { id: number }[];
    return row.id;
  }

  /** Creates an API key. The plain key is returned once; only its hash is stored. */
  async createApiKey(userId: number, realms: string[], expiration: Date | null): Promise<{ id: number; key: string }> {
    const prefix = randomToken(9).replace(/[-_]/g, 'x').slice(0, 12);
    const key = `wbk_${prefix}_${randomToken(32)}`;
    const [row] = (await this.db.query(
      `INSERT INTO werkbank_apikey (key_prefix, key_hash, user_id, realms, expiration) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [prefix, sha256(key), userId, JSON.stringify(realms), expiration],
    )) as { id: number }[];
    return { id: row.id, key };
  }

  /** Finds the user and realms of a presented key; expired or deleted keys find nothing. */
  async apiKeyUser(key: string): Promise<{ userId: number; realms: string[] } | undefined> {
    const m = /^wbk_([A-Za-z0-9]{12})_[A-Za-z0-9_-]+$/.exec(key);
    if (!m) return undefined;
    const [row] = (await this.db.query(
      `SELECT user_id, realms, key_hash FROM werkbank_apikey
       WHERE key_prefix = $1 AND (expiration IS NULL OR expiration > now())`,
      [m[1]],
    )) as { user_id: number; realms: string[]; key_hash: string }[];
    if (!row || row.key_hash !== sha256(key)) return undefined;
    return { userId: row.user_id, realms: row.realms };
  }
}
