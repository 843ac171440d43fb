import { ApiError, returnedRows, userDisplayNameSql, type EntityManager } from '@werkbank/sdk/node';
import { boxExtentOf } from '../common/datum-extent';
import { changeMomentExtent, type ExtentChange } from './datum-extent-sql';
import { removeEmptyBlocks } from './datum-blocks';

export const MOMENT_PATH = '/api/v1/moment/';
export const DEPOT_PATH = '/api/v1/depot/';

export type MomentStatus = 'open' | 'final' | 'approved';

export interface MomentRow {
  id: number;
  depot_id: number;
  created: Date | string;
  user_id: number | null;
  user_name?: string | null;
  status: MomentStatus;
  origin: string;
  temporary: boolean;
  message: string;
  size: number;
  persistent_size: string | number;
  /** The switchboard node run that wrote the moment (DepotAccess), if one did. */
  node_run_id?: number | null;
  /** The union of its snapshot's extents as PostgreSQL's box text (decision 0070). */
  extent?: string | null;
}

const MOMENT_COLUMNS = `m.id, m.depot_id, m.created, m.user_id, ${userDisplayNameSql('u')} AS user_name, m.status, m.origin, m.temporary,
  m.message, m.size, m.persistent_size, m.node_run_id, m.extent`;

/** A moment as the API replies it (spec 000 §3 Moment). */
export function momentJson(m: MomentRow): Record<string, unknown> {
  return {
    id: m.id,
    resource_uri: `${MOMENT_PATH}${m.id}/`,
    depot: `${DEPOT_PATH}${m.depot_id}/`,
    created: new Date(m.created).toISOString(),
    user: m.user_id ? `/api/v1/user/${m.user_id}/` : null,
    user_name: m.user_name ?? null,
    status: m.status,
    origin: m.origin,
    temporary: m.temporary,
    message: m.message,
    size: m.size,
    persistent_size: Number(m.persistent_size),
    node_run: m.node_run_id ?? null,
    // [west, south, east, north] of the datums at this moment (EPSG:4326); null when none is located.
    extent: boxExtentOf(m.extent),
  };
}

/** SQL condition: version alias `v` is valid at moment parameter `param` (decision 0011). */
export const validAt = (param: string, v = 'v') =>
  `${v}.valid_from <= ${param} AND (${v}.valid_to IS NULL OR ${v}.valid_to > ${param})`;

export async function loadMoment(m: EntityManager, id: number): Promise<MomentRow | undefined> {
  const rows = (await m.query(
    `SELECT ${MOMENT_COLUMNS} FROM magazine_moment m LEFT JOIN werkbank_user u ON u.id = m.user_id WHERE m.id = $1`,
    [id],
  )) as MomentRow[];
  return rows[0];
}

export async function headMoment(m: EntityManager, depotId: number): Promise<MomentRow | undefined> {
  const rows = (await m.query(
    `SELECT ${MOMENT_COLUMNS} FROM magazine_moment m LEFT JOIN werkbank_user u ON u.id = m.user_id
     WHERE m.depot_id = $1 ORDER BY m.id DESC LIMIT 1`,
    [depotId],
  )) as MomentRow[];
  return rows[0];
}

/** The depot's newest approved moment (undefined when none is approved). */
export async function latestApprovedMoment(m: EntityManager, depotId: number): Promise<MomentRow | undefined> {
  const rows = (await m.query(
    `SELECT ${MOMENT_COLUMNS} FROM magazine_moment m LEFT JOIN werkbank_user u ON u.id = m.user_id
     WHERE m.depot_id = $1 AND m.status = 'approved' ORDER BY m.id DESC LIMIT 1`,
    [depotId],
  )) as MomentRow[];
  return rows[0];
}

/** Moments of the depots, newest first; with `before` (a moment id, the list's cursor) only older ones. */
export async function listMoments(
  m: EntityManager,
  depotIds: number[],
  offset: number,
  limit: number,
  before?: number,
): Promise<MomentRow[]> {
  return (await m.query(
    `SELECT ${MOMENT_COLUMNS} FROM magazine_moment m LEFT JOIN werkbank_user u ON u.id = m.user_id
     WHERE m.depot_id = ANY($1) AND ($4::int IS NULL OR m.id < $4) ORDER BY m.id DESC OFFSET $2 LIMIT $3`,
    [depotIds, offset, limit, before ?? null],
  )) as MomentRow[];
}

/** The newest `n` moments of each depot, newest first. */
export async function recentMoments(m: EntityManager, depotIds: number[], n: number): Promise<MomentRow[]> {
  if (!depotIds.length) return [];
  return (await m.query(
    `SELECT * FROM (
       SELECT ${MOMENT_COLUMNS}, row_number() OVER (PARTITION BY m.depot_id ORDER BY m.id DESC) AS rn
       FROM magazine_moment m LEFT JOIN werkbank_user u ON u.id = m.user_id WHERE m.depot_id = ANY($1)
     ) x WHERE x.rn <= $2 ORDER BY x.depot_id, x.id DESC`,
    [depotIds, n],
  )) as MomentRow[];
}

