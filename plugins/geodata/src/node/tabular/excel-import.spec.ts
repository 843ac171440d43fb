import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { excelImport } from './excel-import';
import { fakeRunContext } from '@werkbank/testing/node';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

const one = (value: unknown): FrameItems => [{ value }];
const fileDatum = { value: 'daten.xlsx', size: 1, mime_type: 'application/zip', download_url: '/files/daten.xlsx' };

/** A workbook with the given sheets (rows of cell values), as .xlsx bytes. */
async function workbook(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const row of rows) ws.addRow(row);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function importExcel(bytes: Buffer, params: FunctionInputs = {}, ctx = fakeRunContext()) {
  const files: FileAccess = {
    open: async (_user, file) => {
      if (file.download_url !== fileDatum.download_url) throw ApiError.notFound();
      return { stream: Readable.from([bytes]), size: bytes.length, mime_type: 'application/zip', name: 'daten.xlsx' };
    },
  };
  const out = await excelImport(files).run({ file: [fileDatum], ...params }, ctx);
  return out.rows.map((r) => r.value);
}

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

describe('excel.import', () => {
  it('reads the first sheet with its header row: numbers, texts, booleans, dates, formula results, rich text', async () => {
    const bytes = await workbook({
      Daten: [
        ['name', 'höhe', 'seit', 'doppelt', 'ok'],
        ['Haus', 12.5, new Date(Date.UTC(2026, 0, 2)), { formula: 'B2*2', result: 25 }, true],
        [{ richText: [{ text: 'Tu' }, { text: 'rm' }] }, null, null, null, false],
      ],
      Andere: [['x'], [1]],
    });
    assert.deepEqual(await importExcel(bytes), [
      { name: 'Haus', höhe: 12.5, seit: '2026-01-02T00:00:00.000Z', doppelt: 25, ok: true },
      { name: 'Turm', höhe: null, seit: null, doppelt: null, ok: false },
    ]);
  });

  it('reads the sheet named by sheet, and names its columns column_1, … without a header', async () => {
    const bytes = await workbook({
      Erste: [['a'], [1]],
      Zweite: [
        [1, 'x'],
        [2, 'y'],
      ],
    });
    assert.deepEqual(await importExcel(bytes, { sheet: one('Zweite'), header: one(false) }), [
      { column_1: 1, column_2: 'x' },
      { column_1: 2, column_2: 'y' },
    ]);
  });

  it('skips rows before the table and a footer after it', async () => {
    const bytes = await workbook({ Daten: [['Bericht 2026'], ['id', 'wert'], [1, 'a'], [2, 'b'], ['Summe', 2]] });
    assert.deepEqual(await importExcel(bytes, { skiprows: one(1), skipfooter: one(1) }), [
      { id: 1, wert: 'a' },
      { id: 2, wert: 'b' },
    ]);
  });

  it('names the sheet, row and column of a value outside the named columns', async () => {
    const bytes = await workbook({
      Daten: [
        ['a', 'b'],
        [1, 2],
        [3, 4, 5],
      ],
    });
    await rejectsWith(importExcel(bytes), 'excel_extra_cell', { sheet: 'Daten', row: 3, column: 3, source: 'daten.xlsx' });
  });

  it('refuses a header with a repeated name, a missing sheet, and bytes that are no workbook', async () => {
    await rejectsWith(
      importExcel(
        await workbook({
          Daten: [
            ['a', 'a'],
            [1, 2],
          ],
        }),
      ),
      'excel_duplicate_column_name',
      {
        row: 1,
        name: 'a',
      },
    );
    await rejectsWith(importExcel(await workbook({ Daten: [['a']] }), { sheet: one('Fehlt') }), 'sheet_missing', {
      sheets: 'Daten',
    });
    await rejectsWith(importExcel(Buffer.from('a;b\n1;2\n')), 'invalid_excel');
  });

  it('reads nothing once the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(importExcel(await workbook({ Daten: [['a'], [1]] }), {}, ctx), /stopped/);
  });

  it('refuses a workbook that unpacks to far more than its size (a zip bomb) before exceljs unpacks it', async () => {
    // 20 MB of one letter compress to a few kilobytes: an expansion far beyond the allowed ratio.
    const bomb = await workbook({ Daten: [['a'], ['x'.repeat(20_000_000)]] });
    assert.ok(bomb.length < 200_000);
    await rejectsWith(importExcel(bomb), 'zip_bomb');
  });
});
