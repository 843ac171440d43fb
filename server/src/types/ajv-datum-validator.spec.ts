import assert from 'node:assert/strict';
import { TypeRegistry } from '@werkbank/kernel';
import en from '../i18n/en.json' with { type: 'json' };
import de from '../i18n/de.json' with { type: 'json' };
import { AjvDatumValidator } from './ajv-datum-validator';
import { readablePath } from './datum-problem';
import { isDateTime } from './date-time-format';

const fields = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

describe('AjvDatumValidator', () => {
  let types: TypeRegistry;
  let validator: AjvDatumValidator;

  afterEach(() => types.dispose());

  beforeEach(() => {
    types = new TypeRegistry();
    types.add({ id: 't.number', name: 'number', schema: fields({ value: { type: 'number' } }), template: { value: 0 } });
    types.add({ id: 't.float', name: 'float', base: 'number' });
    types.add({
      id: 't.box',
      name: 'box',
      schema: fields({ value: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 } }),
      repr: (f) => (f.value as number[]).join(', '),
    });
    types.add({
      id: 't.shape',
      name: 'shape',
      schema: fields(
        {
          shape: {
            type: 'object',
            required: ['kind', 'points'],
            properties: {
              kind: { enum: ['line', 'ring'] },
              points: { type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2 } },
              colour: { type: 'string', pattern: '^#[0-9a-f]{6}$', examples: ['#ff8800'] },
              geometry: { type: ['object', 'null'] },
              size: { type: 'integer', minimum: 1 },
              at: { type: 'string', format: 'date-time' },
              marker: { const: 'Feature' },
            },
          },
          row: { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } },
        },
        ['shape'],
      ),
    });
    types.add({ id: 't.free', name: 'free' });
    validator = new AjvDatumValidator(types);
  });

  const problem = (type: string, f: Record<string, unknown>) => validator.validate(type, f);
  const shape = (s: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    problem('shape', { shape: { kind: 'line', points: [[0, 0]], ...s }, ...extra });

  it('accepts valid fields and ignores the envelope fields', () => {
    assert.equal(problem('number', { value: 3 }), undefined);
    assert.equal(
      problem('number', { value: 3, id: 1, index: 1, resource_uri: '/x/', content_type: 'number', text_repr: '3', version: 2 }),
      undefined,
    );
  });

  it('names an unknown type as a problem of content_type', () => {
    assert.deepEqual(problem('nonsense', { value: 1 }), {
      field: 'content_type',
      key: 'errors.datum_unknown_type',
      params: { field: 'content_type', type: 'nonsense' },
    });
  });

  it('accepts anything for a type without a schema along its chain', () => {
    assert.equal(problem('free', { whatever: [1] }), undefined);
  });

  it('checks a type without a schema of its own against its base’s schema', () => {
    assert.equal(problem('float', { value: 1.5 }), undefined);
    assert.deepEqual(problem('float', { value: 'x' }), {
      field: 'value',
      key: 'errors.datum_not_number',
      params: { field: 'value', type: 'float' },
    });
  });

  it('names a missing field and an unexpected one', () => {
    assert.deepEqual(problem('number', {}), {
      field: 'value',
      key: 'errors.datum_missing',
      params: { field: 'value', type: 'number' },
    });
    const typo = problem('number', { value: 1, vaule: 2 });
    assert.equal(typo?.field, 'vaule');
    assert.equal(typo?.key, 'errors.datum_not_allowed');
    assert.equal(shape({ kind: undefined })?.field, 'shape.kind');
  });

  it('says how many entries a list must have, and where an entry is wrong', () => {
    assert.deepEqual(problem('box', { value: [1, 2, 3] })?.params, { field: 'value', type: 'box', count: 4 });
    assert.equal(problem('box', { value: [1, 2, 3] })?.key, 'errors.datum_count');
    assert.equal(problem('box', { value: [1, 2, 'x', 4] })?.field, 'value[2]');
    const short = shape({ points: [[0, 0], [1]] });
    assert.equal(short?.field, 'shape.points[1]');
    assert.equal(short?.key, 'errors.datum_min_items');
  });

  it('maps the other keywords to their own keys', () => {
    assert.equal(shape({ kind: 'arc' })?.key, 'errors.datum_enum');
    assert.equal(shape({ kind: 'arc' })?.params.values, 'line, ring');
    assert.deepEqual(shape({ colour: 'red' })?.params, { field: 'shape.colour', type: 'shape', example: '#ff8800' });
    assert.equal(shape({ colour: 'red' })?.key, 'errors.datum_form');
    assert.equal(shape({ geometry: 'x' })?.key, 'errors.datum_not_object_or_null');
    assert.equal(shape({ size: 0 })?.key, 'errors.datum_minimum');
    assert.equal(shape({ size: 1.5 })?.key, 'errors.datum_not_integer');
    assert.equal(shape({ at: 'yesterday' })?.key, 'errors.datum_form');
    assert.equal(shape({ marker: 'x' })?.params.value, 'Feature');
    assert.equal(shape({}, { row: { a: true } })?.key, 'errors.datum_wrong_type');
    assert.equal(shape({}, { row: { a: true } })?.params.expected, 'string, number, null');
  });

  it('has a German and an English message for every key it gives', () => {
    const keys = [
      'datum_unknown_type',
      'datum_missing',
      'datum_not_allowed',
      'datum_not_string',
      'datum_not_number',
      'datum_not_integer',
      'datum_not_boolean',
      'datum_not_object',
      'datum_not_array',
      'datum_not_object_or_null',
      'datum_wrong_type',
      'datum_count',
      'datum_min_items',
      'datum_max_items',
      'datum_min_length',
      'datum_max_length',
      'datum_minimum',
      'datum_maximum',
      'datum_form',
      'datum_enum',
      'datum_const',
      'datum_invalid',
    ];
    for (const k of keys) {
      assert.match((en.errors as Record<string, string>)[k] ?? '', /\{\{(field|type)\}\}/, `en ${k}`);
      assert.match((de.errors as Record<string, string>)[k] ?? '', /\{\{(field|type)\}\}/, `de ${k}`);
    }
  });

  it('hands out templates and text representations along the base chain', () => {
    assert.deepEqual(validator.template('float'), { value: 0 });
    assert.deepEqual(validator.template('nonsense'), {});
    assert.equal(validator.textRepr('box', { value: [1, 2, 3, 4], resource_uri: '/x/' }), '1, 2, 3, 4');
    assert.equal(validator.textRepr('float', { value: 2.5 }), '2.5');
  });

  it('names the type whose schema cannot be compiled', () => {
    types.add({ id: 't.bad', name: 'bad', schema: { type: 'no-such-type' } });
    assert.throws(() => validator.validate('bad', {}), /datum type 'bad'/);
  });

  it('checks a type registered after the validator was made', () => {
    types.add({ id: 't.late', name: 'late', schema: fields({ on: { type: 'boolean' } }) });
    assert.equal(problem('late', { on: 'yes' })?.key, 'errors.datum_not_boolean');
  });
});

describe('readablePath', () => {
  it('writes array indices in brackets and properties with dots', () => {
    const data = { fields: [{ schema: { type: 'x' } }], value: { 2: 'a' } };
    assert.equal(readablePath('/fields/0/schema/type', data), 'fields[0].schema.type');
    assert.equal(readablePath('/value/2', data), 'value.2', 'an object key that looks like a number');
    assert.equal(readablePath('/value/2', { value: [0, 0, 0] }), 'value[2]');
    assert.equal(readablePath('/a~1b', { 'a/b': 1 }), 'a/b');
    assert.equal(readablePath('', data), '');
  });
});

describe('isDateTime', () => {
  it('accepts ISO 8601 dates with a time, with or without seconds and offset', () => {
    for (const s of ['2026-05-01T12:00:00Z', '2026-05-01T12:00', '2026-05-01 12:00:00.5+02:00', '2024-02-29T00:00:00Z'])
      assert.equal(isDateTime(s), true, s);
  });

  it('refuses other text, dates without a time and days the month does not have', () => {
    for (const s of ['yesterday', '2026-05-01', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-05-01T25:00:00Z'])
      assert.equal(isDateTime(s), false, s);
  });
});
