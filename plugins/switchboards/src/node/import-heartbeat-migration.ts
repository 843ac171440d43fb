import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * A switchboard being imported carries `import_heartbeat` until its last chunk commits (issue 14
 * item 25): one whose heartbeat stopped was cut off by a crash and is removed.
 */
export class SwitchboardImportHeartbeat1764900002000 implements MigrationInterface {
  name = 'SwitchboardImportHeartbeat1764900002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE switchboard ADD COLUMN import_heartbeat timestamptz NULL`);
    await q.query(`CREATE INDEX switchboard_importing ON switchboard (import_heartbeat) WHERE import_heartbeat IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX switchboard_importing`);
    await q.query(`ALTER TABLE switchboard DROP COLUMN import_heartbeat`);
  }
}
