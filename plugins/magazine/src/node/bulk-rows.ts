import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import type { EntityManager } from '@werkbank/sdk/node';
import { INSERT_VERSION_RECORDS, type VersionValues } from './datum-store';
import { newDatumIds } from './datum-blocks';
import { extentBox } from '../common/datum-extent';
import { extentCell } from '../common/datum-cell';

/*
 * The rows of bulk writes (decision 0075): new datums' versions as COPY rows (PostgreSQL) or
 * records of one multi-row INSERT (embedded database), made ahead without their datum ids, and
 * the statements that send them with ids drawn as one block.
 */

const NEEDS_COPY_ESCAPE = /[\\\t\n\r]/;

/** Paths deeper than this keep jsonb's order (as the SDK's keyOrderOf). */
const KEY_ORDER_DEPTH = 4;

/**
 * `JSON.stringify(keyOrderOf([data]))` for one datum, built in one walk: the bulk path computes it
 * for every row, and the general function (which joins the orders of many items) costs several
 * times as much there. Null when no object has two keys.
 */
export function keyOrderText(data: Record<string, unknown>): string | null {
  let out = '';
  const visit = (value: unknown, path: string, depth: number) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const keys = Object.keys(value);
    if (keys.length > 1) out += `${out ? ',' : ''}${JSON.stringify(path)}:${JSON.stringify(keys)}`;
    if (depth >= KEY_ORDER_DEPTH) return;
    for (const k of keys) {
      const key = JSON.stringify(k);
      visit((value as Record<string, unknown>)[k], path === '[]' ? `[${key}]` : `${path.slice(0, -1)},${key}]`, depth + 1);
    }
  };
  visit(data, '[]', 0);
  return out ? `{${out}}` : null;
}

/** How bulk writes reach the database: COPY on PostgreSQL, multi-row INSERTs on the embedded one. */
export type BulkPath = 'copy' | 'insert';

/** A pg client as TypeORM's query runner holds it: enough to run a COPY on its connection. */
interface CopyClient {
  query(stream: CopyStreamQuery): CopyStreamQuery;
}

/** A value for COPY's text format: backslash, tab, newline and carriage return escaped; `\N` is NULL. */
function copyText(value: string | null): string {
  if (value === null) return '\\N';
  if (!NEEDS_COPY_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** JSON text for COPY's text format: JSON never holds a raw tab, newline or carriage return, only backslashes. */
function copyJson(json: string): string {
  return json.indexOf('\\') < 0 ? json : json.replace(/\\/g, '\\\\');
}

/** A version's row for COPY from the column after the datum id on, and the bytes it stores. */
export interface CopyRow {
  text: string;
  bytes: number;
}

/**
 * The key order texts of a write's values (keyOrderText), computed once per shape: the values of
 * one import mostly share their keys (a file's rows), and comparing a value's keys with the last
 * value's costs a fraction of building the text. The result is always keyOrderText(data).
 */
export class KeyOrderMemo {
  /** The last shape: per visited object its key count and keys, in the order keyOrderText walks them. */
  private shape: unknown[] = [];
  private last: string | null = null;
  /** The last text as a COPY value (its backslashes escaped), made when first asked for. */
  private lastCopy: string | undefined;
  private known = false;

  text(data: Record<string, unknown>): string | null {
    if (this.known && this.matches(data, 0, 0) === this.shape.length) return this.last;
    this.shape = [];
    this.record(data, 0);
    this.last = keyOrderText(data);
    this.lastCopy = undefined;
    this.known = true;
    return this.last;
  }

  /** The key order as COPY's text format has it: `\N` for none (one string per shape, not per row). */
  copyValue(data: Record<string, unknown>): string {
    const text = this.text(data);
    if (text === null) return '\\N';
    return (this.lastCopy ??= copyJson(text));
  }

  /** Appends the shape of `value` at `depth` (as keyOrderText visits it: objects, not arrays). */
  private record(value: unknown, depth: number): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.shape.push(0);
      return;
    }
    const keys = Object.keys(value);
    this.shape.push(keys.length, ...keys);
    if (depth >= KEY_ORDER_DEPTH) return;
    for (const k of keys) this.record((value as Record<string, unknown>)[k], depth + 1);
  }

  /** Where the shape of `value` ends in the last shape from `at` on; -1 when it differs. */
  private matches(value: unknown, at: number, depth: number): number {
    if (at < 0 || at >= this.shape.length) return -1;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.shape[at] === 0 ? at + 1 : -1;
    const keys = Object.keys(value);
    if (this.shape[at] !== keys.length) return -1;
    let i = at + 1;
    for (const k of keys) if (this.shape[i++] !== k) return -1;
    if (depth >= KEY_ORDER_DEPTH) return i;
    for (const k of keys) {
      i = this.matches((value as Record<string, unknown>)[k], i, depth + 1);
      if (i < 0) return -1;
    }
    return i;
  }
}

