import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { ListResponse, Registry } from '@werkbank/kernel';
import {
  ApiError,
  parseRef,
  RESOURCE_ALIAS,
  type ResourceDefinition,
  type ResourceExtension,
  type ResourceRequest,
  type ResourceServices,
  type Row,
} from '@werkbank/sdk/node';
import { basePath, columnOf, decodeFilter, encodeField } from './field-codec';
import { PermissionService, type Access } from './permission-service';
import { decodeBody, decodeGrants } from './body-decoder';
import { pageParams } from './page-params';
import { decodeCursor, encodeCursor, invalidCursor, validCursorValue } from './list-cursor';
import { countParam, keysetCondition, nextAddress, orderKeys, type ListTiming } from './list-order';

export type { ListTiming } from './list-order';
import type { EventService } from './event-service';

/** Query parameters every list understands; others must be declared filters or extensions. */
const RESERVED = new Set(['offset', 'limit', 'after', 'count', 'q', 'filter', 'order_by', 'format', 'lang']);

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The shared resource layer (DESIGN §3): list, detail, create, update, delete for every kind,
 * with permissions enforced here once, validation at the boundary, and event-feed entries
 * written in the same transaction as the change.
 */
export class ResourceService implements ResourceServices {
  readonly permissions = new PermissionService();
  private readonly nullable = new Map<string, Set<string>>();

  constructor(
    private readonly db: DataSource,
    private readonly resources: Registry<ResourceDefinition>,
    private readonly extensions: Registry<ResourceExtension>,
    private readonly events: EventService,
  ) {}

  uriOf(def: ResourceDefinition, id: number): string {
    return `${basePath(def)}${id}/`;
  }

  resolveAddress(address: string): { def: ResourceDefinition; id: number } | undefined {
    const path = address.split('?')[0];
    for (const def of this.resources.all()) {
      const base = basePath(def);
      if (path.startsWith(base)) {
        const id = parseRef(path, base);
        if (id !== undefined) return { def, id };
      }
    }
    return undefined;
  }

  private baseQuery(m: EntityManager, def: ResourceDefinition): SelectQueryBuilder<Row> {
    return m.createQueryBuilder().from(def.table, RESOURCE_ALIAS) as SelectQueryBuilder<Row>;
  }

  private selectColumns(qb: SelectQueryBuilder<Row>, def: ResourceDefinition): SelectQueryBuilder<Row> {
    qb.select('t.id', 'id');
    const seen = new Set(['id']);
    const add = (col: string) => {
      if (seen.has(col)) return;
      seen.add(col);
      qb.addSelect(`t.${qb.escape(col)}`, col);
    };
    for (const [name, spec] of Object.entries(def.fields)) if (!spec.virtual) add(columnOf(name, spec));
    if (def.ownerColumn) add(def.ownerColumn);
    return qb;
  }

  definitions(): ResourceDefinition[] {
    return this.resources.all();
  }

  extensionList(): ResourceExtension[] {
    return this.extensions.all();
  }

  checkRealm(def: ResourceDefinition, req: ResourceRequest): void {
    const realm = def.realm ?? def.kind;
    if (req.realms && !req.realms.includes('*') && !req.realms.includes(realm)) {
      throw new ApiError(403, 'realm_denied', 'errors.realm_denied', { realm });
    }
  }

  applyReadable(qb: SelectQueryBuilder<Row>, def: ResourceDefinition, req: ResourceRequest, alias = RESOURCE_ALIAS): void {
    this.permissions.applyReadable(qb, def, req.user, alias);
    if (def.readFilter && !req.user.isSuperuser) def.readFilter(qb, req, this);
  }

  async loadReadable(def: ResourceDefinition, id: number, req: ResourceRequest): Promise<Row | undefined> {
    const qb = this.selectColumns(this.baseQuery(req.manager, def), def).where('t.id = :id', { id });
    this.applyReadable(qb, def, req);
    return (await qb.getRawOne<Row>()) ?? undefined;
  }

