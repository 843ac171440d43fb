import { boxExtentOf } from '../common/datum-extent';
import {
  ApiError,
  createI18n,
  inject,
  injectable,
  parseRef,
  type AuthUser,
  type EntityManager,
  type ResourceRequest,
  type Row,
} from '@werkbank/sdk/node';
import { depotDefinition, depotFor } from './depot-access';
import { countSnapshot, datumDepot, snapshotPage, versionAt, type VersionValues } from './datum-store';
import { MomentFiller, type PreparedRows } from './moment-filler';
import { beginStagedImport, discardStagedImport, endStagedImport } from './staged-import';
import { datumValidator, isFileType, ownFields } from './datum-codec';
import { countWrite, lockDepot, DEPOT_PATH, headMoment, latestApprovedMoment, loadMoment, newMoment } from './moment-store';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import {
  type DepotAccess,
  type DepotDatum,
  type DepotSnapshot,
  type DepotWindow,
  type DepotWindowPage,
  type DepotDatumText,
  type DepotWindowReader,
} from '../common/magazine-api';
import { windowBoxes, type Extent } from '../common/datum-extent';
import { snapshotBatches } from './snapshot-stream';
import { MagazineServices } from './magazine-services';
import { createDatums, patchDatum } from './datum-write';

/** Datums read per query (keyset paging) and items per batch of `write`. */
const PAGE = 1000;
/** The largest page `intersecting` gives. */
const MAX_WINDOW_PAGE = 10000;

type WriteOptions = Parameters<DepotAccess['write']>[3];

/**
 * The Magazine's DepotAccess: switchboard functions read a depot at a moment and write new
 * moments, with the permissions of the user who runs the switchboard (decision 0011 storage).
 */
@injectable()
export class MagazineDepotAccess implements DepotAccess {
  @inject(MagazineServices) protected readonly services!: MagazineServices;
  private translator?: ReturnType<typeof createI18n>;

  /** A resource-layer request as `user`, outside any HTTP call (no API key realms). */
  protected request(user: AuthUser, lang: string | null | undefined): ResourceRequest {
    this.translator ??= createI18n([{ id: 'magazine.depot-access', namespace: 'magazine', de, en }]);
    const language = lang === 'de' ? 'de' : 'en';
    return {
      user,
      t: this.translator.getFixedT(language, 'magazine'),
      lang: language,
      manager: this.services.dataSource.manager,
      services: this.services.resources,
    };
  }

  /** The readable depot and the moment to read: `momentId`, or the latest approved one. */
  private async readTarget(user: AuthUser, depot: number | string, momentId: number | undefined, manager?: EntityManager) {
    const r = { ...this.request(user, user.language), ...(manager && { manager }) };
    const depotId = depotIdOf(depot);
    const row = await depotFor(r, depotId, 'read');
    if (momentId !== undefined && !(Number.isInteger(momentId) && momentId > 0 && momentId < 1e9)) throw ApiError.notFound();
    const moment =
      momentId !== undefined ? await loadMoment(r.manager, momentId) : await latestApprovedMoment(r.manager, depotId);
    if (momentId !== undefined && moment?.depot_id !== depotId) throw ApiError.notFound();
    if (!moment) throw new ApiError(409, 'no_approved_moment', 'magazine:errors.no_approved_moment', { depot: row.name });
    // A closed moment's snapshot never changes (decision 0011): window reads may page through it.
    return { r, depotId, momentId: moment.id, type: String(row.content_type), closed: moment.status !== 'open' };
  }

