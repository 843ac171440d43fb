import { createTrigramIndex, type MigrationInterface, type QueryRunner } from '@werkbank/sdk/node';

export class TagsSchema1764000001000 implements MigrationInterface {
  name = 'TagsSchema1764000001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE werkbank_tag (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        color varchar(7) NOT NULL DEFAULT '#2d72d2',
        icon varchar(50) NOT NULL DEFAULT 'tag',
        intent varchar(10) NOT NULL DEFAULT 'user' CHECK (intent IN ('system', 'user')),
        created_by integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    // The list's default order (name, then id): pages walk the index instead of sorting the table.
    await q.query(`CREATE INDEX werkbank_tag_name_id ON werkbank_tag (name, id)`);
    await createTrigramIndex(q, 'werkbank_tag', 'name');
    await q.query(`
      CREATE TABLE werkbank_tag_assignment (
        tag_id integer NOT NULL REFERENCES werkbank_tag(id) ON DELETE CASCADE,
        kind varchar(64) NOT NULL,
        object_id integer NOT NULL,
        PRIMARY KEY (tag_id, kind, object_id)
      )`);
    await q.query(`CREATE INDEX werkbank_tag_assignment_obj ON werkbank_tag_assignment (kind, object_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE werkbank_tag_assignment`);
    await q.query(`DROP TABLE werkbank_tag`);
  }
}
