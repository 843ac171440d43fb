// #region migration
import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

export class HelloGreetings1764000009000 implements MigrationInterface {
  name = 'HelloGreetings1764000009000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE hello_greeting (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        message text NOT NULL DEFAULT '',
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE hello_greeting`);
  }
}
// #endregion migration