  async mayWrite(def: ResourceDefinition, row: Row, req: ResourceRequest): Promise<boolean> {
    return this.permissions.has(req.manager, def, row, req.user, 'write');
  }

  async mayAccess(def: ResourceDefinition, row: Row, req: ResourceRequest, access: Access): Promise<boolean> {
    return this.permissions.has(req.manager, def, row, req.user, access);
  }

  async recordEvent(
    def: ResourceDefinition,
    key: string,
    row: Row,
    req: ResourceRequest,
    metadata?: Record<string, unknown>,
  ): Promise<void> {
    if (def.events === false) return;
    await this.events.record(req.manager, {
      key,
      userId: req.user.id,
      kind: def.kind,
      objectId: row.id,
      objectUri: key === 'delete' ? null : this.uriOf(def, row.id),
      repr: def.repr ? def.repr(row) : String(row.name ?? `${def.kind} ${row.id}`),
      ownerId: def.ownerColumn ? ((row[def.ownerColumn] as number | null) ?? null) : null,
      metadata,
    });
  }

  /**
   * One page of a kind (spec 000 §3), by `offset` or behind a cursor (`after`, from `meta.next`),
   * with `total_count` unless `count=false`. `timing` receives what the count and the page took.
   */
  async list(
    def: ResourceDefinition,
    query: Record<string, string>,
    req: ResourceRequest,
    timing?: ListTiming,
  ): Promise<ListResponse<unknown>> {
    const { offset, limit } = pageParams(query);
    const withCount = countParam(query);
    const after = query.after ? decodeCursor(query.after) : undefined;
    if (after && offset) throw ApiError.badRequest('invalid_parameter', 'errors.cursor_with_offset', {}, 'offset');
    const qb = this.baseQuery(req.manager, def);
    this.applyReadable(qb, def, req);
    const q = query.q?.trim();
    if (q) {
      const cols = Object.entries(def.fields)
        .filter(([, s]) => s.search)
        // Text columns unconverted, so a trigram index on them can serve the search.
        .map(
          ([n, s]) =>
            `t.${qb.escape(columnOf(n, s))}${s.type === 'string' || s.type === 'text' ? '' : '::text'} ILIKE :q ESCAPE '\\'`,
        );
      if (cols.length) qb.andWhere(`(${cols.join(' OR ')})`, { q: `%${escapeLike(q)}%` });
    }
    const paramHandlers = new Map<string, NonNullable<ResourceExtension['queryParams']>[string]>(
      this.extensions.all().flatMap((e) => Object.entries(e.queryParams ?? {})),
    );
    for (const [name, raw] of Object.entries(query)) {
      if (RESERVED.has(name)) continue;
      const own = def.queryParams && Object.hasOwn(def.queryParams, name) ? def.queryParams[name] : undefined;
      if (own) {
        if (raw !== '') own(qb, raw, req);
        continue;
      }
      const handler = paramHandlers.get(name);
      if (handler) {
        if (raw !== '') handler(qb, def, raw, req);
        continue;
      }
      const spec = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
      if (!spec || !spec.filter) throw ApiError.badRequest('unknown_filter', 'errors.unknown_filter', { name }, name);
      const value = decodeFilter(name, spec, raw);
      qb.andWhere(`t.${qb.escape(columnOf(name, spec))} = :f_${name}`, { [`f_${name}`]: value });
    }
    if (query.filter) {
      for (const name of query.filter.split(',').filter(Boolean)) {
        if (name === 'favorites') {
          qb.andWhere(
            `EXISTS (SELECT 1 FROM werkbank_favorite fav WHERE fav.user_id = :favUser AND fav.kind = :favKind AND fav.object_id = t.id)`,
            { favUser: req.user.id, favKind: def.kind },
          );
          continue;
        }
        if (name === 'mine' && def.ownerColumn) {
          qb.andWhere(`t.${qb.escape(def.ownerColumn)} = :mineUser`, { mineUser: req.user.id });
          continue;
        }
        const f = def.namedFilters && Object.hasOwn(def.namedFilters, name) ? def.namedFilters[name] : undefined;
        if (!f) throw ApiError.badRequest('unknown_filter', 'errors.unknown_named_filter', { name }, 'filter');
        f(qb, req);
      }
    }
    const orderBy = query.order_by || def.defaultOrder || 'id';
    const keys = orderKeys(def, orderBy, await this.nullableColumns(req.manager, def.table));
    for (const key of keys) qb.addOrderBy(key.column, key.desc ? 'DESC' : 'ASC', key.nulls);
    const order = keys.map((k) => (k.desc ? '-' : '') + k.name).join(',');
    if (after) {
      if (after.order !== order || after.values.length !== keys.length) throw invalidCursor();
      keys.forEach((k, i) => {
        const v = after.values[i];
        if (v !== null && !validCursorValue(k.type, v)) throw invalidCursor();
      });
    }
    // Counted without the cursor: total_count is the size of the whole (filtered) list.
    let total: number | null = null;
    if (withCount) {
      const started = performance.now();
      const counted = await qb.clone().orderBy().select('count(*)::int', 'n').getRawOne<{ n: number }>();
      total = counted?.n ?? 0;
      if (timing) timing.countMs = performance.now() - started;
    }
    if (after) {
      // Behind the cursor's object: the same order, its values bound as parameters.
      qb.andWhere(keysetCondition(keys, after.values), Object.fromEntries(after.values.map((v, i) => [`ck${i}`, v])));
    }
    // Page the ids first (an index can answer it without visiting rows), then fetch those rows:
    // a deep offset walks a narrow index instead of whole rows. One more than the page tells
    // whether a next page exists; the order values of the page's last object make its cursor.
    const started = performance.now();
    qb.select('t.id', 'id');
    keys.forEach((k, i) => qb.addSelect(`${k.column}::text`, `ck${i}`));
    let page: Row[];
    try {
      page = await qb
        .offset(offset)
        .limit(limit + 1)
        .getRawMany<Row>();
    } catch (err) {
      // A cursor value the checks let through but the column's type refuses (e.g. 31 February).
      if (after && /^22/.test(String((err as { code?: unknown }).code ?? ''))) throw invalidCursor();
      throw err;
    }
    const more = page.length > limit;
    if (more) page = page.slice(0, limit);
    const ids = page.map((r) => r.id);
    let rows: Row[] = [];
    if (ids.length) {
      const found = await this.selectColumns(this.baseQuery(req.manager, def), def)
        .where('t.id = ANY(:pageIds)', { pageIds: ids })
        .getRawMany<Row>();
      const byId = new Map(found.map((r) => [r.id, r]));
      rows = ids.map((id) => byId.get(id)).filter((r): r is Row => !!r);
    }
    const objects = await this.serialize(def, rows, req);
    if (timing) timing.pageMs = performance.now() - started;
    let next: string | null = null;
    if (more) {
      const last = page[page.length - 1];
      const token = encodeCursor({ order, values: keys.map((_, i) => (last[`ck${i}`] ?? null) as string | null) });
      next = nextAddress(basePath(def), query, token);
    }
    return { objects, meta: { offset: after ? null : offset, limit, total_count: total, next } };
  }

