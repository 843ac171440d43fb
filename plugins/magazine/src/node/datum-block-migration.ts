import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Datum ids in blocks (issue 15 item 2, decision 0075 "Datum blocks"). A datum was a row of its
 * own (`magazine_datum`: id, depot) beside its versions, one more row and two more index entries
 * per written datum; a bulk write of a million datums spent about a quarter of its database time
 * there. Now a write draws a range of ids at once (`magazine_datum_ids(n)`: the sequence
 * `magazine_datum_id_seq` moved on by n under an advisory lock, instead of n calls of nextval)
 * and records which depot they belong to (`magazine_datum_block`: first id, last id, depot, the
 * moment that drew them): one row per statement instead of one per datum. Ids keep growing with
 * time, across sessions too. Existing datums are converted into runs of consecutive ids per
 * depot.
 */
export class MagazineDatumBlocks1796500000000 implements MigrationInterface {
  name = 'MagazineDatumBlocks1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE magazine_datum_block (
        first_id integer PRIMARY KEY,
        last_id integer NOT NULL,
        depot_id integer NOT NULL,
        moment_id integer NULL,
        CHECK (last_id >= first_id)
      )`);
    await q.query(`CREATE INDEX magazine_datum_block_depot ON magazine_datum_block (depot_id, moment_id)`);
    await q.query(`
      INSERT INTO magazine_datum_block (first_id, last_id, depot_id)
      SELECT min(id), max(id), depot_id FROM (
        SELECT id, depot_id, id - row_number() OVER (PARTITION BY depot_id ORDER BY id) AS run FROM magazine_datum
      ) d GROUP BY depot_id, run`);
    // The sequence outlives the table it belonged to: it keeps drawing datum ids, in ranges.
    await q.query(`ALTER SEQUENCE magazine_datum_id_seq OWNED BY NONE`);
    // The first of n consecutive new ids. Every drawer takes the same lock, so no other id is drawn
    // between nextval and setval; the lock is held only for the two calls (session-level, released
    // on error too), not until the transaction ends, so imports into other depots go on.
    await q.query(`
      CREATE FUNCTION magazine_datum_ids(n integer) RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE
        first integer;
      BEGIN
        PERFORM pg_advisory_lock(hashtext('magazine.datum-ids'));
        BEGIN
          first := nextval('magazine_datum_id_seq');
          IF n > 1 THEN
            PERFORM setval('magazine_datum_id_seq', first + n - 1);
          END IF;
        EXCEPTION WHEN OTHERS OR query_canceled THEN
          PERFORM pg_advisory_unlock(hashtext('magazine.datum-ids'));
          RAISE;
        END;
        PERFORM pg_advisory_unlock(hashtext('magazine.datum-ids'));
        RETURN first;
      END $$`);
    await q.query(`DROP TABLE magazine_datum`);
    await q.query(`
      CREATE OR REPLACE FUNCTION magazine_depot_datums_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM magazine_datum_version WHERE depot_id = OLD.id;
        DELETE FROM magazine_datum_block WHERE depot_id = OLD.id;
        RETURN OLD;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE magazine_datum (id integer PRIMARY KEY, depot_id integer NOT NULL)`);
    await q.query(`CREATE INDEX magazine_datum_depot ON magazine_datum (depot_id)`);
    await q.query(`
      INSERT INTO magazine_datum (id, depot_id)
      SELECT g, b.depot_id FROM magazine_datum_block b, generate_series(b.first_id, b.last_id) g`);
    await q.query(`ALTER TABLE magazine_datum ALTER COLUMN id SET DEFAULT nextval('magazine_datum_id_seq')`);
    await q.query(`ALTER SEQUENCE magazine_datum_id_seq OWNED BY magazine_datum.id`);
    await q.query(`
      CREATE OR REPLACE FUNCTION magazine_depot_datums_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM magazine_datum_version WHERE depot_id = OLD.id;
        DELETE FROM magazine_datum WHERE depot_id = OLD.id;
        RETURN OLD;
      END $$`);
    await q.query(`DROP TABLE magazine_datum_block`);
    await q.query(`DROP FUNCTION magazine_datum_ids(integer)`);
  }
}