  async read(
    user: AuthUser,
    depot: number | string,
    momentId?: number,
    options: { manager?: EntityManager } = {},
  ): Promise<DepotSnapshot> {
    const target = await this.readTarget(user, depot, momentId, options.manager);
    const items: Record<string, unknown>[] = [];
    const indexes: number[] = [];
    if (options.manager) {
      // In the caller's transaction: keyset pages on its connection.
      for (let after: number | undefined; ;) {
        const { rows } = await snapshotPage(options.manager, target.depotId, target.momentId, {
          offset: 0,
          limit: 1000,
          after,
          lean: true,
        });
        for (const v of rows) {
          items.push(v.data);
          indexes.push(v.datum_id);
        }
        if (rows.length < 1000) break;
        after = rows[rows.length - 1].datum_id;
      }
    } else {
      // The streaming read (one cursor on PostgreSQL, keyset batches embedded); a frame holds all.
      for await (const rows of snapshotBatches(this.services, target.depotId, target.momentId, { lean: true })) {
        for (const v of rows) {
          items.push(v.data);
          indexes.push(v.datum_id);
        }
      }
    }
    // A moment's snapshot only changes when the moment itself is deleted (decision 0011).
    if (!(await loadMoment(target.r.manager, target.momentId))) throw ApiError.notFound();
    return { depot_id: target.depotId, moment_id: target.momentId, content_type: target.type, items, indexes };
  }

  async count(
    user: AuthUser,
    depot: number | string,
    options: { momentId?: number; window?: DepotWindow } = {},
  ): Promise<{ depot_id: number; moment_id: number; count: number }> {
    const boxes = options.window ? boxesOf(options.window) : undefined;
    const target = await this.readTarget(user, depot, options.momentId);
    const count = await countSnapshot(target.r.manager, target.depotId, target.momentId, boxes);
    return { depot_id: target.depotId, moment_id: target.momentId, count };
  }

  async intersecting(
    user: AuthUser,
    depot: number | string,
    window: DepotWindow,
    options: { momentId?: number; after?: number; limit?: number } = {},
  ): Promise<DepotWindowPage> {
    const boxes = boxesOf(window);
    const target = await this.readTarget(user, depot, options.momentId);
    const limit = Math.min(MAX_WINDOW_PAGE, Math.max(1, Math.floor(options.limit ?? PAGE)));
    const after =
      options.after !== undefined && Number.isInteger(options.after) && options.after >= 0 ? options.after : undefined;
    const { rows } = await snapshotPage(target.r.manager, target.depotId, target.momentId, {
      offset: 0,
      limit,
      after,
      window: boxes,
    });
    return {
      depot_id: target.depotId,
      moment_id: target.momentId,
      content_type: target.type,
      items: rows.map((v) => ({ index: v.datum_id, fields: v.data })),
      next_after: rows.length === limit ? rows[rows.length - 1].datum_id : null,
    };
  }

  async readStream(
    user: AuthUser,
    depot: number | string,
    options: { momentId?: number; window?: DepotWindow } = {},
  ): Promise<{ depot_id: number; moment_id: number; content_type: string; batches: AsyncIterable<DepotDatum[]> }> {
    const boxes = options.window ? boxesOf(options.window) : undefined;
    const target = await this.readTarget(user, depot, options.momentId);
    const services = this.services;
    async function* batches(): AsyncGenerator<DepotDatum[]> {
      for await (const rows of snapshotBatches(services, target.depotId, target.momentId, {
        window: boxes,
        lean: true,
        closed: boxes && target.closed,
      })) {
        yield rows.map((v) => ({ index: v.datum_id, fields: v.data }));
      }
    }
    return { depot_id: target.depotId, moment_id: target.momentId, content_type: target.type, batches: batches() };
  }

  async windowReader(user: AuthUser, depot: number | string, options: { momentId?: number } = {}): Promise<DepotWindowReader> {
    const target = await this.readTarget(user, depot, options.momentId);
    const services = this.services;
    async function* read(boxes: Extent[]): AsyncGenerator<DepotDatum[]> {
      for await (const rows of snapshotBatches(services, target.depotId, target.momentId, {
        window: boxes,
        lean: true,
        closed: target.closed,
      })) {
        yield rows.map((v) => ({ index: v.datum_id, fields: v.data }));
      }
    }
    async function* readText(boxes: Extent[]): AsyncGenerator<DepotDatumText[]> {
      for await (const rows of snapshotBatches(services, target.depotId, target.momentId, {
        window: boxes,
        closed: target.closed,
        text: true,
      })) {
        yield rows.map((v) => ({ index: v.datum_id, text: v.data as unknown as string }));
      }
    }
    return {
      depot_id: target.depotId,
      moment_id: target.momentId,
      content_type: target.type,
      // The window is checked when `read` is called, not when its batches are iterated.
      read: (window) => read(boxesOf(window)),
      readText: (window) => readText(boxesOf(window)),
      extent: async () => {
        const [row] = (await services.dataSource.query(`SELECT extent FROM magazine_moment WHERE id = $1`, [
          target.momentId,
        ])) as {
          extent: string | null;
        }[];
        return boxExtentOf(row?.extent);
      },
    };
  }

