import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * A datum version keeps the order of its keys (issue 14 item 5, decision 0036): jsonb sorts
 * object keys, so `key_order` holds the order they came in (the SDK's KeyOrder) and readers put
 * them back. Versions stored before have none and keep jsonb's order.
 */
export class MagazineDatumKeyOrder1764900003000 implements MigrationInterface {
  name = 'MagazineDatumKeyOrder1764900003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_datum_version ADD COLUMN key_order jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_datum_version DROP COLUMN key_order`);
  }
}
