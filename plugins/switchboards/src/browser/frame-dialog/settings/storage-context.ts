/**
 * Where a frame keeps its data (spec 001 §2.6), stored in the frame's `storage_context` as
 * `{kind, ...}`; null (or a missing or unknown kind) is `django`, the default: the items in the
 * database. Other keys of the object are kept when the kind changes.
 */
export const MAIN_STORAGE = ['django', 'deferred', 'parquet'] as const;
/** The choices under "other". */
export const OTHER_STORAGE = ['materialized', 'redis', 'on_demand_deferred', 'lazy'] as const;

export type StorageKind = (typeof MAIN_STORAGE)[number] | (typeof OTHER_STORAGE)[number];

const ALL: readonly string[] = [...MAIN_STORAGE, ...OTHER_STORAGE];

export function storageKindOf(context: Record<string, unknown> | null | undefined): StorageKind {
  const kind = context?.kind;
  return typeof kind === 'string' && ALL.includes(kind) ? (kind as StorageKind) : 'django';
}

/** spec 001 §2.6: frames with deferred or lazy storage (on-demand deferred included) are treated as deferred. */
export function isDeferredStorage(context: Record<string, unknown> | null | undefined): boolean {
  return ['deferred', 'lazy', 'on_demand_deferred'].includes(storageKindOf(context));
}

/** The storage_context to store for `kind`, keeping the other keys of `previous` (when it is an object). */
export function storageContextFor(kind: StorageKind, previous: Record<string, unknown> | null | undefined) {
  const keep = previous && typeof previous === 'object' && !Array.isArray(previous) ? previous : {};
  return { ...keep, kind };
}

/** True for the kinds grouped under "other". */
export const isOtherStorage = (kind: StorageKind) => (OTHER_STORAGE as readonly string[]).includes(kind);
