import type { EntityManager } from '@werkbank/sdk/node';

/**
 * Draws `n` new consecutive datum ids for the depot and records them as one block of the depot
 * (decision 0075 "Datum blocks"), tagged with the moment that drew them. Returns the ids in order
 * (datum order is depot order; ids drawn later are greater, in any session). Every datum id must
 * come from here (`magazine_datum_ids`): a plain nextval of the sequence could fall into a range
 * being drawn.
 */
export async function newDatumIds(m: EntityManager, depotId: number, momentId: number, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const [{ first_id: first }] = (await m.query(
    `WITH f AS (SELECT magazine_datum_ids($2) AS first_id)
     INSERT INTO magazine_datum_block (first_id, last_id, depot_id, moment_id)
     SELECT first_id, first_id + $2 - 1, $1, $3 FROM f RETURNING first_id`,
    [depotId, n, momentId],
  )) as { first_id: number }[];
  return Array.from({ length: n }, (_, i) => first + i);
}

/**
 * Removes the depot's datum blocks none of whose ids has a version any more (all of them, or the
 * one holding `datumId`). Ids of a block that still has versions stay with it: they are never drawn
 * again.
 */
export async function removeEmptyBlocks(m: EntityManager, depotId: number, datumId?: number): Promise<void> {
  await m.query(
    `DELETE FROM magazine_datum_block b WHERE b.depot_id = $1 ${datumId === undefined ? '' : 'AND b.first_id <= $2 AND b.last_id >= $2'}
       AND NOT EXISTS (SELECT 1 FROM magazine_datum_version v
                       WHERE v.depot_id = b.depot_id AND v.datum_id BETWEEN b.first_id AND b.last_id)`,
    datumId === undefined ? [depotId] : [depotId, datumId],
  );
}
