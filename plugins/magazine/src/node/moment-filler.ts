import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@werkbank/sdk/node';
import { addDatums, copyRowOf, insertVersions, snapshotPage, type BulkPath, type VersionValues } from './datum-store';
import { boxExtentOf, unionExtent, type Extent } from '../common/datum-extent';
import { UNION_EXTENT, type ExtentChange } from './datum-extent-sql';

const extentOfValues = (values: VersionValues[]): Extent | null =>
  values.reduce<Extent | null>((u, v) => unionExtent(u, v.extent ?? null), null);

/** Values stored per statement (one multi-row INSERT of datums and versions). */
const ROWS_PER_STATEMENT = 5000;

/**
 * Fills a just-created open moment with values that arrive in batches (DepotAccess.write and
 * writeStream; decision 0011 storage, decision 0020 streaming). Memory holds one batch and one page
 * of the depot's current datums, whatever the total.
 *
 * 'append' adds every value as a new datum. 'replace' makes the depot's content equal to all the
 * values, in order: the n-th current datum takes the n-th value (unchanged datums keep their
 * version, changed ones get a new one), values beyond the current datums are added, and `finish`
 * removes the current datums beyond the values (only differences are stored). The current datums
 * are walked in step with the batches by keyset paging; new datums get higher ids, so they only
 * appear once the walk has run out of current ones.
 *
 * Each call takes the entity manager of the transaction it runs in: one transaction for the whole
 * write on PostgreSQL, one per batch when the embedded database stages an import (decision 0075).
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

  /**
   * Makes the COPY rows of values that will be added as new datums, ahead of `add` (called while
   * the previous `add` is still running, so this process and the database work at the same
   * time). Values a replace compares with current datums are left alone.
   */
  prepare(values: VersionValues[]): void {
    if (this.path !== 'copy' || !this.exhausted) return;
    for (const v of values) v.copyRow = copyRowOf(v, this.depotId, this.momentId, this.userId);
  }

  /** Stores the next values (any number; split into statements of ROWS_PER_STATEMENT). */
  async add(m: EntityManager, values: VersionValues[]): Promise<void> {
    for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
      const chunk = values.slice(start, start + ROWS_PER_STATEMENT);
      const fresh = this.exhausted ? chunk : chunk.slice(await this.replaceCurrent(m, chunk));
      this.bytes += await addDatums(m, this.depotId, this.momentId, this.userId, fresh, this.path);
      this.added += fresh.length;
      this.extent.added = unionExtent(this.extent.added, extentOfValues(fresh));
    }
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
