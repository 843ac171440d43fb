import type { EntityManager } from '@werkbank/sdk/node';

/**
 * SQL of the extents (decision 0070). A version's validity as a degenerate box on the depot's line:
 * x = depot id, y from valid_from to valid_to − ½ (moment ids are integers, so `m < valid_to` is
 * `m ≤ valid_to − ½`; open versions reach the largest integer). The GiST index
 * `magazine_version_extent` holds it beside the extent, so one index scan answers "depot D, valid
 * at moment M, extent overlaps W". Queries must use this exact expression to use the index.
 */
export const VALIDITY_BOX = (v = 'v') =>
  `box(point(${v}.depot_id, ${v}.valid_from), point(${v}.depot_id, coalesce(${v}.valid_to, 2147483647)::float8 - 0.5))`;

/** The same expression without a table alias, as the index is declared. */
export const VALIDITY_BOX_INDEX = `box(point(depot_id, valid_from), point(depot_id, coalesce(valid_to, 2147483647)::float8 - 0.5))`;

/** The box a query tests against VALIDITY_BOX: depot `depotParam` at moment `momentParam`. */
export const AT_MOMENT_BOX = (depotParam: string, momentParam: string) =>
  `box(point(${depotParam}::int, ${momentParam}::int), point(${depotParam}::int, ${momentParam}::int))`;

/** The union of the extents of alias `v`'s rows as one box (null when none has an extent). */
export const UNION_EXTENT = (v = 'v') =>
  `box(point(min((${v}.extent[1])[0]), min((${v}.extent[1])[1])), point(max((${v}.extent[0])[0]), max((${v}.extent[0])[1])))`;

/**
 * Sets the moment's extent to the union of the extents of the depot's versions valid at it (the
 * depot's extent at that moment). One pass over the depot's snapshot at the moment.
 */
export async function refreshMomentExtent(m: EntityManager, momentId: number): Promise<void> {
  await m.query(
    `UPDATE magazine_moment mo SET extent = (
       SELECT ${UNION_EXTENT('v')} FROM magazine_datum_version v
       WHERE v.depot_id = mo.depot_id AND v.valid_from <= mo.id AND (v.valid_to IS NULL OR v.valid_to > mo.id)
         AND v.extent IS NOT NULL)
     WHERE mo.id = $1`,
    [momentId],
  );
}
