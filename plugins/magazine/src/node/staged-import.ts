import type { EntityManager } from '@werkbank/sdk/node';
import { headMoment, lockDepot } from './moment-store';
import { removeEmptyBlocks } from './datum-blocks';
import { changeMomentExtent, type ExtentChange } from './datum-extent-sql';

/**
 * A write staged on the embedded database (decision 0075). PGlite is one database session: while
 * a transaction is open, every other request waits for it. A large write therefore goes in
 * several transactions, one per batch, and other requests run between them. Its versions are
 * stored for a moment id drawn at the start (`valid_from`, and `valid_to` of the versions it
 * closes) whose moment row is only inserted by the last, short transaction; until then no moment
 * of the depot can see them (every moment there has a smaller id) and `magazine_import` keeps
 * other writers of the depot out (lockDepot), so no moment with a greater id is made meanwhile.
 * A failed write, or one a stopped server left behind, is discarded: its versions go, the ones it
 * closed are current again.
 */

/** Locks the depot and records an import into it; returns the moment id its versions use. */
export async function beginStagedImport(m: EntityManager, depotId: number, userId: number): Promise<number> {
  await lockDepot(m, depotId);
  const [{ id }] = (await m.query(`SELECT nextval('magazine_moment_id_seq')::int AS id`)) as { id: number }[];
  await m.query(`INSERT INTO magazine_import (moment_id, depot_id, user_id) VALUES ($1, $2, $3)`, [id, depotId, userId]);
  return id;
}

/**
 * Makes the staged import visible: closes the open head and inserts the import's moment (final,
 * as every switchboard write) with the content the batches stored. The caller's transaction also
 * records the event.
 */
export async function endStagedImport(
  m: EntityManager,
  depotId: number,
  momentId: number,
  userId: number,
  moment: { sizeDelta: number; bytes: number; extent: ExtentChange; message: string; nodeRunId: number | null },
): Promise<void> {
  await lockDepot(m, depotId, momentId);
  await m.query(`UPDATE magazine_moment SET status = 'final' WHERE depot_id = $1 AND status = 'open'`, [depotId]);
  const head = await headMoment(m, depotId);
  // It continues the head: its size and extent (decision 0070) are the head's, changed by the import.
  await m.query(
    `INSERT INTO magazine_moment (id, depot_id, user_id, status, origin, size, persistent_size, temporary, message, node_run_id, extent)
     VALUES ($1, $2, $3, 'final', 'switchboard', $4, $5, false, $6, $7, (SELECT extent FROM magazine_moment WHERE id = $8))`,
    [
      momentId,
      depotId,
      userId,
      (head?.size ?? 0) + moment.sizeDelta,
      moment.bytes,
      moment.message,
      moment.nodeRunId,
      head?.id ?? null,
    ],
  );
  await changeMomentExtent(m, momentId, moment.extent);
  await m.query(`UPDATE magazine_depot SET modified = now() WHERE id = $1`, [depotId]);
  await m.query(`DELETE FROM magazine_import WHERE moment_id = $1`, [momentId]);
}

/** Removes what a staged import stored and reopens what it closed (it never became a moment). */
export async function discardStagedImport(m: EntityManager, depotId: number, momentId: number): Promise<void> {
  await m.query(`DELETE FROM magazine_datum_version WHERE depot_id = $1 AND valid_from = $2`, [depotId, momentId]);
  await m.query(`UPDATE magazine_datum_version SET valid_to = NULL WHERE depot_id = $1 AND valid_to = $2`, [depotId, momentId]);
  await m.query(`DELETE FROM magazine_datum_block WHERE depot_id = $1 AND moment_id = $2`, [depotId, momentId]);
  await removeEmptyBlocks(m, depotId);
  await m.query(`DELETE FROM magazine_import WHERE moment_id = $1`, [momentId]);
}

/**
 * Discards the imports a stopped server left staged (at start on the embedded database, where no
 * other process can be importing); returns how many there were.
 */
export async function discardInterruptedImports(dataSource: {
  query(sql: string): Promise<unknown>;
  transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T>;
}): Promise<number> {
  const staged = (await dataSource.query(`SELECT moment_id, depot_id FROM magazine_import ORDER BY moment_id`)) as {
    moment_id: number;
    depot_id: number;
  }[];
  for (const s of staged) await dataSource.transaction((m) => discardStagedImport(m, s.depot_id, s.moment_id));
  return staged.length;
}