/**
 * The COPY row of `v` as addDatums sends it, without its datum id (drawn only when it is sent):
 * made while the previous statement is still running, so this process and the database work at
 * the same time (MomentFiller.prepare). The text is one flat string (joined, not concatenated),
 * so a row waiting for its statement holds no chain of pieces.
 */
export function copyRowOf(
  v: VersionValues,
  depotId: number,
  momentId: number,
  userId: number,
  orders: KeyOrderMemo = new KeyOrderMemo(),
): CopyRow {
  const data = JSON.stringify(v.data);
  const bytes = Buffer.byteLength(data) + (v.blobBytes ?? 0);
  const text = [
    `\t${depotId}\t${momentId}\t`,
    copyJson(data),
    '\t',
    copyText(v.repr),
    '\t',
    copyText(v.name ?? null),
    '\t',
    copyText(v.blob ?? null),
    `\t${bytes}\t${userId}\t`,
    orders.copyValue(v.data),
    '\t',
    extentBox(v.extent ?? null) ?? '\\N',
    '\t',
    extentCell(v.extent) ?? '\\N',
    '\n',
  ].join('');
  return { text, bytes };
}

/** Rows per chunk of a COPY's data: each chunk's text stays small enough for V8's young generation. */
const COPY_CHUNK_ROWS = 200;

/** The COPY data of `rows` with their datum ids in front, in chunks of COPY_CHUNK_ROWS rows. */
function* copyChunks(ids: readonly number[], rows: readonly string[]): Generator<Buffer> {
  for (let start = 0; start < rows.length; start += COPY_CHUNK_ROWS) {
    const end = Math.min(rows.length, start + COPY_CHUNK_ROWS);
    const parts = new Array<string | number>((end - start) * 2);
    for (let i = start; i < end; i++) {
      parts[2 * (i - start)] = ids[i];
      parts[2 * (i - start) + 1] = rows[i];
    }
    yield Buffer.from(parts.join(''));
  }
}

/**
 * Sends COPY rows (copyRowOf's texts, in order) as new datums of the open moment, in one COPY on
 * the transaction's connection, their datum ids drawn as one block first (decision 0075).
 */
export async function copyDatums(m: EntityManager, depotId: number, momentId: number, rows: readonly string[]): Promise<void> {
  if (!rows.length) return;
  const ids = await newDatumIds(m, depotId, momentId, rows.length);
  const client = (await m.queryRunner!.connect()) as CopyClient;
  await pipeline(
    Readable.from(copyChunks(ids, rows), { objectMode: false }),
    client.query(
      copyFrom(
        `COPY magazine_datum_version (datum_id, depot_id, valid_from, data, repr, name, blob, bytes, user_id, key_order, extent, cell) FROM STDIN`,
      ),
    ),
  );
}

/**
 * A value's record for the multi-row INSERT of the embedded database (insertDatumRecords), from
 * its `data` member on: `"datum_id":<id>` is put in front when it is sent.
 */
export function insertRecordOf(v: VersionValues, orders: KeyOrderMemo = new KeyOrderMemo()): CopyRow {
  const data = JSON.stringify(v.data);
  const bytes = Buffer.byteLength(data) + (v.blobBytes ?? 0);
  const text = [
    ',"data":',
    data,
    ',"repr":',
    JSON.stringify(v.repr),
    ',"name":',
    JSON.stringify(v.name ?? null),
    ',"blob":',
    JSON.stringify(v.blob ?? null),
    `,"bytes":${bytes},"key_order":`,
    orders.text(v.data) ?? 'null',
    ',"extent":',
    JSON.stringify(extentBox(v.extent ?? null)),
    ',"cell":',
    extentCell(v.extent) ?? 'null',
    '}',
  ].join('');
  return { text, bytes };
}

/**
 * Inserts records (insertRecordOf's texts, in order) as new datums of the open moment in one
 * multi-row INSERT, their datum ids drawn as one block first (decision 0075).
 */
export async function insertDatumRecords(
  m: EntityManager,
  depotId: number,
  momentId: number,
  userId: number,
  records: readonly string[],
): Promise<void> {
  if (!records.length) return;
  const ids = await newDatumIds(m, depotId, momentId, records.length);
  const parts = new Array<string | number>(records.length * 3);
  for (let i = 0; i < records.length; i++) {
    parts[3 * i] = i ? ',{"datum_id":' : '[{"datum_id":';
    parts[3 * i + 1] = ids[i];
    parts[3 * i + 2] = records[i];
  }
  await m.query(INSERT_VERSION_RECORDS, [depotId, momentId, userId, `${parts.join('')}]`]);
}
