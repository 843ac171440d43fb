import type { EntityManager } from '@werkbank/sdk/node';
import { boxExtentOf, extentBox, unionExtent, type Extent } from '../common/datum-extent';

/**
 * SQL of the extents (decision 0070). The GiST index `magazine_version_extent` of decision 0070 held
 * a version's validity as a degenerate box on the depot's line beside its extent: x = depot id, y
 * from valid_from to valid_to − ½. Its migrations still create (and drop) it in this form; map
 * windows now ask the versions' cells instead (datum-store `inWindow`, decision 0075).
 */
export const VALIDITY_BOX_INDEX = `box(point(depot_id, valid_from), point(depot_id, coalesce(valid_to, 2147483647)::float8 - 0.5))`;

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

/** What a write did to the extents of a moment's snapshot: the union of what it added and of what it removed. */
export interface ExtentChange {
  added: Extent | null;
  removed: Extent | null;
}

const inside = (a: Extent, b: Extent) => a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3];
const strictlyInside = (a: Extent, b: Extent) => a[0] > b[0] && a[1] > b[1] && a[2] < b[2] && a[3] < b[3];

/**
 * Keeps the open moment's extent (its snapshot's union) current after a write, in the write's
 * transaction. Additions widen it; a removal that touched its edge (and that the additions do not
 * cover again) shrinks it only by recomputing it from the snapshot (refreshMomentExtent).
 */
export async function changeMomentExtent(m: EntityManager, momentId: number, change: ExtentChange): Promise<void> {
  const { added, removed } = change;
  if (!added && !removed) return;
  const [row] = (await m.query(`SELECT extent FROM magazine_moment WHERE id = $1`, [momentId])) as { extent: string | null }[];
  const current = boxExtentOf(row?.extent);
  if (removed && current && !strictlyInside(removed, current) && !(added && inside(removed, added))) {
    await refreshMomentExtent(m, momentId);
    return;
  }
  const next = unionExtent(current, added);
  if (next && next !== current)
    await m.query(`UPDATE magazine_moment SET extent = $2::box WHERE id = $1`, [momentId, extentBox(next)]);
}
