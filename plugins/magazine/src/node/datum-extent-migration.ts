import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';
import { datumExtent, extentBox, LOCATED_TYPES } from '../common/datum-extent';
import { UNION_EXTENT, VALIDITY_BOX_INDEX } from './datum-extent-sql';

/** Versions read and updated per statement while computing the extents of stored data. */
const BATCH = 2000;

/**
 * Extents and a spatial index (issue 15 item 1, decision 0070): every datum version of a located
 * type keeps its 2D extent in EPSG:4326 as a native `box` (`extent`, null without a location), in a
 * GiST index together with the version's validity (depot and moment range), and every moment the
 * union of its snapshot's extents (the depot's extent at that moment).
 *
 * Stored versions get their extent here, computed by the same rule as every write
 * (`datumExtent`). A migration has no type registry, so it covers depots of the core located types
 * (all there are in this repository); a depot of a type a plugin derives from one of them gets its
 * extents as its datums are written again.
 */
export class MagazineDatumExtent1765100000000 implements MigrationInterface {
  name = 'MagazineDatumExtent1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE magazine_datum_version ADD COLUMN extent box NULL`);
    await q.query(`ALTER TABLE magazine_moment ADD COLUMN extent box NULL`);
    await q.query(
      `CREATE INDEX magazine_version_extent ON magazine_datum_version USING gist (extent, (${VALIDITY_BOX_INDEX})) WHERE extent IS NOT NULL`,
    );
    const depots = (await q.query(`SELECT id, content_type FROM magazine_depot WHERE content_type = ANY($1)`, [
      [...LOCATED_TYPES],
    ])) as { id: number; content_type: string }[];
    for (const depot of depots) {
      let after = '0';
      for (;;) {
        const rows = (await q.query(
          `SELECT id::text AS id, data FROM magazine_datum_version WHERE depot_id = $1 AND id > $2::bigint ORDER BY id LIMIT $3`,
          [depot.id, after, BATCH],
        )) as { id: string; data: unknown }[];
        if (!rows.length) break;
        after = rows[rows.length - 1].id;
        const extents = rows
          .map((r) => ({ id: r.id, extent: extentBox(datumExtent(depot.content_type, r.data)) }))
          .filter((r) => r.extent !== null);
        if (extents.length) {
          await q.query(
            `UPDATE magazine_datum_version v SET extent = x.extent
             FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, extent box) WHERE v.id = x.id`,
            [JSON.stringify(extents)],
          );
        }
      }
      await q.query(
        `UPDATE magazine_moment mo SET extent = (
           SELECT ${UNION_EXTENT('v')} FROM magazine_datum_version v
           WHERE v.depot_id = mo.depot_id AND v.valid_from <= mo.id AND (v.valid_to IS NULL OR v.valid_to > mo.id)
             AND v.extent IS NOT NULL)
         WHERE mo.depot_id = $1`,
        [depot.id],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX magazine_version_extent`);
    await q.query(`ALTER TABLE magazine_moment DROP COLUMN extent`);
    await q.query(`ALTER TABLE magazine_datum_version DROP COLUMN extent`);
  }
}
