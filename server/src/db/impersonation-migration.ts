import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Impersonation (issue 19, decision 0040): a session opened by a superuser acting as another user
 * names that superuser. Deleting either user ends such sessions.
 */
export class Impersonation1764900000000 implements MigrationInterface {
  name = 'Impersonation1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE werkbank_session ADD COLUMN impersonator_id integer REFERENCES werkbank_user (id) ON DELETE CASCADE`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE werkbank_session DROP COLUMN impersonator_id`);
  }
}
