import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * A datum layout for bulk writes (issue 15 item 2, decision 0075). Datum versions and datums lose
 * their foreign keys: each one is a trigger per inserted row, and on a COPY of a million versions
 * they cost more than the COPY itself. What they did is kept: a deleted depot takes its datums and
 * versions along (a trigger on the depot, per deleted depot instead of per written row), a deleted
 * user leaves versions without author (a trigger on the user), and every writer inserts datums
 * and versions only for the depot it holds locked. The index of closed versions leaves out
 * current ones (new versions are never in it), and the index of file names leaves out versions
 * without one (every datum that is not a file). `magazine_import` records an import that is
 * staged on the embedded database (decision 0075): its versions are stored in several
 * transactions for a moment that does not exist yet, and are removed when the import fails or the
 * server stopped in the middle.
 */
export class MagazineBulkLayout1765000000000 implements MigrationInterface {
  name = 'MagazineBulkLayout1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_datum_version DROP CONSTRAINT IF EXISTS magazine_datum_version_datum_id_fkey`);
    await q.query(`ALTER TABLE magazine_datum_version DROP CONSTRAINT IF EXISTS magazine_datum_version_depot_id_fkey`);
    await q.query(`ALTER TABLE magazine_datum_version DROP CONSTRAINT IF EXISTS magazine_datum_version_user_id_fkey`);
    await q.query(`ALTER TABLE magazine_datum DROP CONSTRAINT IF EXISTS magazine_datum_depot_id_fkey`);
    // Rows whose depot or user went before this migration cannot exist (the keys cascaded).
    await q.query(`
      CREATE FUNCTION magazine_depot_datums_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM magazine_datum_version WHERE depot_id = OLD.id;
        DELETE FROM magazine_datum WHERE depot_id = OLD.id;
        RETURN OLD;
      END $$`);
    await q.query(`
      CREATE TRIGGER magazine_depot_datums BEFORE DELETE ON magazine_depot
      FOR EACH ROW EXECUTE FUNCTION magazine_depot_datums_delete()`);
    await q.query(`
      CREATE FUNCTION magazine_user_versions_unset() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE magazine_datum_version SET user_id = NULL WHERE user_id = OLD.id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER magazine_user_versions AFTER DELETE ON werkbank_user
      FOR EACH ROW EXECUTE FUNCTION magazine_user_versions_unset()`);
    await q.query(`DROP INDEX magazine_version_closed`);
    await q.query(
      `CREATE INDEX magazine_version_closed ON magazine_datum_version (depot_id, valid_to) WHERE valid_to IS NOT NULL`,
    );
    await q.query(`DROP INDEX magazine_version_name`);
    await q.query(
      `CREATE INDEX magazine_version_name ON magazine_datum_version (depot_id, name) WHERE valid_to IS NULL AND name IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE magazine_import (
        moment_id integer PRIMARY KEY,
        depot_id integer NOT NULL UNIQUE,
        user_id integer NULL,
        started timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE magazine_import`);
    await q.query(`DROP INDEX magazine_version_name`);
    await q.query(`CREATE INDEX magazine_version_name ON magazine_datum_version (depot_id, name) WHERE valid_to IS NULL`);
    await q.query(`DROP INDEX magazine_version_closed`);
    await q.query(`CREATE INDEX magazine_version_closed ON magazine_datum_version (depot_id, valid_to)`);
    await q.query(`DROP TRIGGER magazine_user_versions ON werkbank_user`);
    await q.query(`DROP FUNCTION magazine_user_versions_unset()`);
    await q.query(`DROP TRIGGER magazine_depot_datums ON magazine_depot`);
    await q.query(`DROP FUNCTION magazine_depot_datums_delete()`);
    await q.query(
      `ALTER TABLE magazine_datum ADD CONSTRAINT magazine_datum_depot_id_fkey FOREIGN KEY (depot_id) REFERENCES magazine_depot(id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE magazine_datum_version ADD CONSTRAINT magazine_datum_version_datum_id_fkey FOREIGN KEY (datum_id) REFERENCES magazine_datum(id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE magazine_datum_version ADD CONSTRAINT magazine_datum_version_depot_id_fkey FOREIGN KEY (depot_id) REFERENCES magazine_depot(id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE magazine_datum_version ADD CONSTRAINT magazine_datum_version_user_id_fkey FOREIGN KEY (user_id) REFERENCES werkbank_user(id) ON DELETE SET NULL`,
    );
  }
}