/**
 * Serialises writers of one depot for the rest of the transaction (decision 0011). While an import
 * is staged into the depot (embedded database, decision 0075) every other write is refused with
 * 409 depot_importing: a moment made meanwhile would see the import's half-written versions.
 * `ownImport` is the staged import's moment, which may go on.
 */
export async function lockDepot(m: EntityManager, depotId: number, ownImport?: number): Promise<void> {
  const rows = (await m.query(
    `SELECT d.id, i.moment_id AS importing FROM magazine_depot d LEFT JOIN magazine_import i ON i.depot_id = d.id
     WHERE d.id = $1 FOR UPDATE OF d`,
    [depotId],
  )) as { importing: number | null }[];
  // Deleted meanwhile (by another request): nothing to write into.
  if (!rows.length) throw ApiError.notFound();
  if (rows[0].importing !== null && rows[0].importing !== ownImport) {
    throw new ApiError(409, 'depot_importing', 'magazine:errors.depot_importing', {});
  }
}

async function insertMoment(
  m: EntityManager,
  depotId: number,
  userId: number,
  values: { origin: string; size: number; temporary?: boolean; message?: string; extentOf?: number },
): Promise<MomentRow> {
  // A new moment starts with the content (size, extent) of the moment it continues.
  const [row] = (await m.query(
    `INSERT INTO magazine_moment (depot_id, user_id, status, origin, size, temporary, message, extent)
     VALUES ($1, $2, 'open', $3, $4, $5, $6, (SELECT extent FROM magazine_moment WHERE id = $7)) RETURNING id`,
    [depotId, userId, values.origin, values.size, values.temporary ?? false, values.message ?? '', values.extentOf ?? null],
  )) as { id: number }[];
  return (await loadMoment(m, row.id))!;
}

/** Closes the open head, if there is one. */
async function closeHead(m: EntityManager, depotId: number): Promise<MomentRow | undefined> {
  await m.query(`UPDATE magazine_moment SET status = 'final' WHERE depot_id = $1 AND status = 'open'`, [depotId]);
  return headMoment(m, depotId);
}

/**
 * The moment a write goes into. `basedOn` is the moment the writer read: when it is no longer the
 * head the write is refused with 409 moment_moved. A closed head gets a new open moment.
 * Call inside a transaction.
 */
export async function openMomentFor(
  m: EntityManager,
  depotId: number,
  userId: number,
  basedOn: number | undefined,
  origin: string,
): Promise<MomentRow> {
  await lockDepot(m, depotId);
  const head = await headMoment(m, depotId);
  if (basedOn !== undefined && head?.id !== basedOn) {
    throw new ApiError(409, 'moment_moved', 'magazine:errors.moment_moved', { moment: basedOn, head: head?.id ?? '–' });
  }
  if (head?.status === 'open') return head;
  return insertMoment(m, depotId, userId, { origin, size: head?.size ?? 0, extentOf: head?.id });
}

/** Adds to the open moment's counters after a datum write, and keeps its extent current. */
export async function countWrite(
  m: EntityManager,
  momentId: number,
  sizeDelta: number,
  bytesDelta: number,
  extent?: ExtentChange,
): Promise<number> {
  if (extent) await changeMomentExtent(m, momentId, extent);
  const [row] = returnedRows<{ size: number }>(
    await m.query(
      `UPDATE magazine_moment SET size = size + $2, persistent_size = GREATEST(0, persistent_size + $3) WHERE id = $1 RETURNING size`,
      [momentId, sizeDelta, bytesDelta],
    ),
  );
  await m.query(`UPDATE magazine_depot SET modified = now() WHERE id = (SELECT depot_id FROM magazine_moment WHERE id = $1)`, [
    momentId,
  ]);
  return row.size;
}

/** spec 000 §4: approve marks the moment approved (closing it when it is the open head). */
export async function approveMoment(m: EntityManager, moment: MomentRow, message?: string): Promise<MomentRow> {
  await lockDepot(m, moment.depot_id);
  await m.query(
    `UPDATE magazine_moment SET status = 'approved', temporary = false, message = CASE WHEN $2 = '' THEN message ELSE $2 END WHERE id = $1`,
    [moment.id, message ?? ''],
  );
  return (await loadMoment(m, moment.id))!;
}

/** Closes the open head and opens a new moment with the same content; only the open head can be finalized. */
export async function finalizeMoment(m: EntityManager, moment: MomentRow, userId: number): Promise<MomentRow> {
  await lockDepot(m, moment.depot_id);
  const head = await headMoment(m, moment.depot_id);
  if (head?.id !== moment.id || head.status !== 'open') {
    throw new ApiError(409, 'moment_not_open', 'magazine:errors.moment_not_open', { moment: moment.id });
  }
  await closeHead(m, moment.depot_id);
  return insertMoment(m, moment.depot_id, userId, { origin: 'finalize', size: head.size, extentOf: head.id });
}

