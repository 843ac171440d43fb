import { token } from '@werkbank/kernel';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { TFunction } from 'i18next';
import type { ListResponse } from '@werkbank/kernel';
import type { AuthUser } from './http-context';
import type { FieldSpec } from '../common/resource-fields';

export type { FieldSpec, FieldType } from '../common/resource-fields';

/**
 * The alias of the kind's table in every query the resource layer hands a plugin (readFilter,
 * namedFilters, queryParams, ResourceExtension.queryParams): write `t.column` (or
 * `${RESOURCE_ALIAS}.column`) there. A plugin that builds its own query names its own alias and
 * passes it to `ResourceServices.applyReadable(qb, def, req, alias)`.
 */
export const RESOURCE_ALIAS = 't';

/** What hooks and actions get: the caller, its language, and the manager of the transaction. */
export interface ResourceRequest {
  user: AuthUser;
  t: TFunction;
  lang: string;
  manager: EntityManager;
  /** The resource layer itself (resolve addresses, check access, record events). */
  services: ResourceServices;
  /** The API key's realms when the call came with a key; undefined for sessions. */
  realms?: string[];
}

export type Row = Record<string, unknown> & { id: number };

export interface ResourceHooks {
  /** May the caller create objects of this kind? Default: every authenticated user. */
  canCreate?(req: ResourceRequest): boolean;
  /**
   * May the caller change or delete this object? Runs after the permission check, so it can only
   * narrow it. Return a translation key to refuse with 403 and that reason.
   */
  checkWrite?(row: Row, req: ResourceRequest, action: 'update' | 'delete'): string | undefined;
  /** Before insert, with validated column values; may amend them or throw ApiError. */
  beforeCreate?(values: Record<string, unknown>, req: ResourceRequest): void | Promise<void>;
  beforeUpdate?(row: Row, changes: Record<string, unknown>, req: ResourceRequest): void | Promise<void>;
  beforeDelete?(row: Row, req: ResourceRequest): void | Promise<void>;
  /** After insert or update, in the same transaction, with the validated virtual fields given. */
  afterWrite?(row: Row, virtuals: Record<string, unknown>, req: ResourceRequest): void | Promise<void>;
  /** Adds fields to the reply objects. */
  serialize?(rows: Row[], out: Record<string, unknown>[], req: ResourceRequest): void | Promise<void>;
}

/** A call on one object (`{resource}{name}/`) or on the list (`{list}{name}/`). */
export interface ResourceAction {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** On one object; the object must be readable, and writable when `needs` is 'write'. */
  detail: boolean;
  needs?: 'read' | 'write' | 'execute';
  handler(args: {
    row?: Row;
    query: Record<string, string>;
    body: Record<string, unknown>;
    req: ResourceRequest;
    services: ResourceServices;
  }): Promise<unknown>;
}

/**
 * The shared resource layer (permissions, events, generic create/update/list) as plugins use it:
 * injected by the ResourceServices token, and handed to hooks and actions in `req.services`.
 */
export interface ResourceServices {
  /** Resolves a resource address (`/api/v1/kind/3/`) to its definition and id, or undefined. */
  resolveAddress(address: string): { def: ResourceDefinition; id: number } | undefined;
  /** Loads one object the caller may read (undefined otherwise). */
  loadReadable(def: ResourceDefinition, id: number, req: ResourceRequest): Promise<Row | undefined>;
  /** True when the caller may change the object. */
  mayWrite(def: ResourceDefinition, row: Row, req: ResourceRequest): Promise<boolean>;
  /** True when the caller has the access (read, write, or execute where the kind has it) to the object. */
  mayAccess(def: ResourceDefinition, row: Row, req: ResourceRequest, access: 'read' | 'write' | 'execute'): Promise<boolean>;
  /** Writes an event-feed entry in the request's transaction. */
  recordEvent(
    def: ResourceDefinition,
    key: string,
    row: Row,
    req: ResourceRequest,
    metadata?: Record<string, unknown>,
  ): Promise<void>;
  uriOf(def: ResourceDefinition, id: number): string;
  /** Every registered resource definition. */
  definitions(): ResourceDefinition[];
  /** Narrows a query over `def.table` (as `alias`) to the rows the caller may read. */
  applyReadable(qb: SelectQueryBuilder<Row>, def: ResourceDefinition, req: ResourceRequest, alias?: string): void;
  /** Throws 403 realm_denied when an API key's realms do not cover the kind. */
  checkRealm(def: ResourceDefinition, req: ResourceRequest): void;
  /**
   * The kind's list as `GET {list}` answers it, for the caller: `offset`/`limit`, or `after` (a cursor from
   * `meta.next`), `count=false` to skip `total_count`, plus the list's filters and order.
   */
  list(def: ResourceDefinition, query: Record<string, string>, req: ResourceRequest): Promise<ListResponse<unknown>>;
  /** Creates an object as `POST {list}` does (checks, hooks, permissions, feed), in the request's transaction. */
  create(def: ResourceDefinition, body: Record<string, unknown>, req: ResourceRequest): Promise<Record<string, unknown>>;
  /** Changes an object as `PATCH {object}` does, in the request's transaction. */
  update(
    def: ResourceDefinition,
    id: number,
    body: Record<string, unknown>,
    req: ResourceRequest,
  ): Promise<Record<string, unknown>>;
  /** Serialises rows the caller has read, as the kind's replies carry them. */
  serialize(def: ResourceDefinition, rows: Row[], req: ResourceRequest): Promise<Record<string, unknown>[]>;
  /**
   * Runs `fn` in one transaction (rolled back when it throws) and announces the kind's new
   * event-feed entries after the commit.
   */
  inTransaction<T>(req: Omit<ResourceRequest, 'manager'>, kind: string, fn: (r: ResourceRequest) => Promise<T>): Promise<T>;
}

