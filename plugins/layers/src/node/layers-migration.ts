import { createTrigramIndex, type MigrationInterface, type QueryRunner } from '@werkbank/sdk/node';

/** Layers (spec 001 §3.1) and their layerpiles: depots stacked in order (decision 0060). */
export class LayersSchema1795753535295 implements MigrationInterface {
  name = 'LayersSchema1795753535295';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE layers_layer (
        id serial PRIMARY KEY,
        revision integer NOT NULL DEFAULT 1,
        name varchar(200) NOT NULL,
        slug varchar(100) NOT NULL DEFAULT '',
        type varchar(32) NOT NULL DEFAULT 'feature',
        attr jsonb NOT NULL DEFAULT '{}',
        legend text NOT NULL DEFAULT '',
        description_title text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        public boolean NOT NULL DEFAULT false,
        selection_title text NOT NULL DEFAULT '',
        selection_contact text NOT NULL DEFAULT '',
        selection_image text NOT NULL DEFAULT '',
        selection_fields jsonb NOT NULL DEFAULT '[]',
        attribute_filters jsonb NOT NULL DEFAULT '[]',
        time_min timestamptz NULL,
        time_max timestamptz NULL,
        metadata jsonb NULL,
        bbox jsonb NULL,
        persistent_size bigint NOT NULL DEFAULT 0,
        persistent_size_modified timestamptz NULL,
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    // Short names are unique where given (service addresses use them).
    await q.query(`CREATE UNIQUE INDEX layers_layer_slug ON layers_layer (slug) WHERE slug <> ''`);
    await createTrigramIndex(q, 'layers_layer', 'name');
    await q.query(`CREATE INDEX layers_layer_modified ON layers_layer (modified)`);
    await q.query(`
      CREATE TABLE layers_pile (
        id serial PRIMARY KEY,
        layer_id integer NOT NULL REFERENCES layers_layer(id) ON DELETE CASCADE,
        depot_id integer NOT NULL,
        name varchar(200) NOT NULL DEFAULT '',
        position integer NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX layers_pile_layer ON layers_pile (layer_id, position)`);
    await q.query(`CREATE INDEX layers_pile_depot ON layers_pile (depot_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE layers_pile`);
    await q.query(`DROP TABLE layers_layer`);
  }
}

/** The layer's map style (decision 0061): a jsonb column, null for the default style. */
export class LayersStyle1795900000000 implements MigrationInterface {
  name = 'LayersStyle1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE layers_layer ADD COLUMN style jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE layers_layer DROP COLUMN style`);
  }
}

/** The linked style datum of a style depot (decision 0068); the Magazine's datum, no foreign key. */
export class LayersStyleDatum1796000000068 implements MigrationInterface {
  name = 'LayersStyleDatum1796000000068';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE layers_layer ADD COLUMN style_datum_id integer NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE layers_layer DROP COLUMN style_datum_id`);
  }
}
