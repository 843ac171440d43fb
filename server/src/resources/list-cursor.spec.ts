import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ApiError } from '@werkbank/sdk/node';
import { decodeCursor, encodeCursor, validCursorValue } from './list-cursor';

function refused(token: string): void {
  assert.throws(
    () => decodeCursor(token),
    (err: unknown) => err instanceof ApiError && err.status === 400 && err.code === 'invalid_cursor' && err.field === 'after',
    token,
  );
}

describe('list cursor codec', () => {
  it('gives back the order and values it was made of, nulls and any text included', () => {
    const cursor = { order: 'name,-created,id', values: ['Ärger "quoted" \\ 🚀', null, '42'] };
    const token = encodeCursor(cursor);
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'safe in an address without escaping');
    assert.deepEqual(decodeCursor(token), cursor);
  });

  it('refuses a token with a changed body, a changed or missing check sum, or a cut one', () => {
    const token = encodeCursor({ order: 'name,id', values: ['a', '1'] });
    const [body, sum] = token.split('.');
    refused(`${body.slice(0, -2)}${body.endsWith('AA') ? 'BB' : 'AA'}.${sum}`);
    refused(`${body}.${sum.slice(1)}x`);
    refused(body);
    refused(`${body}.`);
    refused(token.slice(0, token.length - 3));
    refused('');
    refused('.');
    refused(`${'a'.repeat(9000)}.x`);
  });

  it('accepts tokens up to 8192 characters and refuses longer ones, also when well-formed', () => {
    const sized = (length: number) => {
      for (let n = 6000; n < 6200; n++) {
        const token = encodeCursor({ order: 'name,id', values: ['x'.repeat(n), '1'] });
        if (token.length >= length) return token;
      }
      throw new Error('no token of that size');
    };
    const longest = sized(8192);
    assert.equal(longest.length, 8192);
    assert.deepEqual(decodeCursor(longest).values[1], '1');
    refused(sized(8193));
  });

  it('refuses well-formed check sums over a body that is not a cursor', () => {
    // Bodies the server never writes, with the check sum the server would compute for them.
    const sign = (content: unknown) => {
      const body = Buffer.from(JSON.stringify(content)).toString('base64url');
      return `${body}.${createHash('sha256').update(`werkbank-cursor:${body}`).digest('base64url').slice(0, 12)}`;
    };
    // The check sum as the codec computes it: a valid shape with it is accepted.
    assert.deepEqual(decodeCursor(sign([1, 'name,id', ['a', null]])), { order: 'name,id', values: ['a', null] });
    refused(sign([2, 'name,id', ['a', '1']]));
    refused(sign([1, 'name,id', [1, 2]]));
    refused(sign({ order: 'name' }));
    refused(sign([1, 'name,id']));
    refused(sign([1, 'name,id', ['a', null], 'more']));
    refused(sign([1, 'name,id', ['a', 2]]));
    // Characters outside the token alphabet, which a base64 decoder would skip, are refused.
    const good = sign([1, 'name,id', ['a', null]]).split('.')[0];
    const signedBody = (body: string) =>
      `${body}.${createHash('sha256').update(`werkbank-cursor:${body}`).digest('base64url').slice(0, 12)}`;
    refused(signedBody(`*${good}`));
    refused(signedBody(`${good}*`));
    refused(`${Buffer.from('not json').toString('base64url')}.abc`);
  });

  it('accepts values as PostgreSQL writes them as text, and refuses others by field type', () => {
    const good: Array<[Parameters<typeof validCursorValue>[0], string]> = [
      ['id', '17'],
      ['int', '-3'],
      ['ref', '9007199254740993'],
      ['number', '1.5e-7'],
      ['number', '-0.1'],
      ['number', '12'],
      ['number', '12.5'],
      ['number', '1.25'],
      ['number', '.25'],
      ['number', '1e10'],
      ['number', '2.5E-10'],
      ['number', 'NaN'],
      ['number', 'Infinity'],
      ['number', '-Infinity'],
      ['bool', 'true'],
      ['bool', 'false'],
      ['datetime', '2026-11-27 07:13:00.123456+00'],
      ['datetime', '2026-01-01 00:00:00+00'],
      ['datetime', '2026-12-31 23:59:59+00'],
      ['datetime', '-infinity'],
      ['datetime', '2024-02-29 23:59:59+05:30'],
      ['datetime', 'infinity'],
      ['datetime', '2026-11-27'],
      ['datetime', '2026-11-27 07:13:00.5'],
      ['string', ''],
      ['text', 'anything at all'],
      ['json', '{"a": [1, 2]}'],
    ];
    for (const [type, value] of good) assert.equal(validCursorValue(type, value), true, `${type} ${value}`);
    const bad: Array<[Parameters<typeof validCursorValue>[0], string]> = [
      ['id', '1.5'],
      ['int', 'x'],
      ['ref', ''],
      ['number', '1,5'],
      ['bool', 'yes'],
      ['datetime', '2026-02-31 10:00:00+00'],
      ['datetime', '2023-02-29 10:00:00+00'],
      ['datetime', '2026-13-01 10:00:00+00'],
      ['datetime', '2026-01-01 24:00:00+00'],
      ['datetime', '2026-00-10 10:00:00+00'],
      ['datetime', '2026-05-00 10:00:00+00'],
      ['datetime', '2026-01-01 10:60:00+00'],
      ['datetime', '2026-01-01 10:00:60+00'],
      ['datetime', '2026-01-01T10:00:00Z'],
      ['datetime', '2026-02-30'],
      ['datetime', "2026-01-01 10:00:00+00'; DROP TABLE x; --"],
      ['json', '{'],
    ];
    for (const [type, value] of bad) assert.equal(validCursorValue(type, value), false, `${type} ${value}`);
  });
});
