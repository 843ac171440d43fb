import assert from 'node:assert/strict';
import { ApiError, type FieldSpec } from '@werkbank/sdk/node';
import { decodeField, decodeFilter, encodeField } from './field-codec';

/** Asserts that `fn` is refused with 400 invalid_field naming `field`, with this key and these params. */
function refused(fn: () => unknown, field: string, key: string, params: Record<string, unknown> = {}): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, 'invalid_field');
    assert.equal(err.key, key);
    assert.equal(err.field, field);
    assert.deepEqual(err.params, { field, ...params });
    return true;
  });
}

const depotRef: FieldSpec = { type: 'ref', refKind: 'depot' };

describe('field codec: client values into column values', () => {
  it('keeps strings and refuses other types, too long ones, blank required ones and values outside the enum', () => {
    const spec: FieldSpec = { type: 'string', maxLength: 5, required: true, enum: ['alpha', 'beta', 'gamma'] };
    assert.equal(decodeField('name', spec, 'beta'), 'beta');
    assert.equal(decodeField('name', { type: 'string', maxLength: 5 }, 'fives'), 'fives', 'exactly the maximum length');
    refused(() => decodeField('name', { type: 'string', maxLength: 5 }, 'sixsix'), 'name', 'errors.field_too_long', { max: 5 });
    refused(() => decodeField('name', spec, 42), 'name', 'errors.field_type', { type: 'string' });
    refused(() => decodeField('name', { type: 'text', required: true }, '   '), 'name', 'errors.field_required');
    refused(() => decodeField('name', spec, 'delta'), 'name', 'errors.field_enum', { values: 'alpha, beta, gamma' });
  });

  it('takes whole numbers for int, finite numbers for number, booleans for bool, and nothing else', () => {
    assert.equal(decodeField('n', { type: 'int' }, -3), -3);
    refused(() => decodeField('n', { type: 'int' }, 1.5), 'n', 'errors.field_type', { type: 'integer' });
    refused(() => decodeField('n', { type: 'int' }, '3'), 'n', 'errors.field_type', { type: 'integer' });

    assert.equal(decodeField('x', { type: 'number' }, 2.5), 2.5);
    refused(() => decodeField('x', { type: 'number' }, Infinity), 'x', 'errors.field_type', { type: 'number' });
    refused(() => decodeField('x', { type: 'number' }, '2.5'), 'x', 'errors.field_type', { type: 'number' });

    assert.equal(decodeField('b', { type: 'bool' }, false), false);
    refused(() => decodeField('b', { type: 'bool' }, 'true'), 'b', 'errors.field_type', { type: 'boolean' });
    refused(() => decodeField('b', { type: 'bool' }, 0), 'b', 'errors.field_type', { type: 'boolean' });
  });

  it('reads dates from ISO text and refuses other text and non-text', () => {
    const d = decodeField('expires', { type: 'datetime' }, '2026-11-27T07:13:00.000Z');
    assert.ok(d instanceof Date);
    assert.equal(d.toISOString(), '2026-11-27T07:13:00.000Z');
    refused(() => decodeField('expires', { type: 'datetime' }, 'next tuesday'), 'expires', 'errors.field_type', {
      type: 'date-time',
    });
    refused(() => decodeField('expires', { type: 'datetime' }, 1764227580000), 'expires', 'errors.field_type', {
      type: 'date-time',
    });
    refused(() => decodeField('expires', { type: 'datetime' }, ''), 'expires', 'errors.field_type', { type: 'date-time' });
  });

  it('stores an empty or blank date of a nullable field as null (spec 002 §5), and null where null is allowed', () => {
    const expires: FieldSpec = { type: 'datetime', nullable: true };
    assert.equal(decodeField('expires', expires, ''), null);
    assert.equal(decodeField('expires', expires, '   '), null);
    assert.equal(decodeField('expires', expires, null), null);
    assert.equal(decodeField('note', { type: 'string', nullable: true }, null), null);
    refused(() => decodeField('note', { type: 'string' }, null), 'note', 'errors.field_not_nullable');
  });

  it('keeps empty and other text of nullable non-date fields as sent', () => {
    assert.equal(decodeField('note', { type: 'string', nullable: true }, ''), '');
    assert.equal(decodeField('note', { type: 'string', nullable: true }, 'kept'), 'kept');
    assert.equal(decodeField('count', { type: 'int', nullable: true }, 0), 0);
  });

  it('stores json as its text and refs as the id, by address or bare id', () => {
    assert.equal(decodeField('style', { type: 'json' }, { colour: 'red', widths: [1, 2] }), '{"colour":"red","widths":[1,2]}');
    assert.equal(decodeField('depot', depotRef, '/api/v1/depot/17/'), 17);
    assert.equal(decodeField('depot', depotRef, 17), 17);
    assert.equal(decodeField('folder', { type: 'ref', refPath: '/api/v1/magazine/folder/' }, '/api/v1/magazine/folder/4/'), 4);
    refused(() => decodeField('depot', depotRef, '/api/v1/layer/17/'), 'depot', 'errors.field_ref', { path: '/api/v1/depot/' });
    refused(() => decodeField('depot', depotRef, 'seventeen'), 'depot', 'errors.field_ref', { path: '/api/v1/depot/' });
  });

  it('refuses with the key the field’s own check returns', () => {
    const spec: FieldSpec = { type: 'string', validate: (v) => (v === 'bad' ? 'errors.not_this_one' : undefined) };
    assert.equal(decodeField('name', spec, 'good'), 'good');
    refused(() => decodeField('name', spec, 'bad'), 'name', 'errors.not_this_one');
  });
});

