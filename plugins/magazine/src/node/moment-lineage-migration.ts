import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * The node run that wrote a moment (lineage of switchboard writes through DepotAccess). No foreign
 * key: node runs belong to the switchboards plugin, which the Magazine does not require.
 */
export class MagazineMomentLineage1764200000000 implements MigrationInterface {
  name = 'MagazineMomentLineage1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_moment ADD COLUMN node_run_id integer NULL`);
    await q.query(`CREATE INDEX magazine_moment_node_run ON magazine_moment (node_run_id) WHERE node_run_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX magazine_moment_node_run`);
    await q.query(`ALTER TABLE magazine_moment DROP COLUMN node_run_id`);
  }
}
