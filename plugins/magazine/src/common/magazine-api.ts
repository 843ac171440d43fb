/**
 * The Magazine's API for other plugins (package export `@werkbank/plugin-magazine/api`): depot
 * reads and writes for switchboard functions and the checks other plugins add to datum writes
 * (node), and the datum card menu other plugins add entries to and the depot screen's actions
 * (browser). Import it only from a plugin that lists 'magazine' in `requires` or
 * `optional`; when the Magazine is not loaded, nothing is bound to DepotAccess and nothing collects
 * DatumCardMenuContribution.
 */
import { token, type RegistrySink } from '@werkbank/sdk';
import type { AuthUser, EntityManager, ResourceRequest } from '@werkbank/sdk/node';
import type { MenuItemContext } from '@werkbank/sdk/browser';
import type { ReactNode } from '@werkbank/sdk/react';

/** A depot's datums as a switchboard function reads them (fields of the depot's content type). */
export interface DepotSnapshot {
  depot_id: number;
  moment_id: number;
  content_type: string;
  items: Record<string, unknown>[];
  /** The datums' indexes (`/api/v1/datum/{index}/`), in the order of `items`. */
  indexes: number[];
}

/** One datum of a depot as paged and streamed reads give it: its index (the stable key) and fields. */
export interface DepotDatum {
  index: number;
  fields: Record<string, unknown>;
}

/** A window `[west, south, east, north]` in degrees (WGS 84); west > east crosses the antimeridian. */
export type DepotWindow = [number, number, number, number];

/** A page of the datums in a window (`DepotAccess.intersecting`), in index order. */
export interface DepotWindowPage {
  depot_id: number;
  moment_id: number;
  content_type: string;
  items: DepotDatum[];
  /** Pass as `after` for the next page; null on the last one. */
  next_after: number | null;
}

/** Reads windows of one depot's moment (`DepotAccess.windowReader`). */
export interface DepotWindowReader {
  depot_id: number;
  moment_id: number;
  content_type: string;
  /**
   * The datums whose extent intersects `window`, in batches in index order (one consistent snapshot
   * on PostgreSQL).
   */
  read(window: DepotWindow): AsyncIterable<DepotDatum[]>;
  /**
   * The same datums as `read`, each with its fields as JSON text (keys in any order), unparsed: for
   * readers that hand the datums to another thread, where the text crosses as it is and is parsed
   * there instead of on the thread that reads.
   */
  readText(window: DepotWindow): AsyncIterable<DepotDatumText[]>;
  /** The moment's extent: the union of its datums' extents (decision 0070); null when none has a location. */
  extent(): Promise<DepotWindow | null>;
}

/** A datum of `DepotWindowReader.readText`: its index and its fields as JSON text. */
export interface DepotDatumText {
  index: number;
  text: string;
}

/**
 * Depot reads and writes for switchboard functions, bound by the plugin that owns depots (the
 * Magazine). Permissions are the given user's: read_depot to read, write_depot to write.
 */
