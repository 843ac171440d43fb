import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account links and mail requests (issue 19, decision 0041). A link (invitation or password reset)
 * is stored as the sha256 of its token only, with its purpose, expiry and the moment it was used;
 * mail requests are counted per address and requester for the rate limits.
 */
export class AccountTokens1765000000000 implements MigrationInterface {
  name = 'AccountTokens1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE werkbank_account_token (
        id serial PRIMARY KEY,
        token_hash char(64) NOT NULL UNIQUE,
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        purpose varchar(16) NOT NULL CHECK (purpose IN ('invite', 'reset')),
        created_by integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        expires timestamptz NOT NULL,
        used_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX werkbank_account_token_user ON werkbank_account_token (user_id, purpose)`);
    await q.query(`
      CREATE TABLE werkbank_mail_request (
        id serial PRIMARY KEY,
        address varchar(254) NOT NULL,
        ip_address varchar(64) NOT NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX werkbank_mail_request_created ON werkbank_mail_request (created)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE werkbank_mail_request`);
    await q.query(`DROP TABLE werkbank_account_token`);
  }
}
