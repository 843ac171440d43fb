import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@werkbank/sdk/node';
import { insertVersions, snapshotPage, type VersionValues } from './datum-store';
import {
  copyDatums,
  copyRowOf,
  insertDatumRecords,
  insertRecordOf,
  KeyOrderMemo,
  packRows,
  type BulkPath,
  type PackedRows,
} from './bulk-rows';
import { boxExtentOf, unionExtent, type Extent } from '../common/datum-extent';
import { UNION_EXTENT, type ExtentChange } from './datum-extent-sql';

const extentOfValues = (values: VersionValues[]): Extent | null =>
  values.reduce<Extent | null>((u, v) => unionExtent(u, v.extent ?? null), null);

/** New datums stored per statement (one multi-row INSERT on the embedded database, or one COPY). */
export const ROWS_PER_STATEMENT = 5000;

/**
 * New datums per COPY on PostgreSQL: each statement costs a round trip for its datum ids and one for
 * its end, so larger ones are faster (1,000,000 CSV rows: 11.1 s with 5,000, 8.8–9.8 s with 20,000,
 * no gain with 50,000; decision 0075, amendment of 2026-11-28). Its rows are kept as text until sent.
 */
const COPY_ROWS_PER_STATEMENT = 20_000;

/**
 * New datums' rows made ahead (MomentFiller.prepare): only their texts (without datum ids), the
 * bytes they store and their extents' union, so a batch's values and their fields are garbage once
 * it is prepared, while its rows wait for a statement to fill (decision 0075, evening amendment).
 * COPY rows are packed outside V8's heap (`blocks`, one per batch); INSERT records of the embedded
 * database stay strings (`records`), as its statement takes them.
 */
export interface PreparedRows {
  count: number;
  blocks: PackedRows[];
  records: string[];
  bytes: number;
  extent: Extent | null;
}

const noRows = (): PreparedRows => ({ count: 0, blocks: [], records: [], bytes: 0, extent: null });

/**
 * Fills a just-created open moment with values that arrive in batches (DepotAccess.write and
 * writeStream; decision 0011 storage, decision 0020 streaming). Memory holds one batch and one page
 * of the depot's current datums, and the rows of up to one statement, whatever the total.
 *
 * 'append' adds every value as a new datum. 'replace' makes the depot's content equal to all the
 * values, in order: the n-th current datum takes the n-th value (unchanged datums keep their
 * version, changed ones get a new one), values beyond the current datums are added, and `finish`
 * removes the current datums beyond the values (only differences are stored). The current datums
 * are walked in step with the batches by keyset paging; new datums get higher ids, so they only
 * appear once the walk has run out of current ones.
 *
 * Each call takes the entity manager of the transaction it runs in: one transaction for the whole
 * write on PostgreSQL, one per statement when the embedded database stages an import (decision
 * 0075; `writes` and `hold` let it open one only when there is something to write).
 */
export class MomentFiller {
  /** The last current datum compared (keyset cursor). */
  private after: number | undefined;
  /** Whether the walk has seen every current datum. */
  private exhausted: boolean;
  private added = 0;
  private bytes = 0;
  /** The extents the write added and removed (decision 0070), for the moment's extent. */
  private readonly extent: ExtentChange = { added: null, removed: null };

  constructor(
    private readonly depotId: number,
    private readonly momentId: number,
    private readonly userId: number,
    mode: 'replace' | 'append',
    private readonly path: BulkPath,
  ) {
    this.exhausted = mode === 'append';
  }

  /** Rows waiting for their statement: sent once ROWS_PER_STATEMENT are there, or by `finish`. */
  private pending: PreparedRows = noRows();
  /** The COPY on its way (PostgreSQL), awaited before the connection is used again. */
  private sending: Promise<void> | undefined;
  /** The key orders of this write's values, made once per shape. */
  private readonly orders = new KeyOrderMemo();

  /**
   * Makes the rows of values that will be added as new datums (COPY rows, or INSERT records on
   * the embedded database), ahead of `add` (called while the previous `add` is still running, so
   * this process and the database work at the same time). Values a replace compares with current
   * datums are returned as they are.
   */
  prepare(values: VersionValues[]): VersionValues[] | PreparedRows {
    if (!this.exhausted) return values;
    return this.rowsOf(values);
  }

