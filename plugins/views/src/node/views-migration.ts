import { createTrigramIndex, type MigrationInterface, type QueryRunner } from '@werkbank/sdk/node';

/** Views (spec 002 §3, decision 0086): a view's settings, its layer and POI trees and configuration. */
export class ViewsSchema1797200000000 implements MigrationInterface {
  name = 'ViewsSchema1797200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE views_view (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        subline varchar(500) NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        slug varchar(100) NOT NULL DEFAULT '',
        public boolean NOT NULL DEFAULT false,
        image varchar(2000) NOT NULL DEFAULT '',
        home jsonb NULL,
        layergroup jsonb NOT NULL DEFAULT '{}',
        poigroup jsonb NOT NULL DEFAULT '{}',
        config jsonb NOT NULL DEFAULT '{}',
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    // Short names are unique where given (the viewer's address uses them).
    await q.query(`CREATE UNIQUE INDEX views_view_slug ON views_view (slug) WHERE slug <> ''`);
    await createTrigramIndex(q, 'views_view', 'name');
    await q.query(`CREATE INDEX views_view_modified ON views_view (modified)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE views_view`);
  }
}

/** View translations (spec 002 §3): per view, a key and its values per language. */
export class ViewsTranslations1797200000001 implements MigrationInterface {
  name = 'ViewsTranslations1797200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE views_translation (
        id serial PRIMARY KEY,
        view_id integer NOT NULL REFERENCES views_view(id) ON DELETE CASCADE,
        key text NOT NULL,
        "values" jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`CREATE UNIQUE INDEX views_translation_key ON views_translation (view_id, key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE views_translation`);
  }
}

/**
 * Frozen views (spec 000 §5, decision 0086): a copy of a view's settings, trees, configuration and
 * translations, with every layer pinned to the moments approved when it was frozen. The source view
 * may go; the copy stays.
 */
export class ViewsFinalviews1797200000002 implements MigrationInterface {
  name = 'ViewsFinalviews1797200000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE views_finalview (
        id serial PRIMARY KEY,
        slug varchar(100) NOT NULL,
        name varchar(200) NOT NULL DEFAULT '',
        view_id integer NULL REFERENCES views_view(id) ON DELETE SET NULL,
        public boolean NOT NULL DEFAULT false,
        frozen jsonb NOT NULL DEFAULT '{}',
        pins jsonb NOT NULL DEFAULT '{}',
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX views_finalview_slug ON views_finalview (slug)`);
    await q.query(`CREATE INDEX views_finalview_view ON views_finalview (view_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE views_finalview`);
  }
}

/**
 * Visitor statistics of views (decision 0089): pageviews and visitors per view and UTC day, the
 * day's salt, and the salted visitor hashes of today and yesterday (never an address or a
 * User-Agent). A view's statistics go with it.
 */
export class ViewsVisits1797200000003 implements MigrationInterface {
  name = 'ViewsVisits1797200000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE views_visit_day (
        view_id integer NOT NULL REFERENCES views_view(id) ON DELETE CASCADE,
        day date NOT NULL,
        pageviews integer NOT NULL DEFAULT 0,
        visitors integer NOT NULL DEFAULT 0,
        PRIMARY KEY (view_id, day)
      )`);
    await q.query(`
      CREATE TABLE views_visitor (
        view_id integer NOT NULL REFERENCES views_view(id) ON DELETE CASCADE,
        day date NOT NULL,
        hash char(16) NOT NULL,
        PRIMARY KEY (view_id, day, hash)
      )`);
    // Deleting a day's hashes scans by day.
    await q.query(`CREATE INDEX views_visitor_day ON views_visitor (day)`);
    await q.query(`CREATE TABLE views_visit_salt (day date PRIMARY KEY, salt text NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE views_visit_salt`);
    await q.query(`DROP TABLE views_visitor`);
    await q.query(`DROP TABLE views_visit_day`);
  }
}
