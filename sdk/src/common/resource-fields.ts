/**
 * A resource's fields, declared once (decision 0024): the server validates, stores, searches and
 * serialises by them, the OpenAPI document describes them, a spec compares them with the
 * migrations' columns, and `WireObject` derives the reply type both sides use. Declare them in the
 * plugin's `src/common/` with `defineFields` so the browser shares the type.
 */
export type FieldType = 'string' | 'text' | 'int' | 'number' | 'bool' | 'datetime' | 'json' | 'ref';

/** One field of a resource: how it is stored, validated, searched, filtered and ordered. */
export interface FieldSpec {
  type: FieldType;
  /** Database column; defaults to the field name. */
  column?: string;
  /** Never writable by clients. */
  readOnly?: boolean;
  /** Writable on create only; a later change is refused (e.g. a depot's content_type). */
  createOnly?: boolean;
  /** Must be given on create. */
  required?: boolean;
  nullable?: boolean;
  maxLength?: number;
  /** Allowed values of a string field. */
  enum?: readonly string[];
  /** For 'ref': the kind the stored id points to; serialised as that kind's resource address. */
  refKind?: string;
  /** For 'ref': the base path of the referenced kind (defaults to /api/v1/{refKind}/). */
  refPath?: string;
  /** Matched by ?q= (case-insensitive substring). */
  search?: boolean;
  /** Allowed in ?order_by=. */
  order?: boolean;
  /** Allowed as an exact-match query parameter (?field=value). */
  filter?: boolean;
  /** Value used on create when the field is not given. */
  default?: unknown;
  /** Extra check; returns a translation key (namespace 'server' or `ns:key`) when the value is bad. */
  validate?: (value: unknown) => string | undefined;
  /** Not part of replies (e.g. secrets). */
  hidden?: boolean;
  /**
   * View state, not content (a canvas's pan and zoom): an update that changes only such fields is
   * no event in the activity feed.
   */
  viewState?: boolean;
  /**
   * Not a column: validated like other fields, then handed to hooks.afterWrite (e.g. a user's
   * groups); hooks.serialize adds it to replies.
   */
  virtual?: boolean;
}

/** Keeps the literal types of a field declaration (for WireObject) while checking it against FieldSpec. */
export function defineFields<const F extends Record<string, FieldSpec>>(fields: F): F {
  return fields;
}

type ValueOf<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'int' | 'number' }
    ? number
    : S extends { type: 'bool' }
      ? boolean
      : S extends { type: 'json' }
        ? unknown
        : string;

/** What every object of every kind carries besides its fields (docs/api.md "Objects"). */
export interface WireEnvelope {
  id: number;
  resource_uri: string;
  favored?: boolean;
  /** What the caller may do with the object: 'read', 'write', 'execute'. */
  access?: string[];
  /** Object-level grants, on kinds with object permissions. */
  permissions?: unknown[];
  /** The owner's address, on owned kinds. */
  owner?: string | null;
}

/**
 * An object of a kind as the API replies with it: the envelope plus every field that is not
 * hidden (virtual fields included: hooks add them), `ref` fields as addresses, nullable ones
 * possibly null. Kinds add what their hooks serialise with `&`.
 */
export type WireObject<F extends Record<string, FieldSpec>> = WireEnvelope & {
  -readonly [K in keyof F as F[K] extends { hidden: true } ? never : K]:
    ValueOf<F[K]> | (F[K] extends { nullable: true } ? null : never);
};
