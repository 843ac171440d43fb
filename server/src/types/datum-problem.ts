import type { ErrorObject } from 'ajv';
import type { DatumProblem } from '@werkbank/sdk/node';

/** JSON types with a message of their own (`errors.datum_not_<type>`). */
const NAMED_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'];

/**
 * The DatumProblem for the first ajv error of `data` (validated with `verbose: true`, so the
 * error carries its parent schema). Every key lives under `errors.` in server/src/i18n; params
 * always hold `field` and `type` (the datum type).
 */
export function datumProblemOf(error: ErrorObject, data: unknown, type: string): DatumProblem {
  const path = readablePath(error.instancePath, data);
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  const problem = (field: string, key: string, extra: Record<string, unknown> = {}): DatumProblem => ({
    field,
    key: `errors.${key}`,
    params: { field, type, ...extra },
  });
  switch (error.keyword) {
    case 'required':
      return problem(join(path, String(params.missingProperty)), 'datum_missing');
    case 'additionalProperties':
      return problem(join(path, String(params.additionalProperty)), 'datum_not_allowed');
    case 'type':
      return typeProblem(path, params.type, problem);
    case 'minItems':
    case 'maxItems':
      if (parent.minItems === parent.maxItems) return problem(path, 'datum_count', { count: params.limit });
      return problem(path, error.keyword === 'minItems' ? 'datum_min_items' : 'datum_max_items', { count: params.limit });
    case 'minLength':
      return problem(path, 'datum_min_length', { count: params.limit });
    case 'maxLength':
      return problem(path, 'datum_max_length', { count: params.limit });
    case 'minimum':
      return problem(path, 'datum_minimum', { limit: params.limit });
    case 'maximum':
      return problem(path, 'datum_maximum', { limit: params.limit });
    case 'pattern':
    case 'format': {
      const examples = parent.examples;
      const example = Array.isArray(examples) && examples.length ? examples[0] : (params.format ?? params.pattern);
      return problem(path, 'datum_form', { example: String(example) });
    }
    case 'enum':
      return problem(path, 'datum_enum', { values: (params.allowedValues as unknown[]).map(show).join(', ') });
    case 'const':
      return problem(path, 'datum_const', { value: show(params.allowedValue) });
    default:
      return problem(path, 'datum_invalid', { keyword: error.keyword });
  }
}

function typeProblem(
  path: string,
  expected: unknown,
  problem: (field: string, key: string, extra?: Record<string, unknown>) => DatumProblem,
): DatumProblem {
  const types = (Array.isArray(expected) ? expected : String(expected).split(',')).map(String);
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length === 1 && nonNull[0] === 'object' && types.includes('null')) return problem(path, 'datum_not_object_or_null');
  if (nonNull.length === 1 && NAMED_TYPES.includes(nonNull[0])) return problem(path, `datum_not_${nonNull[0]}`);
  return problem(path, 'datum_wrong_type', { expected: types.join(', ') });
}

/**
 * A JSON pointer into `data` in a readable form: `/value/2` → `value[2]`,
 * `/fields/0/schema/type` → `fields[0].schema.type`. Segments are indices only where `data` holds an
 * array, so a row column named "2" stays `value.2`.
 */
export function readablePath(pointer: string, data: unknown): string {
  if (!pointer) return '';
  let path = '';
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path = Array.isArray(node) ? `${path}[${segment}]` : join(path, segment);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}

const join = (path: string, name: string): string => (path ? `${path}.${name}` : name);

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
