import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { csvImport } from './csv-import';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** A FileAccess over in-memory files keyed by their download_url; others are refused like the server does. */
function fakeFiles(files: Record<string, () => Readable>, sizes: Record<string, number> = {}): FileAccess {
  return {
    open: async (_user, file) => {
      const open = files[String(file.download_url)];
      if (!open) throw ApiError.notFound();
      return { stream: open(), size: sizes[String(file.download_url)] ?? 0, mime_type: 'text/csv', name: String(file.value) };
    },
  };
}

const fileDatum = (name: string) => ({ value: name, size: 1, mime_type: 'text/csv', download_url: `/files/${name}` });
const one = (value: unknown): FrameItems => [{ value }];
const rowsOf = (out: Record<string, FrameItems>) => out.rows.map((r) => r.value);

async function importText(text: string, params: FunctionInputs = {}, ctx: FakeRunContext = fakeRunContext()) {
  return rowsOf(await csvImport(fakeFiles({})).run({ text: one(text), ...params }, ctx));
}

async function importBytes(bytes: Buffer, params: FunctionInputs = {}) {
  const fn = csvImport(fakeFiles({ '/files/a.csv': () => Readable.from([bytes]) }, { '/files/a.csv': bytes.length }));
  return rowsOf(await fn.run({ file: [fileDatum('a.csv')], ...params }, fakeRunContext()));
}

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

