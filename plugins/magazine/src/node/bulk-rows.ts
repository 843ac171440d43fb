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
 * the same time (MomentFiller.prepare), then packed with the batch's other rows (packRows). The
 * text is joined from its parts, not concatenated: one flat string, which packing copies fastest.
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

/**
 * COPY rows made ahead (copyRowOf's texts, without datum ids), packed into one buffer outside V8's
 * heap: `ends[i]` is where row `i` ends in `data`. Rows wait there for their statement (up to
 * 20,000 of them): as strings they outlived young-generation collections, each of which copied
 * them on into the old generation, and those collections took a fifth of this process's time in
 * an import (decision 0075, night amendment of 2026-11-28). In a buffer only the few objects
 * that hold it survive.
 */
export interface PackedRows {
  data: Buffer;
  ends: Uint32Array;
}

/** Packs rows (strings, in order) into one buffer (PackedRows). */
export function packRows(rows: readonly string[]): PackedRows {
  const text = rows.join('');
  const data = Buffer.from(text);
  const ends = new Uint32Array(rows.length);
  // Text of single-byte characters only (the common case) ends where its characters end.
  const ascii = data.length === text.length;
  let end = 0;
  for (let i = 0; i < rows.length; i++) {
    end += ascii ? rows[i].length : Buffer.byteLength(rows[i]);
    ends[i] = end;
  }
  return { data, ends };
}

/** How many rows `blocks` hold. */
export const packedCount = (blocks: readonly PackedRows[]): number => blocks.reduce((n, b) => n + b.ends.length, 0);

/**
 * Writes the decimal digits of the non-negative integer `n` into `out` at `at`; returns the end.
 * `out.write(String(n), at, 'latin1')` does the same, but cost this process 0.4 s more CPU per
 * 1,000,000 rows in bench/import (a string and a native call per row).
 */
function writeDigits(out: Buffer, at: number, n: number): number {
  let digits = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = n;
  for (let i = at + digits - 1; i >= at; i--) {
    out[i] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/** Bytes the decimal digits of a datum id take at most (ids are PostgreSQL integers). */
const MAX_ID_DIGITS = 10;

/** The COPY data of packed rows with their datum ids (`ids[0]` on) in front, one chunk per block. */
function* copyChunks(ids: readonly number[], blocks: readonly PackedRows[]): Generator<Buffer> {
  let next = 0;
  for (const { data, ends } of blocks) {
    const out = Buffer.allocUnsafe(data.length + ends.length * MAX_ID_DIGITS);
    let at = 0;
    let start = 0;
    for (let i = 0; i < ends.length; i++) {
      at = writeDigits(out, at, ids[next++]);
      at += data.copy(out, at, start, ends[i]);
      start = ends[i];
    }
    yield out.subarray(0, at);
  }
}

/**
 * Sends packed COPY rows (in order) as new datums of the open moment, in one COPY on the
 * transaction's connection, their datum ids drawn as one block first (decision 0075).
 */
export async function copyDatums(
  m: EntityManager,
  depotId: number,
  momentId: number,
  blocks: readonly PackedRows[],
): Promise<void> {
  const count = packedCount(blocks);
  if (!count) return;
  const ids = await newDatumIds(m, depotId, momentId, count);
  const client = (await m.queryRunner!.connect()) as CopyClient;
  await pipeline(
    Readable.from(copyChunks(ids, blocks), { objectMode: false }),
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
