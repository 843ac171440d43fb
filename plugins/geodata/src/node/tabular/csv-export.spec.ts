import assert from 'node:assert/strict';
import type { ApiError, FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { csvExport } from './csv-export';
import { csvImport } from './csv-import';
import { fakeRunContext } from '@werkbank/testing/node';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

const one = (value: unknown): FrameItems => [{ value }];
const rows = (...values: Record<string, unknown>[]): FrameItems => values.map((value) => ({ value }));

async function exportCsv(items: FrameItems, params: FunctionInputs = {}): Promise<string> {
  const out = await csvExport.run({ rows: items, ...params }, fakeRunContext());
  assert.equal(out.csv.length, 1);
  return out.csv[0].value as string;
}

describe('csv.export', () => {
  it('writes a header and rows with the defaults of spec 001 §3.5 (sep ;, decimal ,, CRLF)', async () => {
    const csv = await exportCsv(rows({ name: 'Haus', höhe: 12.5, ok: true }, { name: 'Turm', höhe: 40, ok: null }));
    assert.equal(csv, 'name;höhe;ok\r\nHaus;12,5;true\r\nTurm;40;\r\n');
  });

  it('quotes cells holding the separator, quotes or line breaks', async () => {
    const csv = await exportCsv(rows({ a: 'x;y', b: 'sagt "hallo"', c: 'zwei\nZeilen' }));
    assert.equal(csv, 'a;b;c\r\n"x;y";"sagt ""hallo""";"zwei\nZeilen"\r\n');
  });

  it('takes every column of every row, in the order they first appear', async () => {
    const csv = await exportCsv(rows({ a: 1 }, { b: 2, a: 3 }), { decimal: one('.') });
    assert.equal(csv, 'a;b\r\n1;\r\n3;2\r\n');
  });

  it('writes without a header, transposed, and with another separator', async () => {
    const data = rows({ name: 'Haus', n: 1.5 }, { name: 'Turm', n: 2 });
    assert.equal(await exportCsv(data, { header: one(false) }), 'Haus;1,5\r\nTurm;2\r\n');
    assert.equal(await exportCsv(data, { transposed: one(true) }), 'name;Haus;Turm\r\nn;1,5;2\r\n');
    assert.equal(await exportCsv(data, { sep: one(','), decimal: one('.') }), 'name,n\r\nHaus,1.5\r\nTurm,2\r\n');
  });

  it('gives back the same rows when its text is imported with the same settings', async () => {
    const data = rows(
      { name: 'Müller; Sohn', wert: -0.25, plz: '01067', leer: null },
      { name: 'A "B"', wert: 3, plz: '10115', leer: null },
    );
    const csv = await exportCsv(data);
    const none: FileAccess = { open: () => Promise.reject(new Error('no files')) };
    const back = await csvImport(none).run({ text: one(csv), decimal: one(',') }, fakeRunContext());
    assert.deepEqual(
      back.rows.map((r) => r.value),
      [
        { name: 'Müller; Sohn', wert: -0.25, plz: '01067', leer: null },
        { name: 'A "B"', wert: 3, plz: 10115, leer: null },
      ],
    );
  });

  it('writes an empty text for no rows', async () => {
    assert.equal(await exportCsv([]), '');
  });

  it('refuses items that are not rows and a separator equal to the decimal mark', async () => {
    await assert.rejects(exportCsv([{ value: 'text' }]), (e: ApiError) => e.code === 'not_a_row' && e.params.item === 'rows[0]');
    await assert.rejects(exportCsv(rows({ a: 1 }), { sep: one(',') }), { code: 'separator_is_decimal' });
  });

  describe('the file output', () => {
    async function exportFile(items: FrameItems, params: FunctionInputs = {}) {
      const ctx = fakeRunContext();
      const out = await csvExport.run({ rows: items, ...params }, ctx);
      assert.equal(out.file.length, 1);
      const datum = out.file[0];
      return { datum, bytes: ctx.files.get(String(datum.stored_blob))!.bytes, text: out.csv[0].value as string };
    }
    const data = rows({ ort: 'Görlitz', preis: 2.5 });

    it('is UTF-8 with a byte order mark by default (automatic), typed text/csv and named export.csv', async () => {
      const { datum, bytes, text } = await exportFile(data);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      assert.equal(bytes.subarray(3).toString('utf8'), text);
      assert.deepEqual(
        { value: datum.value, mime_type: datum.mime_type, size: datum.size },
        { value: 'export.csv', mime_type: 'text/csv', size: bytes.length },
      );
    });

    it('writes utf-8 without a mark and the single-byte encodings, under the name given (as a plain file name)', async () => {
      assert.equal((await exportFile(data, { encoding: one('utf-8') })).bytes.toString('utf8'), 'ort;preis\r\nGörlitz;2,5\r\n');
      const latin = await exportFile(data, { encoding: one('windows-1252'), name: one('../Preise 2026.csv') });
      assert.equal(latin.bytes[12], 0xf6); // ö
      assert.equal(latin.bytes.length, 'ort;preis\r\nGörlitz;2,5\r\n'.length);
      assert.equal(latin.datum.value, 'Preise 2026.csv');
    });

    it('refuses a character the encoding lacks, naming it and its line, instead of writing ?', async () => {
      await assert.rejects(
        exportFile(rows({ a: 'x' }, { a: 'Preis in €' }), { encoding: one('iso-8859-1') }),
        (e: ApiError) => e.code === 'unencodable' && e.params.character === '€' && e.params.line === 3,
      );
      await assert.rejects(exportFile(data, { encoding: one('latin9') }), { code: 'invalid_choice' });
    });
  });
});
