import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * An index for the tag list's default order (`name`, then `id`): the first page becomes an index
 * scan that stops after `limit` rows instead of a sort of the whole table, and an offset walks
 * the index instead of sorting (bench/README.md has the numbers). The `lower(name)` index of
 * TagsSchema1764000001000 cannot serve `ORDER BY name`.
 */
export class TagsNameOrder1764000001100 implements MigrationInterface {
  name = 'TagsNameOrder1764000001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX werkbank_tag_name_id ON werkbank_tag (name, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX werkbank_tag_name_id`);
  }
}