  /** The columns of `table` that may hold null, from the catalogue (cached: migrations run before serving). */
  private async nullableColumns(m: EntityManager, table: string): Promise<Set<string>> {
    let found = this.nullable.get(table);
    if (!found) {
      const rows = (await m.query(
        `SELECT column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 AND is_nullable = 'YES'`,
        [table],
      )) as { column_name: string }[];
      found = new Set(rows.map((r) => r.column_name));
      this.nullable.set(table, found);
    }
    return found;
  }

  async detail(def: ResourceDefinition, id: number, req: ResourceRequest): Promise<unknown> {
    const row = await this.loadReadable(def, id, req);
    if (!row) throw ApiError.notFound();
    return (await this.serialize(def, [row], req))[0];
  }

  async serialize(def: ResourceDefinition, rows: Row[], req: ResourceRequest): Promise<Record<string, unknown>[]> {
    // Ids are numbers in every reply, also of kinds with bigint keys (events; pg gives those as text).
    for (const row of rows) if (typeof row.id === 'string') row.id = Number(row.id);
    const out = rows.map((row) => {
      const o: Record<string, unknown> = { id: row.id, resource_uri: this.uriOf(def, row.id) };
      for (const [name, spec] of Object.entries(def.fields)) {
        if (spec.hidden || spec.virtual) continue;
        o[name] = encodeField(spec, row[columnOf(name, spec)]);
      }
      if (def.ownerColumn) o.owner = row[def.ownerColumn] ? `/api/v1/user/${row[def.ownerColumn]}/` : null;
      return o;
    });
    if (!rows.length) return out;
    const ids = rows.map((r) => r.id);
    const favs = (await req.manager.query(
      `SELECT object_id FROM werkbank_favorite WHERE user_id = $1 AND kind = $2 AND object_id = ANY($3)`,
      [req.user.id, def.kind, ids],
    )) as { object_id: number }[];
    const favSet = new Set(favs.map((f) => f.object_id));
    out.forEach((o, i) => (o.favored = favSet.has(rows[i].id)));
    if (def.objectPermissions) {
      const grants = await this.permissions.grants(req.manager, def, ids);
      out.forEach((o, i) => (o.permissions = grants.get(rows[i].id) ?? []));
    }
    // What the caller may do with each object, so screens offer only what will succeed.
    const access = await this.permissions.accessOfRows(req.manager, def, rows, req.user);
    out.forEach((o, i) => {
      let mine = access.get(rows[i].id) ?? [];
      if (def.readOnly || (mine.includes('write') && def.hooks?.checkWrite?.(rows[i], req, 'update'))) {
        mine = mine.filter((a) => a !== 'write');
      }
      o.access = mine;
    });
    await def.hooks?.serialize?.(rows, out, req);
    for (const ext of this.extensions.all()) await ext.serialize?.(def, rows, out, req);
    return out;
  }

