import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Nodes and node runs keep a failure's translation key with its parameters (`exception_i18n`,
 * run-message.ts) beside its text, so each reader sees it in their own language.
 */
export class SwitchboardRunMessages1764500200000 implements MigrationInterface {
  name = 'SwitchboardRunMessages1764500200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE switchboard_node ADD COLUMN exception_i18n jsonb NULL`);
    await q.query(`ALTER TABLE switchboard_noderun ADD COLUMN exception_i18n jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE switchboard_noderun DROP COLUMN exception_i18n`);
    await q.query(`ALTER TABLE switchboard_node DROP COLUMN exception_i18n`);
  }
}