describe('field codec: stored values into reply values', () => {
  it('replies null for absent values', () => {
    assert.equal(encodeField({ type: 'string' }, null), null);
    assert.equal(encodeField({ type: 'string' }, undefined), null);
  });

  it('replies dates as ISO text, whether the driver gave a Date or text', () => {
    assert.equal(encodeField({ type: 'datetime' }, new Date('2026-11-27T07:13:00Z')), '2026-11-27T07:13:00.000Z');
    assert.equal(encodeField({ type: 'datetime' }, '2026-11-27 08:13:00+01'), '2026-11-27T07:13:00.000Z');
  });

  it('replies refs as the referenced object’s address', () => {
    assert.equal(encodeField(depotRef, 17), '/api/v1/depot/17/');
    assert.equal(encodeField({ type: 'ref', refPath: '/api/v1/magazine/folder/' }, 4), '/api/v1/magazine/folder/4/');
  });

  it('replies numbers as numbers, also where the driver gives text (bigint, numeric)', () => {
    assert.equal(encodeField({ type: 'int' }, '12'), 12);
    assert.equal(encodeField({ type: 'number' }, '2.5'), 2.5);
    assert.equal(encodeField({ type: 'string' }, '2.5'), '2.5');
  });
});

describe('field codec: query-string filters', () => {
  it('reads numbers and refuses blank or non-numeric text', () => {
    assert.equal(decodeFilter('size', { type: 'number' }, '2.5'), 2.5);
    assert.equal(decodeFilter('size', { type: 'int' }, '-4'), -4);
    for (const raw of ['', ' ', 'abc', 'Infinity']) {
      refused(() => decodeFilter('size', { type: 'number' }, raw), 'size', 'errors.field_type', { type: 'number' });
    }
  });

  it('reads true and false and refuses other words', () => {
    assert.equal(decodeFilter('public', { type: 'bool' }, 'true'), true);
    assert.equal(decodeFilter('public', { type: 'bool' }, 'false'), false);
    for (const raw of ['', 'yes', '1', 'TRUE']) {
      refused(() => decodeFilter('public', { type: 'bool' }, raw), 'public', 'errors.field_type', { type: 'boolean' });
    }
  });

  it('reads refs by address or id and refuses others naming the expected address', () => {
    assert.equal(decodeFilter('depot', depotRef, '/api/v1/depot/3/'), 3);
    assert.equal(decodeFilter('depot', depotRef, '3'), 3);
    refused(() => decodeFilter('depot', depotRef, 'x'), 'depot', 'errors.field_ref', { path: '/api/v1/depot/' });
  });

  it('reads dates as the field does and keeps text as sent', () => {
    const d = decodeFilter('created', { type: 'datetime' }, '2026-11-27T07:13:00Z');
    assert.ok(d instanceof Date);
    assert.equal(d.toISOString(), '2026-11-27T07:13:00.000Z');
    refused(() => decodeFilter('created', { type: 'datetime' }, 'soon'), 'created', 'errors.field_type', { type: 'date-time' });
    assert.equal(decodeFilter('intent', { type: 'string' }, ' system '), ' system ');
  });
});
