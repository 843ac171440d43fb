import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { DATUM_ENVELOPE_FIELDS, type JsonSchema, type TypeRegistry } from '@werkbank/kernel';
import { datumProblemOf } from './datum-problem';
import type { DatumProblem, DatumValidator } from '@werkbank/sdk/node';
import { isDateTime } from './date-time-format';

/**
 * The default DatumValidator: ajv 8 (JSON Schema draft 2020-12), first error only. Schemas are
 * compiled on first use and cached per schema object, so types that inherit a schema share one
 * compiled check, and a type registered later is picked up without a restart.
 */
export class AjvDatumValidator implements DatumValidator {
  private readonly ajv = new Ajv2020({ allErrors: false, strict: false, verbose: true });
  private readonly compiled = new WeakMap<JsonSchema, ValidateFunction>();

  constructor(private readonly types: TypeRegistry) {
    this.ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  }

  validate(typeName: string, fields: Record<string, unknown>): DatumProblem | undefined {
    if (!this.types.type(typeName))
      return { field: 'content_type', key: 'errors.datum_unknown_type', params: { field: 'content_type', type: typeName } };
    const schema = this.types.schemaOf(typeName);
    if (!schema) return undefined;
    const check = this.compile(typeName, schema);
    const data = withoutEnvelope(fields);
    if (check(data)) return undefined;
    return datumProblemOf(check.errors![0], data, typeName);
  }

  template(typeName: string): Record<string, unknown> {
    return this.types.templateOf(typeName);
  }

  textRepr(typeName: string, fields: Record<string, unknown>): string {
    return this.types.reprOf(typeName, withoutEnvelope(fields));
  }

  private compile(typeName: string, schema: JsonSchema): ValidateFunction {
    let check = this.compiled.get(schema);
    if (!check) {
      try {
        check = this.ajv.compile(schema);
      } catch (e) {
        throw new Error(`The schema of datum type '${typeName}' is not a valid JSON Schema: ${(e as Error).message}`, {
          cause: e,
        });
      }
      this.compiled.set(schema, check);
    }
    return check;
  }
}

/** The fields without the envelope; the fields themselves when they hold none (no copy per datum of a bulk write). */
function withoutEnvelope(fields: Record<string, unknown>): Record<string, unknown> {
  if (!DATUM_ENVELOPE_FIELDS.some((k) => Object.hasOwn(fields, k))) return fields;
  const own = { ...fields };
  for (const k of DATUM_ENVELOPE_FIELDS) delete own[k];
  return own;
}
