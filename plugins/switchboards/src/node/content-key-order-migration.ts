import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Stored content keeps the order of its items' keys (issue 14 item 5, decision 0036): jsonb sorts
 * object keys, so `key_order` holds the order they came in (the SDK's KeyOrder) and readers put
 * them back. Content stored before has none and keeps jsonb's order.
 */
export class SwitchboardContentKeyOrder1764900003500 implements MigrationInterface {
  name = 'SwitchboardContentKeyOrder1764900003500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE switchboard_content ADD COLUMN key_order jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE switchboard_content DROP COLUMN key_order`);
  }
}