  async saveDatum(
    user: AuthUser,
    target: { depot: number | string } | { datum: string },
    fields: Record<string, unknown>,
    options: { momentId?: number; version?: string; lang?: string; manager?: EntityManager } = {},
  ): Promise<{ depot_id: number; moment_id: number; datum: string; index: number }> {
    const { manager: _, ...base } = this.request(user, options.lang ?? user.language);
    const own = { ...fields };
    delete own.version;
    const inTransaction = <T>(fn: (r: ResourceRequest) => Promise<T>): Promise<T> =>
      options.manager ? fn({ ...base, manager: options.manager }) : this.services.resources.inTransaction(base, 'depot', fn);
    return inTransaction(async (r) => {
      if ('datum' in target) {
        const m = /^(?:\/api\/v1\/datum\/)?(\d{1,9})\/?$/.exec(String(target.datum).trim());
        if (!m) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.datum_ref', {}, 'datum');
        const body = options.version !== undefined ? { ...own, version: options.version } : own;
        const { object, moment_id, depot_id } = await patchDatum(r, this.services, Number(m[1]), body, options.momentId);
        return { depot_id, moment_id, datum: `/api/v1/datum/${object.index}/`, index: Number(object.index) };
      }
      const { objects, moment_id, depot_id } = await createDatums(
        r,
        this.services,
        depotIdOf(target.depot),
        [own],
        options.momentId,
      );
      return { depot_id, moment_id, datum: `/api/v1/datum/${objects[0].index}/`, index: Number(objects[0].index) };
    });
  }

  async datum(
    user: AuthUser,
    address: string,
  ): Promise<{ depot_id: number; moment_id: number; content_type: string; name: string; fields: Record<string, unknown> }> {
    const { depot_name: _, ...datum } = await this.datumIn(this.request(user, user.language), address);
    return datum;
  }

  async datumIn(
    r: ResourceRequest,
    address: string,
    options: { approved?: boolean } = {},
  ): Promise<{
    depot_id: number;
    depot_name: string;
    moment_id: number;
    content_type: string;
    name: string;
    fields: Record<string, unknown>;
  }> {
    const m = /^(?:\/api\/v1\/datum\/)?(\d{1,9})(?:@(\d{1,9}))?\/?$/.exec(String(address).trim());
    if (!m) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.datum_ref', {}, 'datum');
    const datumId = Number(m[1]);
    const depotId = await datumDepot(r.manager, datumId);
    if (depotId === undefined) throw ApiError.notFound();
    const depot = await depotFor(r, depotId, 'read');
    let momentId = m[2] ? Number(m[2]) : undefined;
    if (momentId === undefined && options.approved) {
      const approved = await latestApprovedMoment(r.manager, depotId);
      if (!approved) throw new ApiError(409, 'no_approved_moment', 'magazine:errors.no_approved_moment', { depot: depot.name });
      momentId = approved.id;
    }
    momentId ??= (await headMoment(r.manager, depotId))?.id;
    const moment = momentId !== undefined ? await loadMoment(r.manager, momentId) : undefined;
    if (!moment || moment.depot_id !== depotId) throw ApiError.notFound();
    const version = await versionAt(r.manager, datumId, moment.id);
    if (!version) throw ApiError.notFound();
    return {
      depot_id: depotId,
      depot_name: String(depot.name),
      moment_id: moment.id,
      content_type: String(depot.content_type),
      name: version.name ?? (version.repr || ''),
      fields: version.data,
    };
  }

  async write(
    user: AuthUser,
    depot: number | string,
    items: Record<string, unknown>[],
    options: WriteOptions,
  ): Promise<{ depot_id: number; moment_id: number }> {
    const { depot_id, moment_id } = await this.writeStream(user, depot, pagesOf(items), options);
    return { depot_id, moment_id };
  }