export interface DepotAccess {
  /**
   * The datums at `momentId`, or at the latest approved moment when it is not given. 404 when the
   * user may not read the depot; 409 `no_approved_moment` when it has none. `options.manager` reads
   * in that transaction (a resource hook's `req.manager`): on the embedded database a read on
   * another connection would wait for the hook's transaction to end.
   */
  read(user: AuthUser, depot: number | string, momentId?: number, options?: { manager?: EntityManager }): Promise<DepotSnapshot>;
  /**
   * The datums at `momentId` (default: the latest approved moment) whose extent (decision 0070)
   * intersects `window`, in index order, `limit` (default 1000, at most 10,000) after the index
   * `after`. Datums without a location are never in a window. 400 for a malformed window; 404 and
   * 409 as `read`.
   */
  intersecting(
    user: AuthUser,
    depot: number | string,
    window: DepotWindow,
    options?: { momentId?: number; after?: number; limit?: number },
  ): Promise<DepotWindowPage>;
  /**
   * How many datums `readStream` with the same options gives (one counting query, no datum read);
   * 404 and 409 as `read`.
   */
  count(
    user: AuthUser,
    depot: number | string,
    options?: { momentId?: number; window?: DepotWindow },
  ): Promise<{ depot_id: number; moment_id: number; count: number }>;
  /**
   * The datums at `momentId` (default: the latest approved moment), optionally only those in
   * `window`, as batches in index order for depots larger than memory: the permission and the
   * moment are checked when the promise resolves, the rows are read while `batches` is iterated
   * (on PostgreSQL from one consistent snapshot). Stop iterating to end the read early.
   */
  readStream(
    user: AuthUser,
    depot: number | string,
    options?: { momentId?: number; window?: DepotWindow },
  ): Promise<{ depot_id: number; moment_id: number; content_type: string; batches: AsyncIterable<DepotDatum[]> }>;
  /**
   * A reader of many windows of one moment (`momentId`, default the latest approved one): the
   * permission and the moment are checked once, when the promise resolves; each `read(window)` then
   * gives the datums whose extent intersects the window as `readStream` with that window does,
   * without checking again. For services that read many small windows of one state (vector tiles,
   * map tiles): keep a reader only as long as its check may stand (one request, a memo of a
   * moment). 400 for a malformed window (when `read` is called); 404 and 409 as `read`.
   */
  windowReader(user: AuthUser, depot: number | string, options?: { momentId?: number }): Promise<DepotWindowReader>;
  /**
   * Writes `items` as a new moment (replacing the depot's datums, or appending with
   * mode 'append') and records the node run that wrote it. Items are validated against the depot's
   * content type.
   */
  write(
    user: AuthUser,
    depot: number | string,
    items: Record<string, unknown>[],
    options: { nodeRunId?: number; mode?: 'replace' | 'append'; message?: string; lang?: string },
  ): Promise<{ depot_id: number; moment_id: number }>;
  /**
   * Like `write`, for more items than memory or a frame can hold: the items come from `batches`
   * and are validated and stored batch by batch (batched statements) into ONE new moment, so
   * memory holds about one batch whatever the total. All or nothing: when a batch is invalid, or
   * `batches` throws, nothing is kept (no moment, no datums) and the error is rethrown. An item's
   * error names its place in the whole stream (`items[i]`). The permission check comes before the
   * first batch is pulled. `count` is the number of items written.
   */
  writeStream(
    user: AuthUser,
    depot: number | string,
    batches: AsyncIterable<Record<string, unknown>[]>,
    options: { nodeRunId?: number; mode?: 'replace' | 'append'; message?: string; lang?: string },
  ): Promise<{ depot_id: number; moment_id: number; count: number }>;
  /**
   * Saves one datum as an author's edit does (decision 0011): with `datum` (its address) a new
   * version of that datum, with `depot` a new datum there; either way in the depot's open moment
   * (opened when the head is closed), so the depot's moments and permissions apply: 404 when the user
   * may not read the depot, 403 when they may not change it, 409 moment_moved / datum_changed when
   * `momentId` / `version` (what the caller read) are no longer current. `fields` are the datum's
   * fields (checked against the depot's content type). Gives the datum's address without a moment.
   * With `options.manager` the save runs in that transaction (a caller's write that must keep all or
   * nothing); the caller then announces the depot's feed entries (`inTransaction(…, 'depot', …)`).
   */
  saveDatum(
    user: AuthUser,
    target: { depot: number | string } | { datum: string },
    fields: Record<string, unknown>,
    options?: { momentId?: number; version?: string; lang?: string; manager?: EntityManager },
  ): Promise<{ depot_id: number; moment_id: number; datum: string; index: number }>;
  /**
   * One datum by its address (`/api/v1/datum/{id}/`, optionally `@{moment}`), when the user may read
   * its depot; 404 otherwise. `name` is the datum's name or file path where it has one.
   */
  datum(
    user: AuthUser,
    address: string,
  ): Promise<{ depot_id: number; moment_id: number; content_type: string; name: string; fields: Record<string, unknown> }>;
  /**
   * Like `datum`, as the caller of a request and inside its transaction (`req.manager`, `req.user`):
   * for hooks of other plugins' resources (a layer linking a style datum, decision 0068). With
   * `approved`, the version at the depot's latest approved moment: 409 no_approved_moment when the
   * depot has none, 404 when the datum did not exist at it. `depot_name` is the depot's name.
   */
  datumIn(
    req: ResourceRequest,
    address: string,
    options?: { approved?: boolean },
  ): Promise<{
    depot_id: number;
    depot_name: string;
    moment_id: number;
    content_type: string;
    name: string;
    fields: Record<string, unknown>;
  }>;
}
export const DepotAccess = token<DepotAccess>('magazine.DepotAccess');

