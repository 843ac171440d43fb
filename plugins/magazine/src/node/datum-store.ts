import { ApiError, keyOrderOf, keyOrderRestorer, type EntityManager, type KeyOrder } from '@werkbank/sdk/node';
import { validAt } from './moment-store';
import { newDatumIds, removeEmptyBlocks } from './datum-blocks';
import { extentBox, type Extent } from '../common/datum-extent';
import { extentCell, windowCells } from '../common/datum-cell';

/** One stored version of a datum (decision 0011). */
export interface VersionRow {
  id: string;
  datum_id: number;
  depot_id: number;
  valid_from: number;
  valid_to: number | null;
  data: Record<string, unknown>;
  repr: string;
  name: string | null;
  blob: string | null;
  bytes: string;
  /** The 2D extent as PostgreSQL's box text (decision 0070), null without a location. */
  extent: string | null;
}

/** What a write stores: the datum's fields, their text, a file name and blob when it is a file. */
export interface VersionValues {
  data: Record<string, unknown>;
  repr: string;
  name?: string | null;
  blob?: string | null;
  /** Bytes the blob adds (0 when the blob is shared with the previous version). */
  blobBytes?: number;
  /** The datum's extent (`datumExtent` of its type; decision 0070); none when absent. */
  extent?: Extent | null;
}

export const COLUMNS =
  'v.id, v.datum_id, v.depot_id, v.valid_from, v.valid_to, v.data, v.repr, v.name, v.blob, v.bytes, v.key_order::text AS key_order, v.extent';
/** What reads that need only the fields take (whole-depot streams, DepotAccess): less to send and parse. */
export const LEAN_COLUMNS = 'v.datum_id, v.data, v.key_order::text AS key_order';
/** The columns of a read whose data stays JSON text (jsonb's key order), parsed by its reader. */
export const TEXT_COLUMNS = 'v.datum_id, v.data::text AS data';
const RETURNED = 'id, datum_id, depot_id, valid_from, valid_to, data, repr, name, blob, bytes, key_order, extent';

/**
 * Versions as read, with the keys of their data back in the order they came in (decision 0036:
 * jsonb sorts them; `key_order` keeps the order).
 */
export function ordered(rows: Array<VersionRow & { key_order?: KeyOrder | string | null }>): VersionRow[] {
  // Rows read together mostly share one order (a file's rows): each is compiled once per call.
  const restorers = new Map<string, <T>(item: T) => T>();
  const same = <T>(item: T): T => item;
  const restorerOf = (order: KeyOrder | string) => {
    const text = typeof order === 'string' ? order : JSON.stringify(order);
    let restore = restorers.get(text);
    if (!restore) {
      // A stored JSON null (a write without an order) or anything else but an object orders nothing.
      const parsed: unknown = typeof order === 'string' ? JSON.parse(order) : order;
      restore = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? keyOrderRestorer(parsed as KeyOrder) : same;
      restorers.set(text, restore);
    }
    return restore;
  };
  return rows.map(({ key_order, ...v }) => (key_order ? { ...v, data: restorerOf(key_order)(v.data) } : v));
}

/** The key order of a datum's fields to store beside them (null when there is nothing to order). */
const keyOrder = (data: Record<string, unknown>): KeyOrder | null => keyOrderOf([data]);

/** The key order as the text stored in `key_order` (null when there is nothing to order). */
const keyOrderJson = (data: Record<string, unknown>): string | null => {
  const order = keyOrder(data);
  return order ? JSON.stringify(order) : null;
};

/**
 * The multi-row INSERT of new versions of depot `$1` from moment `$2` by user `$3`, from a JSON array
 * of records (`$4`) with the columns below; `key_order` may be given as an object (its JSON text
 * is stored). Used by the batch writes and by the embedded database's bulk path.
 */
export const INSERT_VERSION_RECORDS = `INSERT INTO magazine_datum_version (datum_id, depot_id, valid_from, data, repr, name, blob, bytes, user_id, key_order, extent, cell)
     SELECT x.datum_id, $1, $2, x.data, x.repr, x.name, x.blob, x.bytes, $3, x.key_order, x.extent, x.cell
     FROM jsonb_to_recordset($4::jsonb)
       AS x(datum_id int, data jsonb, repr text, name text, blob text, bytes bigint, key_order text, extent box, cell bigint)`;

const bytesOf = (values: VersionValues) => Buffer.byteLength(JSON.stringify(values.data)) + (values.blobBytes ?? 0);

/** The datum's version valid at `momentId` (undefined when it did not exist then). */
export async function versionAt(m: EntityManager, datumId: number, momentId: number): Promise<VersionRow | undefined> {
  const rows = (await m.query(`SELECT ${COLUMNS} FROM magazine_datum_version v WHERE v.datum_id = $1 AND ${validAt('$2')}`, [
    datumId,
    momentId,
  ])) as VersionRow[];
  return ordered(rows)[0];
}