/** A kind of object served at `/api/v1/{kind}/` (or `path`) by the shared resource layer. */
export interface ResourceDefinition {
  /** Registry id: `<plugin-id>.<kind>`. */
  id: string;
  /** Kind name: the event content kind, the favourites and permission key, the API key realm. */
  kind: string;
  /** List address; default `/api/v1/{kind}/`. Must end with '/'. */
  path?: string;
  table: string;
  /** Licensed component that must be on for every call of this kind. */
  component?: string;
  /** API key realm; defaults to the kind. */
  realm?: string;
  fields: Record<string, FieldSpec>;
  /** e.g. '-created' or 'name'; default 'id'. */
  defaultOrder?: string;
  /** Object-level permissions (spec 002 §6). Without them every signed-in user may read. */
  objectPermissions?: { read: string; write: string; execute?: string };
  /** Column holding the owner's user id; the owner always has every permission. */
  ownerColumn?: string;
  /**
   * A boolean column: objects where it is true are published (e.g. a public layer) and readable by
   * every signed-in user; writing still needs the write permission (decision 0060).
   */
  publicColumn?: string;
  /** Only superusers may read (and write) objects of this kind. */
  superuserOnly?: boolean;
  /** No create, update or delete through the generic calls. */
  readOnly?: boolean;
  /** Tags may be assigned to objects of this kind (the tags plugin adds `?tag=` and `tags`). */
  taggable?: boolean;
  /** Event-feed entries for changes; default true. */
  events?: boolean;
  /** Text that names an object in the feed. */
  repr?: (row: Row) => string;
  /**
   * Narrows lists for callers who are not superusers, for kinds whose visibility is not decided by
   * object permissions (e.g. the event feed).
   */
  readFilter?: (qb: SelectQueryBuilder<Row>, req: ResourceRequest, services: ResourceServices) => void;
  /** Named filters for `?filter=name` (built in for every kind: favorites, and mine where owned). */
  namedFilters?: Record<string, (qb: SelectQueryBuilder<Row>, req: ResourceRequest) => void>;
  /** The kind's own list query parameters: name → how it narrows the query. */
  queryParams?: Record<string, (qb: SelectQueryBuilder<Row>, value: string, req: ResourceRequest) => void>;
  /** Related objects for `contextview/` (spec 000 §7); default none. */
  contextview?: (row: Row, req: ResourceRequest) => Promise<{ relations: unknown[]; objects: unknown[] }>;
  hooks?: ResourceHooks;
  actions?: ResourceAction[];
  /** Text for the API reference. */
  description?: string;
  /** What one object of the kind is called, per language (the activity feed). */
  label?: Record<string, string>;
}

/** Cross-cutting additions to every resource (e.g. tags add `?tag=` and a `tags` field). */
export interface ResourceExtension {
  id: string;
  /** Extra list query parameters: name → how it narrows the query. */
  queryParams?: Record<
    string,
    (qb: SelectQueryBuilder<Row>, def: ResourceDefinition, value: string, req: ResourceRequest) => void
  >;
  /** Adds fields to reply objects of any kind. */
  serialize?(def: ResourceDefinition, rows: Row[], out: Record<string, unknown>[], req: ResourceRequest): Promise<void>;
  /** Called inside the transaction after an object was deleted. */
  onDelete?(def: ResourceDefinition, row: Row, req: ResourceRequest): Promise<void>;
  /** More related objects for `contextview/` of any kind (e.g. switchboards reading a depot). */
  contextview?(
    def: ResourceDefinition,
    row: Row,
    req: ResourceRequest,
  ): Promise<{ relations: unknown[]; objects: unknown[] } | undefined>;
}
export const ResourceServices = token<ResourceServices>('ResourceServices');