/** What a datum card menu entry receives. */
export interface DatumMenuTarget {
  /** The datum as listed (envelope and type fields). */
  datum: { id: number; index: number; resource_uri: string; content_type: string; [field: string]: unknown };
  depot: { id: number; resource_uri: string; name: string; content_type: string };
  /** True when the datum cannot be changed: shown at an older moment, or the caller may only read the depot. */
  readOnly: boolean;
}

/** An entry of the datum card menu (spec 000 §2 "Datum card with a menu"), after the Magazine's own. */
export interface DatumCardMenuEntry {
  /** `<plugin-id>.<kebab-name>`. */
  id: string;
  /** Translation key (`ns:key`) of the entry's text. */
  label: string;
  /** A Blueprint icon name. */
  icon?: string;
  /** Entries are sorted by order, then id. */
  order?: number;
  /** Whether the entry shows for this datum and caller (default: always). */
  when?(target: DatumMenuTarget, ctx: MenuItemContext): boolean;
  run(target: DatumMenuTarget): void;
}
export const DatumCardMenuContribution = token<DatumCardMenuContribution>('magazine.DatumCardMenuContribution');
/** Adds entries to the Magazine's datum card (and table row) menu. */
export interface DatumCardMenuContribution {
  registerDatumCardMenu(registry: RegistrySink<DatumCardMenuEntry>): void;
}

/** What a depot action receives: the depot, and the moment when it was chosen in the moment list. */
export interface DepotActionTarget {
  depot: { id: number; resource_uri: string; name: string; content_type: string };
  /** The moment of the moment list's row; undefined for the depot screen's head. */
  moment?: { id: number; resource_uri: string };
  /** True when the caller may only read the depot. */
  readOnly: boolean;
}

/**
 * An action other plugins add to the depot screen (decision 0064): a button in the depot's head
 * (`depot`) and an entry in each moment's menu (`moment`), e.g. the layers' "Show as layer".
 */
export interface DepotActionEntry {
  /** `<plugin-id>.<kebab-name>`. */
  id: string;
  /** Translation key (`ns:key`) of the entry's text. */
  label: string;
  /** A Blueprint icon name. */
  icon?: string;
  /** Entries are sorted by order, then id. */
  order?: number;
  /** Where it shows (default: both). */
  places?: Array<'depot' | 'moment'>;
  /** Whether it shows for this depot (or moment) and caller (default: always). */
  when?(target: DepotActionTarget, ctx: MenuItemContext): boolean;
  run(target: DepotActionTarget): void;
}
export const DepotActionContribution = token<DepotActionContribution>('magazine.DepotActionContribution');
/** Adds actions to the Magazine's depot screen and moment list. */
export interface DepotActionContribution {
  registerDepotActions(registry: RegistrySink<DepotActionEntry>): void;
}
/** What the depot editor's Metadata tab (spec 002 §2) is given. */
export interface DepotMetadataEditorProps {
  /** The depot's address; undefined for a new depot. */
  depot?: string;
  /** The depot's `metadata` as edited (saved with the depot's Save). */
  value: Record<string, unknown> | null;
  readOnly: boolean;
  onChange(metadata: Record<string, unknown> | null): void;
}
/**
 * The editor of the depot editor's Metadata tab. The Magazine binds its key/value editor; a plugin
 * with typed metadata rebinds it (the layers plugin, decision 0063).
 */
export const DepotMetadataEditor = token<(props: DepotMetadataEditorProps) => ReactNode>('magazine.DepotMetadataEditor');