/** The datum's current version (undefined when it is deleted). */
export async function currentVersion(m: EntityManager, datumId: number): Promise<VersionRow | undefined> {
  const rows = (await m.query(`SELECT ${COLUMNS} FROM magazine_datum_version v WHERE v.datum_id = $1 AND v.valid_to IS NULL`, [
    datumId,
  ])) as VersionRow[];
  return ordered(rows)[0];
}

export async function datumDepot(m: EntityManager, datumId: number): Promise<number | undefined> {
  const rows = (await m.query(
    `SELECT depot_id, last_id FROM magazine_datum_block WHERE first_id <= $1 ORDER BY first_id DESC LIMIT 1`,
    [datumId],
  )) as { depot_id: number; last_id: number }[];
  return rows[0] && rows[0].last_id >= datumId ? rows[0].depot_id : undefined;
}

/**
 * SQL condition (and its parameters, numbered from `$first`) for version alias `v` of depot `$1`:
 * its extent intersects one of `boxes` (a window, or its two halves across the antimeridian). The
 * versions' cells (common/datum-cell.ts) are asked first, as key ranges and single keys of the
 * B-tree `magazine_version_cell (depot_id, cell)`; the extents then decide (decision 0075,
 * amendment of 2026-11-28).
 */
export function inWindow(boxes: Extent[], first: number): { sql: string; params: unknown[] } {
  const { ranges, keys } = windowCells(boxes);
  const params: unknown[] = [keys.map(String)];
  const cells = [`v.cell = ANY($${first}::bigint[])`];
  for (const [lo, hi] of ranges) {
    params.push(String(lo), String(hi));
    cells.push(`v.cell BETWEEN $${first + params.length - 2}::bigint AND $${first + params.length - 1}::bigint`);
  }
  const tests = boxes.map((b) => {
    params.push(extentBox(b));
    return `v.extent && $${first + params.length - 1}::box`;
  });
  return { sql: `(${cells.join(' OR ')}) AND (${tests.join(' OR ')})`, params };
}

/**
 * A page of the snapshot at `momentId`, in datum order; `q` narrows by text representation,
 * `window` to the datums whose extent intersects it (one box, or two across the antimeridian:
 * `windowBoxes`). With `after` (a datum index) the page starts behind that datum instead of at
 * `offset`: reading a whole depot page by page then costs the same for every page (keyset paging).
 */
/** How many datums a depot holds at a moment, optionally only those whose extent meets `window`. */
export async function countSnapshot(m: EntityManager, depotId: number, momentId: number, window?: Extent[]): Promise<number> {
  const filters: unknown[] = [depotId, momentId];
  let where = `v.depot_id = $1 AND ${validAt('$2')}`;
  if (window) {
    const w = inWindow(window, filters.length + 1);
    filters.push(...w.params);
    where += ` AND ${w.sql}`;
  }
  const [{ count }] = (await m.query(`SELECT count(*)::int AS count FROM magazine_datum_version v WHERE ${where}`, filters)) as {
    count: number;
  }[];
  return count;
}

