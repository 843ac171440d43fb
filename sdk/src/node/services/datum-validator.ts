import { token } from '@werkbank/kernel';
/**
 * One thing wrong with a datum. `key` is a server translation (namespace 'server') and `params`
 * fill it, so a caller can reply
 * `ApiError.badRequest('invalid_value', problem.key, problem.params, problem.field)`.
 */
export interface DatumProblem {
  /** Where: `value[2]`, `feature.geometry.coordinates`, `fields[0].schema.type`, or a property name. */
  field: string;
  key: string;
  params: Record<string, unknown>;
}

/**
 * Datum fields against their type (the type's effective schema, template and repr in the
 * TypeRegistry). `fields` is the datum object; its envelope fields (DATUM_ENVELOPE_FIELDS: id,
 * resource_uri, content_type, ...) are ignored. Server-side only (the browser CSP forbids the code
 * generation a schema compiler uses).
 */
export interface DatumValidator {
  /**
   * The first problem of `fields` against the type's schema; undefined when they are valid or no
   * type along the base chain has a schema. An unknown type is a problem with field 'content_type'.
   * Throws when a plugin's schema itself cannot be compiled (a programming error, named by type).
   */
  validate(typeName: string, fields: Record<string, unknown>): DatumProblem | undefined;
  /** The fields of a new datum of the type (a fresh copy); `{}` for an unknown type. */
  template(typeName: string): Record<string, unknown>;
  /** The datum's text representation for search and cards (at most 200 characters; never throws). */
  textRepr(typeName: string, fields: Record<string, unknown>): string;
}
export const DatumValidator = token<DatumValidator>('DatumValidator');
