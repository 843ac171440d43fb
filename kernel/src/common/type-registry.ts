import { Registry, type RegistrySink } from './registry';
import { token } from './contribution-provider';
import { markOwned } from './disposable';

/** A JSON Schema (draft 2020-12) as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

/** The fields of a datum: the datum object without its envelope (DATUM_ENVELOPE_FIELDS). */
export type DatumFields = Record<string, unknown>;

/** The fields the Magazine keeps around a datum's own fields; type schemas never describe them. */
export const DATUM_ENVELOPE_FIELDS: readonly string[] = [
  'id',
  'index',
  'resource_uri',
  'content_type',
  'moment_id',
  'version',
  'depot',
  'text_repr',
];

/** The longest text representation `reprOf` returns (search and cards show it). */
export const TEXT_REPR_MAX = 200;

/**
 * A datum type: its name and its base type (spec 000 §3 "Type"). `schema`, `template` and `repr`
 * are inherited from the nearest base that has them (see TypeRegistry.schemaOf and friends).
 */
export interface DatumTypeDescriptor {
  id: string;
  name: string;
  base?: string;
  /**
   * The datum's own fields as a JSON Schema (draft 2020-12, no `$id`, local `$ref`s only): the
   * datum object without the envelope fields id, index, resource_uri, content_type, moment_id,
   * version, depot and text_repr. The server validates every saved datum against it.
   */
  schema?: JsonSchema;
  /** The fields of a new datum of this type, e.g. `{value: ''}`; should pass `schema`. */
  template?: DatumFields;
  /** Text representation for search and cards; may assume `fields` passed `schema`. */
  repr?: (fields: DatumFields) => string;
}

/** The type hierarchy, shared by both sides (STYLE §6: one assignability function). */
/** The type every type is assignable to (generic function ports). */
export const ANY_TYPE = 'any';

export class TypeRegistry extends Registry<DatumTypeDescriptor> {
  private readonly byName = new Map<string, DatumTypeDescriptor>();

  constructor() {
    super('datum type');
    // Its own emitter's subscription: it ends with the registry.
    markOwned(
      this.onDidChange(() => {
        this.byName.clear();
        for (const t of this.all()) this.byName.set(t.name, t);
      }),
    );
  }

  type(name: string): DatumTypeDescriptor | undefined {
    return this.byName.get(name);
  }

  /** The type itself and its bases, most specific first. Stops at unknown types and cycles. */
  baseChain(name: string): string[] {
    const chain: string[] = [];
    let current: string | undefined = name;
    while (current && !chain.includes(current)) {
      chain.push(current);
      current = this.byName.get(current)?.base;
    }
    return chain;
  }

  /**
   * True when `from` equals `to` or derives from it through the base chain. Every type is
   * assignable to `any` (the type of generic function ports).
   */
  isAssignable(from: string, to: string): boolean {
    return to === ANY_TYPE || this.baseChain(from).includes(to);
  }

  /** The schema of the type or of its nearest base that has one; undefined when none has. */
  schemaOf(name: string): JsonSchema | undefined {
    return this.nearest(name, 'schema');
  }

  /** A fresh copy of the template of the type or its nearest base that has one; `{}` otherwise. */
  templateOf(name: string): DatumFields {
    return structuredClone(this.nearest(name, 'template') ?? {});
  }

  /**
   * The text representation of a datum of the type: the nearest `repr` along the base chain, or
   * `defaultRepr`. Never throws (a failing repr falls back to `defaultRepr`); at most
   * TEXT_REPR_MAX characters.
   */
  reprOf(name: string, fields: DatumFields): string {
    const repr = this.nearest(name, 'repr');
    let text: string;
    try {
      text = repr ? String(repr(fields)) : defaultRepr(fields);
    } catch {
      text = defaultRepr(fields);
    }
    return cut(text);
  }

  private nearest<K extends 'schema' | 'template' | 'repr'>(name: string, key: K): DatumTypeDescriptor[K] {
    for (const n of this.baseChain(name)) {
      const value = this.byName.get(n)?.[key];
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

/** Short text of `fields.value` (strings as they are, anything else as JSON); the fields' JSON when there is no value. */
export function defaultRepr(fields: DatumFields): string {
  const value = 'value' in fields ? fields.value : fields;
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

function cut(text: string): string {
  return text.length > TEXT_REPR_MAX ? `${text.slice(0, TEXT_REPR_MAX - 1)}…` : text;
}

/** Datum types contributed by plugins; collected on both sides into a TypeRegistry. */
export const DatumTypeContribution = token<DatumTypeContribution>('DatumTypeContribution');
export interface DatumTypeContribution {
  registerDatumTypes(registry: RegistrySink<DatumTypeDescriptor>): void;
}

/** The datum types contributed by plugins (base chains, schemas, assignability), on both sides. */
export const TypeHierarchy = token<TypeRegistry>('TypeHierarchy');
