import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/** Metadata groups and attribute types (spec 001 §3.3; decision 0066). */
export class LayersMetadataSchema1795900000000 implements MigrationInterface {
  name = 'LayersMetadataSchema1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE layers_metadatagroup (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        position integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE layers_metadataattributetype (
        id serial PRIMARY KEY,
        display_name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        group_id integer NULL REFERENCES layers_metadatagroup(id) ON DELETE SET NULL,
        display boolean NOT NULL DEFAULT true,
        datatype varchar(16) NOT NULL DEFAULT 'text',
        options jsonb NOT NULL DEFAULT '[]',
        iso varchar(32) NOT NULL DEFAULT '',
        position integer NOT NULL DEFAULT 0
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE layers_metadataattributetype`);
    await q.query(`DROP TABLE layers_metadatagroup`);
  }
}
