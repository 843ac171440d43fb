import { createHash } from 'node:crypto';
import { ApiError, type FieldType } from '@werkbank/sdk/node';

/**
 * Cursors of the resource layer's lists (issue 15 item 4, decision 0080): `after=<token>` starts a
 * page behind the object a previous page ended with. The token is opaque to clients; inside it is
 * the list's order (`name,-created,id`), the last object's value of each order column as the
 * database writes it as text (exact: no rounding of timestamps or floats), and a check sum.
 *
 * A cursor holds no secret and grants nothing: it only says where a page starts, the caller's
 * read permissions narrow the list as always. So it is not signed; it is checked strictly, and a
 * token that is not one the server wrote (edited, cut, for another order) is 400 `invalid_cursor`.
 */
export interface ListCursor {
  /** The canonical order the cursor belongs to, e.g. `name,id` or `-created,-id`. */
  order: string;
  /** One value per order key, in the same order; null where the object had none. */
  values: (string | null)[];
}

const VERSION = 1;
const CHECK_LENGTH = 12;

function check(body: string): string {
  return createHash('sha256').update(`werkbank-cursor:${body}`).digest('base64url').slice(0, CHECK_LENGTH);
}

export function encodeCursor(cursor: ListCursor): string {
  const body = Buffer.from(JSON.stringify([VERSION, cursor.order, cursor.values]), 'utf8').toString('base64url');
  return `${body}.${check(body)}`;
}

export function invalidCursor(): ApiError {
  return ApiError.badRequest('invalid_cursor', 'errors.invalid_cursor', {}, 'after');
}

/** Parses a token; throws 400 invalid_cursor for anything the server did not write. */
export function decodeCursor(token: string): ListCursor {
  if (token.length > 8192) throw invalidCursor();
  const dot = token.lastIndexOf('.');
  if (dot <= 0) throw invalidCursor();
  const body = token.slice(0, dot);
  if (!/^[A-Za-z0-9_-]+$/.test(body) || token.slice(dot + 1) !== check(body)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== VERSION) throw invalidCursor();
  const [, order, values] = parsed as [number, unknown, unknown];
  if (typeof order !== 'string' || !Array.isArray(values)) throw invalidCursor();
  if (!values.every((v) => v === null || typeof v === 'string')) throw invalidCursor();
  return { order, values: values as (string | null)[] };
}

/** timestamptz, timestamp and date as PostgreSQL writes them (DateStyle ISO). */
const DATETIME = /^(\d{4,})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?([+-]\d{2}(?::\d{2}){0,2})?)?( BC)?$/;

/**
 * Whether `value` is a value of `type` as PostgreSQL writes it as text, so the database can read
 * it back as the column's type. Checked before any query: a cursor never makes the database fail.
 */
export function validCursorValue(type: FieldType | 'id', value: string): boolean {
  switch (type) {
    case 'id':
    case 'int':
    case 'ref':
      return /^-?\d{1,19}$/.test(value);
    case 'number':
      return /^(-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|NaN|-?Infinity)$/.test(value);
    case 'bool':
      return value === 'true' || value === 'false';
    case 'datetime': {
      if (value === 'infinity' || value === '-infinity') return true;
      const m = DATETIME.exec(value);
      if (!m) return false;
      const [month, day, hour, minute, second] = [m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
      const year = Number(m[1]);
      const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
      return month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59;
    }
    case 'string':
    case 'text':
      return true;
    case 'json':
      try {
        JSON.parse(value);
        return true;
      } catch {
        return false;
      }
  }
}
