import { isDeepStrictEqual } from 'node:util';
import {
  ApiError,
  createI18n,
  inject,
  injectable,
  parseRef,
  ServerServices,
  type AuthUser,
  type DepotAccess,
  type DepotSnapshot,
  type EntityManager,
  type ResourceRequest,
} from '@werkbank/sdk/node';
import { depotDefinition, depotFor } from './depot-access';
import { datumDepot, insertDatums, insertVersions, snapshotPage, versionAt, type VersionValues } from './datum-store';
import { isFileType, ownFields, validated } from './datum-codec';
import { countWrite, DEPOT_PATH, headMoment, latestApprovedMoment, loadMoment, newMoment } from './moment-store';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

/** Datums read or compared per query (keyset paging) and written per statement. */
const PAGE = 1000;

type WriteOptions = Parameters<DepotAccess['write']>[3];

/**
 * The Magazine's DepotAccess: switchboard functions read a depot at a moment and write new
 * moments, with the permissions of the user who runs the switchboard (decision 0011 storage).
 */
@injectable()
export class MagazineDepotAccess implements DepotAccess {
  @inject(ServerServices) protected readonly services!: ServerServices;
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

  async read(user: AuthUser, depot: number | string, momentId?: number): Promise<DepotSnapshot> {
    const r = this.request(user, user.language);
    const depotId = depotIdOf(depot);
    const row = await depotFor(r, depotId, 'read');
    if (momentId !== undefined && !(Number.isInteger(momentId) && momentId > 0 && momentId < 1e9)) throw ApiError.notFound();
    const moment =
      momentId !== undefined ? await loadMoment(r.manager, momentId) : await latestApprovedMoment(r.manager, depotId);
    if (momentId !== undefined && moment?.depot_id !== depotId) throw ApiError.notFound();
    if (!moment) throw new ApiError(409, 'no_approved_moment', 'magazine:errors.no_approved_moment', { depot: row.name });
    const items: Record<string, unknown>[] = [];
    for (let after: number | undefined; ;) {
      const { rows } = await snapshotPage(r.manager, depotId, moment.id, { offset: 0, limit: PAGE, after });
      for (const v of rows) items.push(v.data);
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].datum_id;
    }
    // A moment's snapshot only changes when the moment itself is deleted (decision 0011).
    if (!(await loadMoment(r.manager, moment.id))) throw ApiError.notFound();
    return { depot_id: depotId, moment_id: moment.id, content_type: String(row.content_type), items };
  }

  async datum(
    user: AuthUser,
    address: string,
  ): Promise<{ depot_id: number; moment_id: number; content_type: string; name: string; fields: Record<string, unknown> }> {
    const r = this.request(user, user.language);
    const m = /^(?:\/api\/v1\/datum\/)?(\d{1,9})(?:@(\d{1,9}))?\/?$/.exec(String(address).trim());
    if (!m) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.datum_ref', {}, 'datum');
    const datumId = Number(m[1]);
    const depotId = await datumDepot(r.manager, datumId);
    if (depotId === undefined) throw ApiError.notFound();
    const depot = await depotFor(r, depotId, 'read');
    const momentId = m[2] ? Number(m[2]) : (await headMoment(r.manager, depotId))?.id;
    const moment = momentId !== undefined ? await loadMoment(r.manager, momentId) : undefined;
    if (!moment || moment.depot_id !== depotId) throw ApiError.notFound();
    const version = await versionAt(r.manager, datumId, moment.id);
    if (!version) throw ApiError.notFound();
    return {
      depot_id: depotId,
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
    const depotId = depotIdOf(depot);
    const { manager: _, ...base } = this.request(user, options.lang ?? user.language);
    return this.services.resources.inTransaction(base, 'depot', async (r) => {
      const row = await depotFor(r, depotId, 'write');
      const type = String(row.content_type);
      if (isFileType(this.services, type)) {
        throw ApiError.badRequest('invalid_field', 'magazine:errors.file_upload_only', {}, 'items');
      }
      const values = items.map((item, i) => this.validatedItem(item, i, type));
      const moment = await newMoment(r.manager, depotId, user.id, {
        temporary: false,
        message: options.message ?? '',
        origin: 'switchboard',
      });
      const { sizeDelta, bytes } =
        options.mode === 'append'
          ? await appendContent(r.manager, depotId, moment.id, user.id, values)
          : await replaceContent(r.manager, depotId, moment.id, user.id, values);
      await countWrite(r.manager, moment.id, sizeDelta, bytes);
      // Final, so later edits open a moment of their own and users can approve this one.
      await r.manager.query(`UPDATE magazine_moment SET status = 'final', node_run_id = $2 WHERE id = $1`, [
        moment.id,
        options.nodeRunId ?? null,
      ]);
      await r.services.recordEvent(depotDefinition(r), 'update', row, r, {
        action: 'switchboard_write',
        moment_id: moment.id,
        count: values.length,
        node_run: options.nodeRunId ?? null,
      });
      return { depot_id: depotId, moment_id: moment.id };
    });
  }

  /** The item's fields checked against the depot's type; 400 invalid_value naming `items[i]`. */
  private validatedItem(item: Record<string, unknown>, i: number, type: string): VersionValues {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw ApiError.badRequest('invalid_value', 'magazine:errors.item_object', { item: `items[${i}]` }, `items[${i}]`);
    }
    try {
      return validated(ownFields(item), type, this.services);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      throw new ApiError(e.status, e.code, e.key, e.params, e.field ? `items[${i}].${e.field}` : `items[${i}]`);
    }
  }
}