describe('csv.import', () => {
  it('reads a header and rows with the defaults of spec 001 §3.4 (sep ;, decimal .)', async () => {
    const rows = await importText('name;height;plz;note\nHaus;12.5;01067;\n"Turm; alt";-3;10115;"sagt ""hallo"""\n');
    assert.deepEqual(rows, [
      { name: 'Haus', height: 12.5, plz: '01067', note: null },
      { name: 'Turm; alt', height: -3, plz: 10115, note: 'sagt "hallo"' },
    ]);
  });

  it('reads CRLF line ends and quoted line breaks, and gives no rows for a header alone or an empty text', async () => {
    assert.deepEqual(await importText('a;b\r\n1;"zwei\r\nZeilen"\r\n3;4\r\n'), [
      { a: 1, b: 'zwei\r\nZeilen' },
      { a: 3, b: 4 },
    ]);
    assert.deepEqual(await importText('a;b\n'), []);
    assert.deepEqual(await importText(''), []);
  });

  it('counts the lines of quoted line breaks in the line numbers of later errors', async () => {
    await rejectsWith(importText('a;b\n1;"x\ny"\n3\n'), 'column_count', { line: 4, found: 1 });
  });

  it('keeps numbers with a decimal comma as text unless decimal is ","', async () => {
    assert.deepEqual(await importText('a;b\n1,5;2\n'), [{ a: '1,5', b: 2 }]);
    assert.deepEqual(await importText('a;b\n1,5;"2,25"\n', { decimal: one(',') }), [{ a: 1.5, b: 2.25 }]);
  });

  it('decodes windows-1252 and iso-8859-1 umlauts from a file', async () => {
    const text = 'Straße;Größe\nMüller-Weg;1,5\nÄußere Gasse;2\n';
    for (const encoding of ['windows-1252', 'iso-8859-1']) {
      const rows = await importBytes(iconv.encode(text, encoding), { encoding: one(encoding), decimal: one(',') });
      assert.deepEqual(rows, [
        { Straße: 'Müller-Weg', Größe: 1.5 },
        { Straße: 'Äußere Gasse', Größe: 2 },
      ]);
    }
  });

  it('reads utf-8 with a byte order mark without putting it into the first column name', async () => {
    const rows = await importBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Ort;n\nKöln;1\n')]));
    assert.deepEqual(rows, [{ Ort: 'Köln', n: 1 }]);
  });

  it('skips rows before the table and a footer after it', async () => {
    const text = 'Export vom 1.1.2026\nQuelle: Amt\nid;wert\n1;a\n2;b\n3;c\nSumme;3\nEnde\n';
    const rows = await importText(text, { skiprows: one(2), skipfooter: one(2) });
    assert.deepEqual(rows, [
      { id: 1, wert: 'a' },
      { id: 2, wert: 'b' },
      { id: 3, wert: 'c' },
    ]);
  });

  it('names columns without a header from names, or column_1, column_2, …', async () => {
    assert.deepEqual(await importText('1;a\n2;b\n', { header: one(false), names: [{ value: 'id' }, { value: 'name' }] }), [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    assert.deepEqual(await importText('1;a\n', { header: one(false) }), [{ column_1: 1, column_2: 'a' }]);
    assert.deepEqual(await importText('x;y\n1;a\n', { names: [{ value: 'id' }, { value: 'name' }] }), [{ id: 1, name: 'a' }]);
  });

  it('reads a transposed table: the first column names the fields, every further column is a row', async () => {
    const rows = await importText('name;Haus;Turm\nhöhe;12;40\n', { transposed: one(true) });
    assert.deepEqual(rows, [
      { name: 'Haus', höhe: 12 },
      { name: 'Turm', höhe: 40 },
    ]);
  });

  it('accepts another separator, including \\t for tab', async () => {
    assert.deepEqual(await importText('a,b\n1,"x,y"\n', { sep: one(',') }), [{ a: 1, b: 'x,y' }]);
    assert.deepEqual(await importText('a\tb\n1\t2\n', { sep: one('\\t') }), [{ a: 1, b: 2 }]);
  });

  it('appends the rows of several files and texts in order', async () => {
    const fn = csvImport(fakeFiles({ '/files/a.csv': () => Readable.from([Buffer.from('n\n1\n')]) }));
    const out = await fn.run({ file: [fileDatum('a.csv')], text: [{ value: 'n\n2\n' }, { value: 'n\n3\n' }] }, fakeRunContext());
    assert.deepEqual(rowsOf(out), [{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('names the line of a row with the wrong number of columns (counted from the start of the file)', async () => {
    await rejectsWith(importText('kopf\na;b\n1;2\n3;4;5\n', { skiprows: one(1) }), 'column_count', {
      line: 4,
      expected: 2,
      found: 3,
      source: 'text[0]',
    });
  });

  it('names the line where a record with a never-closed quote begins, and the line and column of a stray quote', async () => {
    await rejectsWith(importText('a;b\n1;"zwei\n3;4\n'), 'unterminated_quote', { line: 2, end: 3 });
    await rejectsWith(importText('x\na;b\n"1;2\n', { skiprows: one(1) }), 'unterminated_quote', { line: 3 });
    await rejectsWith(importText('a;b\n1;2\n3;"vier"x\n'), 'invalid_quote', { line: 3, column: 2 });
  });

  it('refuses a header or names with an empty or a repeated column name', async () => {
    await rejectsWith(importText('a;;c\n1;2;3\n'), 'empty_column_name', { line: 1, column: 2 });
    await rejectsWith(importText('a;b;a\n1;2;3\n'), 'duplicate_column_name', { name: 'a' });
    await rejectsWith(importText('1;2\n', { header: one(false), names: [{ value: 'a' }, { value: ' ' }] }), 'invalid_name', {
      item: 'names[1]',
    });
    await rejectsWith(importText('1;2\n', { header: one(false), names: [{ value: 'a' }, { value: 'a' }] }), 'duplicate_name');
  });

  it('refuses unknown settings and a missing input with reasons', async () => {
    await rejectsWith(importText('a\n1\n', { encoding: one('utf-16') }), 'invalid_choice', { port: 'encoding' });
    await rejectsWith(importText('a\n1\n', { sep: one(';;') }), 'invalid_separator');
    await rejectsWith(importText('a\n1\n', { decimal: one(';') }), 'invalid_choice', { port: 'decimal' });
    await rejectsWith(importText('a\n1\n', { skipfooter: one(-1) }), 'invalid_count', { port: 'skipfooter' });
    await rejectsWith(csvImport(fakeFiles({})).run({}, fakeRunContext()), 'no_csv_input');
  });

  it('fails with file_unreadable for a file the user may not read (or a hand-made datum)', async () => {
    const fn = csvImport(fakeFiles({}));
    await rejectsWith(fn.run({ file: [fileDatum('fremd.csv')] }, fakeRunContext()), 'file_unreadable', {
      item: 'file[0]',
      name: 'fremd.csv',
    });
  });

  it('parses a 200,000-row file produced chunk by chunk through the stream', async () => {
    const N = 200_000;
    let produced = 0;
    function* lines() {
      yield Buffer.from('id;name;wert\n');
      for (let start = 0; start < N; start += 1000) {
        let chunk = '';
        for (let i = start; i < start + 1000; i++) chunk += `${i};Zeile ${i};${i},5\n`;
        produced += 1000;
        yield Buffer.from(chunk);
      }
    }
    const fn = csvImport(fakeFiles({ '/files/big.csv': () => Readable.from(lines()) }, { '/files/big.csv': 6_000_000 }));
    const ctx = fakeRunContext();
    const out = await fn.run({ file: [fileDatum('big.csv')], decimal: one(',') }, ctx);
    assert.equal(produced, N);
    assert.equal(out.rows.length, N);
    assert.deepEqual(out.rows[0].value, { id: 0, name: 'Zeile 0', wert: 0.5 });
    assert.deepEqual(out.rows[N - 1].value, { id: N - 1, name: `Zeile ${N - 1}`, wert: N - 1 + 0.5 });
    assert.ok(ctx.progresses.length > 2, 'progress is reported while reading');
    assert.equal(ctx.progresses.at(-1), 1);
    assert.ok(
      ctx.progresses.every((p, i) => i === 0 || p >= ctx.progresses[i - 1]),
      'progress never goes back',
    );
  });

  it('names the broken row of a file still being read, not the end of the reading', async () => {
    // A file stream is still open when the row fails: closing it must not hide the failure.
    const dir = mkdtempSync(join(tmpdir(), 'csv-import-'));
    try {
      writeFileSync(join(dir, 'a.csv'), 'a;b\n1;2\n3;4;5\n6;7\n');
      const fn = csvImport(fakeFiles({ '/files/a.csv': () => createReadStream(join(dir, 'a.csv')) }));
      await rejectsWith(fn.run({ file: [fileDatum('a.csv')] }, fakeRunContext()), 'column_count', {
        source: 'a.csv',
        line: 3,
        expected: 2,
        found: 3,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops reading when the run is aborted', async () => {
    function* endless() {
      yield Buffer.from('n\n');
      for (;;) yield Buffer.from('1\n'.repeat(1000));
    }
    const fn = csvImport(fakeFiles({ '/files/endless.csv': () => Readable.from(endless()) }));
    const ctx = fakeRunContext();
    setTimeout(() => ctx.controller.abort(new Error('stopped')), 50);
    await assert.rejects(fn.run({ file: [fileDatum('endless.csv')] }, ctx), /stopped/);
  });
});