  private rowsOf(values: VersionValues[]): PreparedRows {
    const texts = new Array<string>(values.length);
    let bytes = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const row =
        this.path === 'copy'
          ? copyRowOf(v, this.depotId, this.momentId, this.userId, this.orders)
          : insertRecordOf(v, this.orders);
      texts[i] = row.text;
      bytes += row.bytes;
    }
    const copy = this.path === 'copy' && values.length > 0;
    return {
      count: values.length,
      blocks: copy ? [packRows(texts)] : [],
      records: copy ? [] : texts,
      bytes,
      extent: extentOfValues(values),
    };
  }

  /**
   * Whether `add(m, values)` would write to the database; when it would not, `hold` queues the
   * prepared rows without a transaction (the staged import opens one only to write).
   */
  writes(values: VersionValues[] | PreparedRows): boolean {
    return Array.isArray(values) || this.pending.count + values.count >= ROWS_PER_STATEMENT;
  }

  /** Queues prepared rows that do not fill a statement (`writes` is false). */
  hold(values: PreparedRows): void {
    if (this.writes(values)) throw new Error('MomentFiller.hold: the rows fill a statement, add them');
    this.queue(values);
  }

  /**
   * Stores the next values (any number). New datums are sent in statements of ROWS_PER_STATEMENT
   * (COPY_ROWS_PER_STATEMENT on PostgreSQL) whatever the batches' size; the last rows go with `finish`.
   */
  async add(m: EntityManager, values: VersionValues[] | PreparedRows): Promise<void> {
    if (!Array.isArray(values)) {
      this.queue(values);
      if (this.path !== 'copy') return this.pending.count < ROWS_PER_STATEMENT ? undefined : this.send(m);
      if (this.pending.count < COPY_ROWS_PER_STATEMENT) return;
      // One COPY on its way while the rows of the next are made: the statement before must have
      // ended (its error is thrown here), this one is awaited by the next add, `settle` or `finish`.
      await this.settle();
      const sending = this.send(m);
      sending.catch(() => undefined);
      this.sending = sending;
      return;
    }
    await this.settle();
    for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
      const chunk = values.slice(start, start + ROWS_PER_STATEMENT);
      const fresh = this.exhausted ? chunk : chunk.slice(await this.replaceCurrent(m, chunk));
      if (!fresh.length) continue;
      this.queue(this.rowsOf(fresh));
      if (this.pending.count >= ROWS_PER_STATEMENT) await this.send(m);
    }
  }

  /**
   * Waits for the COPY still on its way (none on the embedded database), throwing its error. A
   * write that fails elsewhere calls it before its transaction is rolled back.
   */
  async settle(): Promise<void> {
    const sending = this.sending;
    this.sending = undefined;
    await sending;
  }

  private queue(prepared: PreparedRows): void {
    const p = this.pending;
    for (const block of prepared.blocks) p.blocks.push(block);
    for (const record of prepared.records) p.records.push(record);
    p.count += prepared.count;
    p.bytes += prepared.bytes;
    p.extent = unionExtent(p.extent, prepared.extent);
  }

  /** Sends the queued rows as one statement (COPY, or a multi-row INSERT on the embedded database). */
  private async send(m: EntityManager): Promise<void> {
    const p = this.pending;
    if (!p.count) return;
    this.pending = noRows();
    if (this.path === 'copy') await copyDatums(m, this.depotId, this.momentId, p.blocks);
    else await insertDatumRecords(m, this.depotId, this.momentId, this.userId, p.records);
    this.bytes += p.bytes;
    this.added += p.count;
    this.extent.added = unionExtent(this.extent.added, p.extent);
  }

  /** Gives the next current datums the values' content; returns how many values they took. */
  private async replaceCurrent(m: EntityManager, values: VersionValues[]): Promise<number> {
    const { rows } = await snapshotPage(m, this.depotId, this.momentId, {
      offset: 0,
      limit: values.length,
      after: this.after,
    });
    if (rows.length < values.length) this.exhausted = true;
    if (!rows.length) return 0;
    this.after = rows[rows.length - 1].datum_id;
    const closed: string[] = [];
    const changed: Array<{ datumId: number; values: VersionValues }> = [];
    rows.forEach((v, i) => {
      if (isDeepStrictEqual(v.data, values[i].data)) return;
      closed.push(v.id);
      changed.push({ datumId: v.datum_id, values: values[i] });
      this.extent.removed = unionExtent(this.extent.removed, boxExtentOf(v.extent));
      this.extent.added = unionExtent(this.extent.added, values[i].extent ?? null);
    });
    if (closed.length) {
      await m.query(`UPDATE magazine_datum_version SET valid_to = $2 WHERE id = ANY($1::bigint[])`, [closed, this.momentId]);
    }
    this.bytes += (await insertVersions(m, this.depotId, this.momentId, this.userId, changed)).bytes;
    return rows.length;
  }

  /**
   * Ends the write: with 'replace', the current datums no value reached are removed. Returns the
   * change of the depot's size (datums), the bytes the moment stores and what the write did to
   * the extents of the snapshot (for countWrite).
   */
  async finish(m: EntityManager): Promise<{ sizeDelta: number; bytes: number; extent: ExtentChange }> {
    await this.settle();
    await this.send(m);
    let removed = 0;
    if (!this.exhausted) {
      const [{ n, extent }] = (await m.query(
        `WITH closed AS (
           UPDATE magazine_datum_version SET valid_to = $2
           WHERE depot_id = $1 AND valid_to IS NULL AND valid_from < $2 AND datum_id > $3 RETURNING extent
         ) SELECT count(*)::int AS n, ${UNION_EXTENT('c')} AS extent FROM closed c`,
        [this.depotId, this.momentId, this.after ?? 0],
      )) as { n: number; extent: string | null }[];
      removed = n;
      this.extent.removed = unionExtent(this.extent.removed, boxExtentOf(extent));
    }
    return { sizeDelta: this.added - removed, bytes: this.bytes, extent: this.extent };
  }
}