  private async ensureMayManageGrants(def: ResourceDefinition, row: Row, req: ResourceRequest): Promise<void> {
    const isOwner = def.ownerColumn ? row[def.ownerColumn] === req.user.id : false;
    if (!req.user.isSuperuser && !isOwner) {
      throw ApiError.forbidden('permission_denied', 'errors.only_owner_permissions');
    }
  }

  /** Runs `fn` in a transaction; announces events only after commit. */
  async inTransaction<T>(
    req: Omit<ResourceRequest, 'manager'>,
    kind: string,
    fn: (r: ResourceRequest) => Promise<T>,
  ): Promise<T> {
    const result = await this.db.transaction((manager) => fn({ ...req, manager }));
    this.events.announce(kind);
    return result;
  }

  async create(def: ResourceDefinition, body: Record<string, unknown>, req: ResourceRequest): Promise<Record<string, unknown>> {
    if (def.readOnly) throw new ApiError(405, 'method_not_allowed', 'errors.method_not_allowed');
    if (def.superuserOnly && !req.user.isSuperuser) throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
    if (def.hooks?.canCreate && !def.hooks.canCreate(req))
      throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
    const virtuals: Record<string, unknown> = {};
    const values = decodeBody(def, body, 'create', virtuals);
    if (def.ownerColumn) values[def.ownerColumn] = req.user.id;
    await def.hooks?.beforeCreate?.(values, req);
    const inserted = (await req.manager
      .createQueryBuilder()
      .insert()
      .into(def.table)
      .values(values)
      .returning('id')
      .execute()) as { raw: Array<{ id: number }> };
    const id = inserted.raw[0].id;
    const row = (await this.loadRow(def, id, req.manager))!;
    if (body.permissions !== undefined && def.objectPermissions) {
      await this.permissions.replaceGrants(req.manager, def, id, await decodeGrants(req.manager, def, body.permissions));
    }
    await def.hooks?.afterWrite?.(row, virtuals, req);
    await this.recordEvent(def, 'create', row, req);
    return (await this.serialize(def, [row], req))[0];
  }