export async function snapshotPage(
  m: EntityManager,
  depotId: number,
  momentId: number,
  page: {
    offset: number;
    limit: number;
    q?: string;
    after?: number;
    window?: Extent[];
    lean?: boolean;
    /** Only datum_id and the data as JSON text (`TEXT_COLUMNS`). */
    text?: boolean;
    /** false: no total even for a search or a window (a stream of pages needs none). */
    total?: boolean;
  },
): Promise<{ rows: VersionRow[]; total?: number }> {
  const filters: unknown[] = [depotId, momentId];
  let where = `v.depot_id = $1 AND ${validAt('$2')}`;
  if (page.window) {
    const w = inWindow(page.window, filters.length + 1);
    filters.push(...w.params);
    where += ` AND ${w.sql}`;
  }
  if (page.q) {
    filters.push(`%${page.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND v.repr ILIKE $${filters.length} ESCAPE '\\'`;
  }
  if (page.after !== undefined) {
    filters.push(page.after);
    where += ` AND v.datum_id > $${filters.length}`;
  }
  const n = filters.length;
  const read = (await m.query(
    `SELECT ${page.text ? TEXT_COLUMNS : page.lean ? LEAN_COLUMNS : COLUMNS} FROM magazine_datum_version v WHERE ${where}
     ORDER BY v.datum_id OFFSET $${n + 1} LIMIT $${n + 2}`,
    [...filters, page.after !== undefined ? 0 : page.offset, page.limit],
  )) as VersionRow[];
  const rows = page.text ? read : ordered(read);
  if ((!page.q && !page.window) || page.total === false) return { rows };
  // Counted without `after`: total_count is the size of the (searched) snapshot, not of the rest.
  const counted = page.after !== undefined ? filters.slice(0, -1) : filters;
  const countWhere = page.after !== undefined ? where.slice(0, where.lastIndexOf(' AND v.datum_id >')) : where;
  const [{ count }] = (await m.query(
    `SELECT count(*)::int AS count FROM magazine_datum_version v WHERE ${countWhere}`,
    counted,
  )) as {
    count: number;
  }[];
  return { rows, total: count };
}

/** Adds a datum in the open moment; returns the new version and the bytes it stores. */
export async function insertDatums(
  m: EntityManager,
  depotId: number,
  momentId: number,
  userId: number,
  values: VersionValues[],
): Promise<{ versions: VersionRow[]; bytes: number }> {
  if (!values.length) return { versions: [], bytes: 0 };
  const ids = await newDatumIds(m, depotId, momentId, values.length);
  return insertVersions(
    m,
    depotId,
    momentId,
    userId,
    values.map((v, i) => ({ datumId: ids[i], values: v })),
  );
}

/**
 * Stores new versions of existing datums from `momentId` on, in one statement (the caller has
 * closed their previous versions). Returns the versions and the bytes they store.
 */
export async function insertVersions(
  m: EntityManager,
  depotId: number,
  momentId: number,
  userId: number,
  entries: Array<{ datumId: number; values: VersionValues }>,
): Promise<{ versions: VersionRow[]; bytes: number }> {
  if (!entries.length) return { versions: [], bytes: 0 };
  const versions = (await m.query(`${INSERT_VERSION_RECORDS} RETURNING ${RETURNED}`, [
    depotId,
    momentId,
    userId,
    JSON.stringify(
      entries.map(({ datumId, values: v }) => ({
        datum_id: datumId,
        data: v.data,
        repr: v.repr,
        name: v.name ?? null,
        blob: v.blob ?? null,
        bytes: bytesOf(v),
        key_order: keyOrder(v.data),
        extent: extentBox(v.extent ?? null),
        cell: extentCell(v.extent),
      })),
    ),
  ])) as VersionRow[];
  return { versions: ordered(versions), bytes: entries.reduce((s, e) => s + bytesOf(e.values), 0) };
}

/**
 * Replaces the datum's current version in the open moment. Returns the new version and the change
 * of the moment's stored bytes.
 */
export async function replaceVersion(
  m: EntityManager,
  current: VersionRow,
  momentId: number,
  userId: number,
  values: VersionValues,
): Promise<{ version: VersionRow; bytesDelta: number }> {
  const inPlaceSameBlob = current.valid_from === momentId && (values.blob ?? null) === current.blob;
  // Replacing a row in place keeps the bytes its blob added; a new row shares the blob for free.
  const blobPart = inPlaceSameBlob ? Math.max(0, Number(current.bytes) - Buffer.byteLength(JSON.stringify(current.data))) : 0;
  const bytes = bytesOf({ ...values, blobBytes: values.blobBytes ?? blobPart });
  // A version made in this moment is replaced (a new row, so its version id changes for
  // optimistic checks); an older one is closed and stays with the moments that saw it.
  const inPlace = current.valid_from === momentId;
  if (inPlace) await m.query(`DELETE FROM magazine_datum_version WHERE id = $1`, [current.id]);
  else await m.query(`UPDATE magazine_datum_version SET valid_to = $2 WHERE id = $1`, [current.id, momentId]);
  const [version] = (await m.query(
    `INSERT INTO magazine_datum_version (datum_id, depot_id, valid_from, data, repr, name, blob, bytes, user_id, key_order, extent, cell)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::box, $12) RETURNING ${RETURNED}`,
    [
      current.datum_id,
      current.depot_id,
      momentId,
      JSON.stringify(values.data),
      values.repr,
      values.name ?? null,
      values.blob ?? null,
      bytes,
      userId,
      keyOrderJson(values.data),
      extentBox(values.extent ?? null),
      extentCell(values.extent),
    ],
  )) as VersionRow[];
  return { version: ordered([version])[0], bytesDelta: inPlace ? bytes - Number(current.bytes) : bytes };
}

/** Removes the datum from the open moment. Returns the bytes delta. */
export async function removeVersion(m: EntityManager, current: VersionRow, momentId: number): Promise<number> {
  if (current.valid_from === momentId) {
    await m.query(`DELETE FROM magazine_datum_version WHERE id = $1`, [current.id]);
    await removeEmptyBlocks(m, current.depot_id, current.datum_id);
    return -Number(current.bytes);
  }
  await m.query(`UPDATE magazine_datum_version SET valid_to = $2 WHERE id = $1`, [current.id, momentId]);
  return 0;
}

/** Refuses a write whose `version` is not the datum's current one (decision 0011). */
export function checkVersion(current: VersionRow, version: unknown): void {
  if (version === undefined || version === null) return;
  if (String(version) !== String(current.id)) {
    throw new ApiError(409, 'datum_changed', 'magazine:errors.datum_changed', { datum: current.datum_id });
  }
}

/** The current datum of the depot with this file name, if any. */
export async function currentByName(m: EntityManager, depotId: number, name: string): Promise<number | undefined> {
  const rows = (await m.query(
    `SELECT datum_id FROM magazine_datum_version WHERE depot_id = $1 AND name = $2 AND valid_to IS NULL LIMIT 1`,
    [depotId, name],
  )) as { datum_id: number }[];
  return rows[0]?.datum_id;
}
