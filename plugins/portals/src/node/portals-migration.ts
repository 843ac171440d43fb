import { createTrigramIndex, type MigrationInterface, type QueryRunner } from '@werkbank/sdk/node';

/** Portals (spec 002 §3, decision 0087): landing pages listing views and layers. */
export class PortalsSchema1797200000100 implements MigrationInterface {
  name = 'PortalsSchema1797200000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portals_portal (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        slug varchar(100) NOT NULL DEFAULT '',
        attr jsonb NOT NULL DEFAULT '{}',
        public boolean NOT NULL DEFAULT false,
        layers jsonb NOT NULL DEFAULT '[]',
        views jsonb NOT NULL DEFAULT '[]',
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    // Short names are unique where given (the portal page's address uses them).
    await q.query(`CREATE UNIQUE INDEX portals_portal_slug ON portals_portal (slug) WHERE slug <> ''`);
    await createTrigramIndex(q, 'portals_portal', 'name');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE portals_portal`);
  }
}
