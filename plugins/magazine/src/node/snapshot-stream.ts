import type { Extent } from '../common/datum-extent';
import { COLUMNS, inWindow, LEAN_COLUMNS, ordered, snapshotPage, TEXT_COLUMNS, type VersionRow } from './datum-store';
import { validAt } from './moment-store';
import type { MagazineServices } from './magazine-services';

/** Versions fetched per round trip of a streaming read. */
export const STREAM_BATCH = 5000;

/** How a stream reads: only in `window` when given; `lean` rows hold only datum_id and data. */
export interface StreamOptions {
  window?: Extent[];
  lean?: boolean;
  batch?: number;
  /**
   * The moment is closed (not an open head), so its snapshot never changes: on PostgreSQL the read
   * starts with one plain query of a batch, and only a full first batch goes on with the cursor (for
   * the datums after it). A small window then costs one round trip instead of five.
   */
  closed?: boolean;
  /**
   * Rows hold only datum_id and the data as JSON text (`data` is then a string, keys in jsonb's
   * order): for readers that parse it elsewhere (another thread).
   */
  text?: boolean;
}

/**
 * The snapshot of depot `depotId` at `momentId` (only datums whose extent intersects `window`
 * when given) in datum order, batch by batch, for reads of a whole depot whose size memory need
 * not hold (issue 15 item 3, decision 0070). Memory holds one batch.
 *
 * On PostgreSQL one connection of the pool runs a read-only REPEATABLE READ transaction with a
 * server-side cursor (`DECLARE … FETCH`): the rows come as one consistent snapshot, even of an
 * open head that others edit meanwhile, and the query runs once. On the embedded database the
 * only connection cannot be held for as long as a client reads, so each batch is its own keyset
 * query (`datum_id > last`, index order): other requests run between the batches; a closed
 * moment reads the same, an open head edited during the read gives each datum as it was when its
 * batch was read.
 */
export async function* snapshotBatches(
  services: MagazineServices,
  depotId: number,
  momentId: number,
  options: StreamOptions = {},
): AsyncGenerator<VersionRow[]> {
  const { window, lean } = options;
  const batch = options.batch ?? STREAM_BATCH;
  if (!services.config.databaseUrl) {
    for (let after: number | undefined; ;) {
      const { rows } = await snapshotPage(services.dataSource.manager, depotId, momentId, {
        offset: 0,
        limit: batch,
        after,
        window,
        lean,
        text: options.text,
        total: false,
      });
      if (rows.length) yield rows;
      if (rows.length < batch) return;
      after = rows[rows.length - 1].datum_id;
    }
  }
  const params: unknown[] = [depotId, momentId];
  let where = `v.depot_id = $1 AND ${validAt('$2')}`;
  if (window) {
    const w = inWindow(window, 3);
    params.push(...w.params);
    where += ` AND ${w.sql}`;
  }
  const columns = options.text ? TEXT_COLUMNS : lean ? LEAN_COLUMNS : COLUMNS;
  const rowsOf = (rows: VersionRow[]) => (options.text ? rows : ordered(rows));
  const size = Math.max(1, Math.floor(batch));
  if (options.closed) {
    const rows = rowsOf(
      (await services.dataSource.query(
        `SELECT ${columns} FROM magazine_datum_version v WHERE ${where} ORDER BY v.datum_id LIMIT ${size}`,
        params,
      )) as VersionRow[],
    );
    if (rows.length) yield rows;
    if (rows.length < size) return;
    params.push(rows[rows.length - 1].datum_id);
    where += ` AND v.datum_id > $${params.length}`;
  }
  const runner = services.dataSource.createQueryRunner();
  await runner.connect();
  let open = false;
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    await runner.query(
      `DECLARE magazine_snapshot NO SCROLL CURSOR FOR
       SELECT ${columns} FROM magazine_datum_version v WHERE ${where} ORDER BY v.datum_id`,
      params,
    );
    const fetch = `FETCH FORWARD ${size} FROM magazine_snapshot`;
    for (;;) {
      const rows = (await runner.query(fetch)) as VersionRow[];
      if (rows.length) yield rowsOf(rows);
      if (rows.length < size) break;
    }
    await runner.query('COMMIT');
    open = false;
  } finally {
    // A reader that stopped early (client gone, consumer returned) ends the transaction here.
    if (open) await runner.query('ROLLBACK').catch(() => undefined);
    await runner.release();
  }
}