  private async loadRow(def: ResourceDefinition, id: number, m: EntityManager): Promise<Row | undefined> {
    return (await this.selectColumns(this.baseQuery(m, def), def).where('t.id = :id', { id }).getRawOne<Row>()) ?? undefined;
  }

  /** Loads for a change: 404 when unreadable, 403 when readable but not writable. */
  async loadForWrite(def: ResourceDefinition, id: number, req: ResourceRequest, action: 'update' | 'delete'): Promise<Row> {
    if (def.readOnly) throw new ApiError(405, 'method_not_allowed', 'errors.method_not_allowed');
    const row = await this.loadReadable(def, id, req);
    if (!row) throw ApiError.notFound();
    if (!(await this.mayWrite(def, row, req))) throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
    const refusal = def.hooks?.checkWrite?.(row, req, action);
    if (refusal) throw ApiError.forbidden('permission_denied', refusal);
    return row;
  }

  async update(
    def: ResourceDefinition,
    id: number,
    body: Record<string, unknown>,
    req: ResourceRequest,
    eventKey: 'update' | 'store' = 'update',
  ): Promise<Record<string, unknown>> {
    const row = await this.loadForWrite(def, id, req, 'update');
    const virtuals: Record<string, unknown> = {};
    const changes = decodeBody(def, body, eventKey === 'store' ? 'store' : 'update', virtuals);
    await def.hooks?.beforeUpdate?.(row, changes, req);
    if (Object.keys(changes).length) {
      await req.manager.createQueryBuilder().update(def.table).set(changes).where('id = :id', { id }).execute();
    }
    const mayManage = req.user.isSuperuser || (def.ownerColumn ? row[def.ownerColumn] === req.user.id : false);
    // A store sends the object back as read; its grants count only when the caller may change them.
    if (body.permissions !== undefined && def.objectPermissions && (eventKey !== 'store' || mayManage)) {
      await this.ensureMayManageGrants(def, row, req);
      await this.permissions.replaceGrants(req.manager, def, id, await decodeGrants(req.manager, def, body.permissions));
    }
    const updated = (await this.loadRow(def, id, req.manager))!;
    await def.hooks?.afterWrite?.(updated, virtuals, req);
    const fields = Object.keys(body);
    if (!fields.every((f) => def.fields[f]?.viewState)) await this.recordEvent(def, eventKey, updated, req, { fields });
    return (await this.serialize(def, [updated], req))[0];
  }

  async remove(def: ResourceDefinition, id: number, req: ResourceRequest): Promise<void> {
    const row = await this.loadForWrite(def, id, req, 'delete');
    await def.hooks?.beforeDelete?.(row, req);
    for (const ext of this.extensions.all()) await ext.onDelete?.(def, row, req);
    await req.manager.query(`DELETE FROM werkbank_object_permission WHERE kind = $1 AND object_id = $2`, [def.kind, id]);
    await req.manager.query(`DELETE FROM werkbank_favorite WHERE kind = $1 AND object_id = $2`, [def.kind, id]);
    await req.manager.createQueryBuilder().delete().from(def.table).where('id = :id', { id }).execute();
    await this.recordEvent(def, 'delete', row, req);
  }

  async favor(def: ResourceDefinition, id: number, req: ResourceRequest, on: boolean): Promise<void> {
    const row = await this.loadReadable(def, id, req);
    if (!row) throw ApiError.notFound();
    if (on) {
      await req.manager.query(
        `INSERT INTO werkbank_favorite (user_id, kind, object_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [req.user.id, def.kind, id],
      );
    } else {
      await req.manager.query(`DELETE FROM werkbank_favorite WHERE user_id = $1 AND kind = $2 AND object_id = $3`, [
        req.user.id,
        def.kind,
        id,
      ]);
    }
    await this.recordEvent(def, on ? 'favor' : 'unfavor', row, req);
  }
}