/** What a layer call of the Magazine is about: a depot, optionally at a moment or for one datum. */
export interface DepotLayerTarget {
  depot_id: number;
  depot_name: string;
  /** The depot's type name. */
  content_type: string;
  moment_id?: number;
  datum_id?: number;
  /** The datum's fields, for `{datum}edit_as_layer/`. */
  datum?: Record<string, unknown>;
}

/** The reply of show_as_layer and edit_as_layer (spec 000 §7: status, url, reason). */
export interface DepotLayerReply {
  status: 'ok';
  /** Where the client goes: the layer's editor (edit) or its viewer address (show). */
  url: string;
  layer: string;
  layer_id: number;
  /** True when the call made a new layer, false when the depot already had one. */
  created: boolean;
}

/**
 * The layers side of the Magazine's layer calls (spec 000 §7: `{moment}show_as_layer/`,
 * `{moment}edit_as_layer/`, `{depot}show_as_layer/`, `{depot}edit_as_layer/`,
 * `{datum}edit_as_layer/`, `/api/v1/datum/by-pile/{id}/`), bound by the plugin that owns layers.
 * The Magazine checks that the caller may read the depot (or moment, or datum) first and runs the
 * call in a transaction (`req.manager`); without a binding the calls answer 501 layers_unavailable.
 */
export interface DepotLayers {
  /** The layer that shows the target (found, or made when the depot has none the caller can write). */
  asLayer(req: ResourceRequest, target: DepotLayerTarget, mode: 'show' | 'edit'): Promise<DepotLayerReply>;
  /** The depot of a pile whose layer the caller may read; 404 otherwise. */
  pileDepot(req: ResourceRequest, pileId: number): Promise<number>;
}
export const DepotLayers = token<DepotLayers>('magazine.DepotLayers');

/** A datum write as a DatumWriteGuard is asked about it: written in the write's transaction, not yet committed. */
export interface DatumWriteTarget {
  depot_id: number;
  /** The depot's type name. */
  content_type: string;
  /**
   * The moment whose content the write changed: the open moment of an edit or upload, the new
   * moment of a switchboard write or a restore, the head left after a moment is deleted, an older
   * moment that was approved.
   */
  moment_id: number;
  /** What wrote it (the depot feed's action; `write` for DepotAccess.write and writeStream). */
  action: 'datum_create' | 'datum_update' | 'upload' | 'write' | 'moment_restore' | 'moment_delete' | 'moment_approve';
}

/**
 * A check of the datums written into a depot (decision 0063: the layers plugin refuses a layer
 * entry that makes a metalayer contain itself). The Magazine calls `check` on every path that puts
 * datums into a moment — a datum created or changed (datum routes, DepotAccess.saveDatum), a batch,
 * DepotAccess.write and writeStream (also the embedded database's staged import, in its last
 * transaction), an uploaded file, a restored moment, a deleted moment (another moment's content
 * becomes the head or the latest approved one) and an approved moment that is not the head (its
 * content becomes the latest approved one) — inside the write's transaction, after the datums are
 * written and before it commits, and only for depots whose type is or derives from one of `types`
 * (other depots cost nothing). Deleting a datum, approving the head (its content was checked when
 * it was written) and finalizing a moment add no content and are not checked. The start-up sweep
 * of temporary moments runs without a writer and is not checked either. `req` is the writer's request on that transaction (`req.manager`,
 * `req.user`, `req.lang`). Throw an ApiError to refuse: the whole write rolls back, nothing of it is
 * kept, and the writer gets the error.
 */
export interface DatumWriteGuard {
  /** `<plugin-id>.<kebab-name>`; guards run in id order. */
  id: string;
  /** The depot types it watches (type names; derived types included). */
  types: string[];
  check(req: ResourceRequest, write: DatumWriteTarget): Promise<void>;
}
export const DatumWriteGuardContribution = token<DatumWriteGuardContribution>('magazine.DatumWriteGuardContribution');
/** Adds checks of datum writes (node side). */
export interface DatumWriteGuardContribution {
  registerDatumWriteGuards(registry: RegistrySink<DatumWriteGuard>): void;
}