/** Closes the open head and opens a new (e.g. temporary) moment on top. */
export async function newMoment(
  m: EntityManager,
  depotId: number,
  userId: number,
  options: { temporary: boolean; message: string; origin?: string },
): Promise<MomentRow> {
  await lockDepot(m, depotId);
  const head = await closeHead(m, depotId);
  return insertMoment(m, depotId, userId, { origin: 'api', size: head?.size ?? 0, extentOf: head?.id, ...options });
}

/**
 * Makes the depot's content equal to `moment`'s as a new open moment on top (decision 0011):
 * only datums that differ are touched; unchanged versions keep their rows.
 */
export async function restoreMoment(m: EntityManager, moment: MomentRow, userId: number, message: string): Promise<MomentRow> {
  await lockDepot(m, moment.depot_id);
  await closeHead(m, moment.depot_id);
  const next = await insertMoment(m, moment.depot_id, userId, {
    origin: 'restore',
    size: moment.size,
    message,
    extentOf: moment.id,
  });
  const r = moment.id;
  // Versions current now but not valid at r: close them at the new moment.
  await m.query(`UPDATE magazine_datum_version SET valid_to = $3 WHERE depot_id = $1 AND valid_to IS NULL AND valid_from > $2`, [
    moment.depot_id,
    r,
    next.id,
  ]);
  // Versions valid at r that were closed later: bring them back from the new moment on. A file's
  // blob is shared, not copied, so the copy stores only its fields.
  const copied = (await m.query(
    `INSERT INTO magazine_datum_version (datum_id, depot_id, valid_from, data, repr, name, blob, bytes, user_id, key_order, extent, cell)
     SELECT datum_id, depot_id, $3, data, repr, name, blob, octet_length(data::text), $4, key_order, extent, cell FROM magazine_datum_version v
     WHERE v.depot_id = $1 AND v.valid_from <= $2 AND v.valid_to > $2
     RETURNING bytes`,
    [moment.depot_id, r, next.id, userId],
  )) as { bytes: string }[];
  const bytes = copied.reduce((s, c) => s + Number(c.bytes), 0);
  await m.query(`UPDATE magazine_moment SET persistent_size = $2 WHERE id = $1`, [next.id, bytes]);
  return (await loadMoment(m, next.id))!;
}

/**
 * Removes a moment and the versions no remaining moment can see (decision 0011). Deleting the head
 * reopens what it had closed, i.e. discards its edits. Returns the new head's id (or null) and the
 * blobs of removed versions (candidates for the blob sweep).
 */
export async function deleteMoment(m: EntityManager, moment: MomentRow): Promise<{ head: number | null }> {
  await lockDepot(m, moment.depot_id);
  const head = await headMoment(m, moment.depot_id);
  const d = moment.depot_id;
  if (head?.id === moment.id) {
    // The previous moment becomes the head: what it saw is current again, later versions go.
    const [prev] = (await m.query(`SELECT max(id) AS id FROM magazine_moment WHERE depot_id = $1 AND id < $2`, [
      d,
      moment.id,
    ])) as { id: number | null }[];
    const p = prev?.id ?? 0;
    await m.query(`DELETE FROM magazine_datum_version WHERE depot_id = $1 AND valid_from > $2`, [d, p]);
    await m.query(`UPDATE magazine_datum_version SET valid_to = NULL WHERE depot_id = $1 AND valid_to > $2`, [d, p]);
  }
  await m.query(`DELETE FROM magazine_moment WHERE id = $1`, [moment.id]);
  // Versions that were visible at the deleted moment and now at no moment at all.
  await m.query(
    `DELETE FROM magazine_datum_version v WHERE v.depot_id = $1 AND ${validAt('$2')}
       AND NOT EXISTS (SELECT 1 FROM magazine_moment mm WHERE mm.depot_id = $1 AND mm.id >= v.valid_from
                       AND (v.valid_to IS NULL OR mm.id < v.valid_to))`,
    [d, moment.id],
  );
  await removeEmptyBlocks(m, d);
  if (head?.id !== moment.id) {
    // A middle moment: versions that began between its neighbours now begin at the next one, so
    // an edit in that moment replaces them in place instead of leaving rows no moment can see.
    const [{ prev, next }] = (await m.query(
      `SELECT (SELECT max(id) FROM magazine_moment WHERE depot_id = $1 AND id < $2) AS prev,
              (SELECT min(id) FROM magazine_moment WHERE depot_id = $1 AND id > $2) AS next`,
      [d, moment.id],
    )) as { prev: number | null; next: number }[];
    await m.query(
      `UPDATE magazine_datum_version SET valid_from = $3 WHERE depot_id = $1 AND valid_from > $2 AND valid_from < $3`,
      [d, prev ?? 0, next],
    );
  }
  const newHead = await headMoment(m, d);
  return { head: newHead?.id ?? null };
}
