import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/** Depot folders, depots, moments, datums with versions valid over moment ranges (decision 0011), uploads. */
export class MagazineSchema1764100000000 implements MigrationInterface {
  name = 'MagazineSchema1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE magazine_depotfolder (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        parent_id integer NULL REFERENCES magazine_depotfolder(id) ON DELETE RESTRICT,
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX magazine_depotfolder_parent ON magazine_depotfolder (parent_id)`);
    await q.query(`
      CREATE TABLE magazine_depot (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        content_type varchar(100) NOT NULL,
        folder_id integer NULL REFERENCES magazine_depotfolder(id) ON DELETE RESTRICT,
        metadata jsonb NULL,
        style_depot_id integer NULL REFERENCES magazine_depot(id) ON DELETE SET NULL,
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX magazine_depot_folder ON magazine_depot (folder_id)`);
    await q.query(`CREATE INDEX magazine_depot_type ON magazine_depot (content_type)`);
    await q.query(`
      CREATE TABLE magazine_moment (
        id serial PRIMARY KEY,
        depot_id integer NOT NULL REFERENCES magazine_depot(id) ON DELETE CASCADE,
        created timestamptz NOT NULL DEFAULT now(),
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        status varchar(16) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'final', 'approved')),
        origin varchar(32) NOT NULL DEFAULT 'edit',
        temporary boolean NOT NULL DEFAULT false,
        message text NOT NULL DEFAULT '',
        size integer NOT NULL DEFAULT 0,
        persistent_size bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX magazine_moment_depot ON magazine_moment (depot_id, id DESC)`);
    // At most one open moment per depot (the head).
    await q.query(`CREATE UNIQUE INDEX magazine_moment_open ON magazine_moment (depot_id) WHERE status = 'open'`);
    await q.query(`
      CREATE TABLE magazine_datum (
        id serial PRIMARY KEY,
        depot_id integer NOT NULL REFERENCES magazine_depot(id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX magazine_datum_depot ON magazine_datum (depot_id)`);
    await q.query(`
      CREATE TABLE magazine_datum_version (
        id bigserial PRIMARY KEY,
        datum_id integer NOT NULL REFERENCES magazine_datum(id) ON DELETE CASCADE,
        depot_id integer NOT NULL REFERENCES magazine_depot(id) ON DELETE CASCADE,
        valid_from integer NOT NULL,
        valid_to integer NULL,
        data jsonb NOT NULL,
        repr text NOT NULL DEFAULT '',
        name text NULL,
        blob varchar(64) NULL,
        bytes bigint NOT NULL DEFAULT 0,
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    // Snapshot reads walk a depot's datums in order and test validity on the index entries.
    await q.query(
      `CREATE INDEX magazine_version_snapshot ON magazine_datum_version (depot_id, datum_id, valid_from) INCLUDE (valid_to)`,
    );
    await q.query(`CREATE UNIQUE INDEX magazine_version_head ON magazine_datum_version (datum_id) WHERE valid_to IS NULL`);
    await q.query(`CREATE INDEX magazine_version_closed ON magazine_datum_version (depot_id, valid_to)`);
    await q.query(`CREATE INDEX magazine_version_name ON magazine_datum_version (depot_id, name) WHERE valid_to IS NULL`);
    await q.query(`CREATE INDEX magazine_version_blob ON magazine_datum_version (blob) WHERE blob IS NOT NULL`);
    await q.query(`
      CREATE TABLE magazine_upload (
        id uuid PRIMARY KEY,
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        depot_id integer NOT NULL REFERENCES magazine_depot(id) ON DELETE CASCADE,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE magazine_upload_file (
        id serial PRIMARY KEY,
        upload_id uuid NOT NULL REFERENCES magazine_upload(id) ON DELETE CASCADE,
        path text NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('uploading', 'success', 'failed')),
        size bigint NOT NULL DEFAULT 0,
        mime_type text NULL,
        reason text NULL,
        datum_id integer NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX magazine_upload_file_upload ON magazine_upload_file (upload_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'magazine_upload_file',
      'magazine_upload',
      'magazine_datum_version',
      'magazine_datum',
      'magazine_moment',
      'magazine_depot',
      'magazine_depotfolder',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
