import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';
import { extentCell } from '../common/datum-cell';
import { boxExtentOf } from '../common/datum-extent';
import { VALIDITY_BOX_INDEX } from './datum-extent-sql';

/** Versions read and updated per statement while computing the cells of stored extents. */
const BATCH = 5000;

/**
 * Bulk writes without a GiST index (decision 0075, amendment of 2026-11-28). Every version with an
 * extent now keeps its quadtree cell (`cell`, common/datum-cell.ts) in a plain B-tree
 * `(depot_id, cell)`, which map windows ask by key ranges; the GiST index over extent and
 * validity, whose row-by-row upkeep was half of a bulk write's time in the database, is dropped.
 * The key order is stored as text: every reader parses it in this process, and the database no
 * longer parses it into `jsonb` for every version written.
 */
export class MagazineDatumCells1796600000000 implements MigrationInterface {
  name = 'MagazineDatumCells1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_datum_version ALTER COLUMN key_order TYPE text USING key_order::text`);
    await q.query(`ALTER TABLE magazine_datum_version ADD COLUMN cell bigint NULL`);
    let after = '0';
    for (;;) {
      const rows = (await q.query(
        `SELECT id::text AS id, extent::text AS extent FROM magazine_datum_version
         WHERE extent IS NOT NULL AND id > $1::bigint ORDER BY id LIMIT $2`,
        [after, BATCH],
      )) as { id: string; extent: string }[];
      if (!rows.length) break;
      after = rows[rows.length - 1].id;
      await q.query(
        `UPDATE magazine_datum_version v SET cell = x.cell
         FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, cell bigint) WHERE v.id = x.id`,
        [JSON.stringify(rows.map((r) => ({ id: r.id, cell: extentCell(boxExtentOf(r.extent)) })))],
      );
    }
    await q.query(`DROP INDEX magazine_version_extent`);
    await q.query(`CREATE INDEX magazine_version_cell ON magazine_datum_version (depot_id, cell) WHERE cell IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX magazine_version_cell`);
    await q.query(`ALTER TABLE magazine_datum_version DROP COLUMN cell`);
    await q.query(
      `CREATE INDEX magazine_version_extent ON magazine_datum_version USING gist (extent, (${VALIDITY_BOX_INDEX})) WHERE extent IS NOT NULL`,
    );
    await q.query(`ALTER TABLE magazine_datum_version ALTER COLUMN key_order TYPE jsonb USING key_order::jsonb`);
  }
}