/** A depot id from an id or a depot address; 400 otherwise. */
function depotIdOf(depot: number | string): number {
  const id = parseRef(depot, DEPOT_PATH);
  if (id === undefined)
    throw ApiError.badRequest('invalid_value', 'magazine:errors.depot_ref', { depot: String(depot) }, 'depot');
  return id;
}

/** Adds `values` as new datums of the open moment. */
async function appendContent(m: EntityManager, depotId: number, momentId: number, userId: number, values: VersionValues[]) {
  let bytes = 0;
  for (let start = 0; start < values.length; start += PAGE) {
    bytes += (await insertDatums(m, depotId, momentId, userId, values.slice(start, start + PAGE))).bytes;
  }
  return { sizeDelta: values.length, bytes };
}

/**
 * Makes the depot's content equal to `values`, in order, in the open moment `momentId` (just
 * created on top, so every current version began before it). The n-th current datum takes the
 * n-th value: unchanged datums keep their version, changed ones get a new one, datums beyond the
 * values are removed, values beyond the datums are added (decision 0011: only differences are stored).
 */
async function replaceContent(m: EntityManager, depotId: number, momentId: number, userId: number, values: VersionValues[]) {
  let position = 0;
  let bytes = 0;
  // Keyset paging over the current datums; changes only touch datums behind the cursor, and
  // new datums (higher ids) are added after the last page.
  for (let after: number | undefined; ;) {
    const { rows } = await snapshotPage(m, depotId, momentId, { offset: 0, limit: PAGE, after });
    const closed: string[] = [];
    const changed: Array<{ datumId: number; values: VersionValues }> = [];
    for (const v of rows) {
      const next = values[position++];
      if (next && isDeepStrictEqual(v.data, next.data)) continue;
      closed.push(v.id);
      if (next) changed.push({ datumId: v.datum_id, values: next });
    }
    if (closed.length) {
      await m.query(`UPDATE magazine_datum_version SET valid_to = $2 WHERE id = ANY($1::bigint[])`, [closed, momentId]);
    }
    bytes += (await insertVersions(m, depotId, momentId, userId, changed)).bytes;
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].datum_id;
  }
  // `position` is now the number of datums the depot held.
  const added = await appendContent(m, depotId, momentId, userId, values.slice(position));
  return { sizeDelta: values.length - position, bytes: bytes + added.bytes };
}