  async writeStream(
    user: AuthUser,
    depot: number | string,
    batches: AsyncIterable<Record<string, unknown>[]>,
    options: WriteOptions,
  ): Promise<{ depot_id: number; moment_id: number; count: number }> {
    const depotId = depotIdOf(depot);
    const { manager: _, ...base } = this.request(user, options.lang ?? user.language);
    if (!this.services.config.databaseUrl) return this.writeStaged(base, user, depotId, batches, options);
    // One transaction: a failing batch (or source) leaves no moment and no datums behind.
    return this.services.resources.inTransaction(base, 'depot', async (r) => {
      const { row, type } = await this.writableDepot(r, depotId);
      const moment = await newMoment(r.manager, depotId, user.id, {
        temporary: false,
        message: options.message ?? '',
        origin: 'switchboard',
      });
      const filler = new MomentFiller(depotId, moment.id, user.id, options.mode ?? 'replace', 'copy');
      const count = await this.fill<VersionValues[] | PreparedRows>(
        batches,
        type,
        (values) => filler.add(r.manager, values),
        (values) => filler.prepare(values),
      ).catch(async (e: unknown) => {
        // The COPY still on its way ends before the transaction is rolled back.
        await filler.settle().catch(() => undefined);
        throw e;
      });
      const { sizeDelta, bytes, extent } = await filler.finish(r.manager);
      await countWrite(r.manager, moment.id, sizeDelta, bytes, extent);
      // Final, so later edits open a moment of their own and users can approve this one.
      await r.manager.query(`UPDATE magazine_moment SET status = 'final', node_run_id = $2 WHERE id = $1`, [
        moment.id,
        options.nodeRunId ?? null,
      ]);
      await this.services.writeGuards.check(r, { depot_id: depotId, content_type: type, moment_id: moment.id, action: 'write' });
      await this.recordWrite(r, row, moment.id, count, options);
      return { depot_id: depotId, moment_id: moment.id, count };
    });
  }

  /**
   * The write on the embedded database, staged (decision 0075): each statement of new datums (and
   * each batch a replace compares) in a transaction of its own, so other requests get the one
   * database session between them, and the moment made visible
   * by a last short transaction, where the datum write guards run. A failure (or a guard's refusal)
   * discards what was staged; so does the next start after a stop in the middle (MagazineMaintenance).
   */
  private async writeStaged(
    base: Omit<ResourceRequest, 'manager'>,
    user: AuthUser,
    depotId: number,
    batches: AsyncIterable<Record<string, unknown>[]>,
    options: WriteOptions,
  ): Promise<{ depot_id: number; moment_id: number; count: number }> {
    const { type, momentId } = await this.services.resources.inTransaction(base, 'depot', async (r) => {
      const { type } = await this.writableDepot(r, depotId);
      return { type, momentId: await beginStagedImport(r.manager, depotId, user.id) };
    });
    try {
      const filler = new MomentFiller(depotId, momentId, user.id, options.mode ?? 'replace', 'insert');
      const db = this.services.dataSource;
      const count = await this.fill<VersionValues[] | PreparedRows>(
        batches,
        type,
        async (values) => {
          // A transaction only for a statement to write: prepared rows wait for the next.
          if (filler.writes(values)) await db.transaction((m) => filler.add(m, values));
          else if (!Array.isArray(values)) filler.hold(values);
        },
        (values) => filler.prepare(values),
      );
      return await this.services.resources.inTransaction(base, 'depot', async (r) => {
        const { row } = await this.writableDepot(r, depotId);
        await lockDepot(r.manager, depotId, momentId);
        const { sizeDelta, bytes, extent } = await filler.finish(r.manager);
        await endStagedImport(r.manager, depotId, momentId, user.id, {
          sizeDelta,
          bytes,
          extent,
          message: options.message ?? '',
          nodeRunId: options.nodeRunId ?? null,
        });
        // The guards see the import as the head; a refusal rolls this back and discards the batches.
        await this.services.writeGuards.check(r, { depot_id: depotId, content_type: type, moment_id: momentId, action: 'write' });
        await this.recordWrite(r, row, momentId, count, options);
        return { depot_id: depotId, moment_id: momentId, count };
      });
    } catch (e) {
      await this.services.dataSource.transaction((m) => discardStagedImport(m, depotId, momentId));
      throw e;
    }
  }

