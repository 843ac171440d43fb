import type { DataSource } from 'typeorm';
import { ApiError } from '@werkbank/sdk/node';
import type { UserRow } from './account-service';
import { hashPassword, randomToken } from './password';
import { sha256 } from './hash';

export type LinkPurpose = 'invite' | 'reset';

/** What a valid link leads to (the set-password page shows whom it is for). */
export interface LinkTarget {
  purpose: LinkPurpose;
  user: UserRow;
  expires: Date;
}

/** The path of the set-password page; the token follows '#', so it never reaches a server log. */
export const SET_PASSWORD_PATH = '/accounts/set-password/';

/**
 * One-time links of account mail (decision 0041): a random 256-bit token of which only the sha256
 * is stored, for one purpose and user, with an expiry. Issuing a new link of a purpose ends the
 * user's older ones; using a link ends every open link of the user.
 */
export class AccountLinks {
  constructor(private readonly db: DataSource) {}

  /** A new link for `userId`; the plain token is returned once. */
  async issue(userId: number, purpose: LinkPurpose, validHours: number, createdBy: number | null) {
    const token = randomToken(32);
    const expires = new Date(Date.now() + validHours * 3600_000);
    await this.db.transaction(async (m) => {
      await m.query(`UPDATE werkbank_account_token SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [
        userId,
        purpose,
      ]);
      await m.query(
        `INSERT INTO werkbank_account_token (token_hash, user_id, purpose, created_by, expires) VALUES ($1, $2, $3, $4, $5)`,
        [sha256(token), userId, purpose, createdBy, expires],
      );
    });
    return { token, expires, url: `${SET_PASSWORD_PATH}#${token}` };
  }

  /** Ends a link that was issued but whose mail could not be sent. */
  async revoke(token: string): Promise<void> {
    await this.db.query(`UPDATE werkbank_account_token SET used_at = now() WHERE token_hash = $1`, [sha256(token)]);
  }

  /** Invitations `userId` sent within the last hour (the rate limit of send-invite). */
  async sentLastHour(userId: number): Promise<number> {
    const [{ n }] = (await this.db.query(
      `SELECT count(*)::int AS n FROM werkbank_account_token
       WHERE created_by = $1 AND purpose = 'invite' AND created > now() - interval '1 hour'`,
      [userId],
    )) as { n: number }[];
    return n;
  }

  /**
   * The target of a link that can still be used. Throws 400 `link_invalid` (unknown token),
   * `link_used` or `link_expired`, each with a message that says what to do.
   */
  async peek(token: string): Promise<LinkTarget> {
    const [row] = (await this.db.query(
      `SELECT t.purpose, t.expires, t.used_at, to_jsonb(u) AS user FROM werkbank_account_token t
       JOIN werkbank_user u ON u.id = t.user_id WHERE t.token_hash = $1`,
      [sha256(token.trim())],
    )) as { purpose: LinkPurpose; expires: Date; used_at: Date | null; user: UserRow }[];
    return this.usable(row);
  }

  private usable(row: { purpose: LinkPurpose; expires: Date; used_at: Date | null; user: UserRow } | undefined): LinkTarget {
    if (!row) throw ApiError.badRequest('link_invalid', 'errors.link_invalid', {}, 'token');
    if (row.used_at) throw ApiError.badRequest('link_used', `errors.link_used_${row.purpose}`, {}, 'token');
    if (new Date(row.expires).getTime() <= Date.now())
      throw ApiError.badRequest('link_expired', `errors.link_expired_${row.purpose}`, {}, 'token');
    return { purpose: row.purpose, user: row.user, expires: new Date(row.expires) };
  }

  /**
   * Uses a link once: sets the user's password, makes an invited user active, ends every open link
   * and every session of the user but `keepSession` (the caller's own, when signed in as them).
   * Two concurrent uses of one link: the second finds it used.
   */
  async redeem(token: string, password: string, keepSession?: string): Promise<LinkTarget> {
    const hash = await hashPassword(password);
    return this.db.transaction(async (m) => {
      const [row] = (await m.query(
        `SELECT t.purpose, t.expires, t.used_at, t.user_id, to_jsonb(u) AS user FROM werkbank_account_token t
         JOIN werkbank_user u ON u.id = t.user_id WHERE t.token_hash = $1 FOR UPDATE OF t`,
        [sha256(token.trim())],
      )) as { purpose: LinkPurpose; expires: Date; used_at: Date | null; user_id: number; user: UserRow }[];
      const target = this.usable(row);
      await m.query(`UPDATE werkbank_account_token SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`, [row.user_id]);
      await m.query(`UPDATE werkbank_user SET password = $1, is_active = (is_active OR $2) WHERE id = $3`, [
        hash,
        target.purpose === 'invite',
        row.user_id,
      ]);
      await m.query(
        `UPDATE werkbank_session SET is_active = false, closed_at = now() WHERE user_id = $1 AND is_active AND key_hash <> $2`,
        [row.user_id, keepSession ?? ''],
      );
      return target;
    });
  }
}