  /** The depot as a writable depot of a type that takes items (not files); 404/403/400 otherwise. */
  private async writableDepot(r: ResourceRequest, depotId: number): Promise<{ row: Row; type: string }> {
    const row = await depotFor(r, depotId, 'write');
    const type = String(row.content_type);
    if (isFileType(this.services, type)) {
      throw ApiError.badRequest('invalid_field', 'magazine:errors.file_upload_only', {}, 'items');
    }
    return { row, type };
  }

  /**
   * Pulls the batches, validates their items, prepares them (`prepare`) and stores them; returns
   * how many there were. One batch is stored while the next is pulled, validated and prepared
   * (the database and this process work at the same time); a failed store is thrown before the
   * next one starts. The items are checked by one validator made for the depot's type
   * (`datumValidator`), not looked up per item.
   */
  private async fill<T>(
    batches: AsyncIterable<Record<string, unknown>[]>,
    type: string,
    store: (values: T) => Promise<void>,
    prepare: (values: VersionValues[]) => T,
  ): Promise<number> {
    const validate = datumValidator(type, this.services);
    let count = 0;
    let storing: Promise<void> = Promise.resolve();
    try {
      for await (const batch of batches) {
        const values = prepare(this.validatedBatch(batch, count, validate));
        count += batch.length;
        // Back to the event loop between batches: the database's replies (the datum ids, the end
        // of a COPY) and the COPY's data wait for it, so without this turn the database waited
        // for this process's parsing of the next batches (decision 0075, amendment of 2026-11-28).
        await new Promise((resolve) => setImmediate(resolve));
        await storing;
        storing = store(values);
        storing.catch(() => undefined);
      }
    } catch (e) {
      // The batch being stored ends before the write is rolled back or discarded.
      await storing.catch(() => undefined);
      throw e;
    }
    await storing;
    return count;
  }

  private async recordWrite(r: ResourceRequest, row: Row, momentId: number, count: number, options: WriteOptions): Promise<void> {
    await r.services.recordEvent(depotDefinition(r), 'update', row, r, {
      action: 'switchboard_write',
      moment_id: momentId,
      count,
      node_run: options.nodeRunId ?? null,
    });
  }

  /** The items' fields checked by `validate`; 400 invalid_value naming `items[first + i]`. */
  private validatedBatch(
    batch: Record<string, unknown>[],
    first: number,
    validate: (fields: Record<string, unknown>) => VersionValues,
  ): VersionValues[] {
    const values = new Array<VersionValues>(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i];
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        const at = `items[${first + i}]`;
        throw ApiError.badRequest('invalid_value', 'magazine:errors.item_object', { item: at }, at);
      }
      try {
        values[i] = validate(ownFields(item));
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const at = `items[${first + i}]`;
        throw new ApiError(e.status, e.code, e.key, e.params, e.field ? `${at}.${e.field}` : at);
      }
    }
    return values;
  }
}

/** The boxes of a window; 400 bbox_param when it is not one. */
function boxesOf(window: DepotWindow): Extent[] {
  const boxes = Array.isArray(window) ? windowBoxes(window) : null;
  if (!boxes) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.bbox_param', {}, 'window');
  return boxes;
}

/** A depot id from an id or a depot address; 400 otherwise. */
function depotIdOf(depot: number | string): number {
  const id = parseRef(depot, DEPOT_PATH);
  if (id === undefined)
    throw ApiError.badRequest('invalid_value', 'magazine:errors.depot_ref', { depot: String(depot) }, 'depot');
  return id;
}

/** `items` in pages of PAGE, for the streaming write. */
async function* pagesOf(items: Record<string, unknown>[]): AsyncIterable<Record<string, unknown>[]> {
  for (let start = 0; start < items.length; start += PAGE) yield items.slice(start, start + PAGE);
}
