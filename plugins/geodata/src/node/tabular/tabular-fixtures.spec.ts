import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ApiError, type FrameItems } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { csvImport } from './csv-import';
import { excelImport } from './excel-import';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** Files written by real tools (plugins/geodata/test/fixtures/tabular/README.md says how). */
const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/tabular');

/** A FileAccess serving one fixture under its own name. */
function fixture(name: string): { files: FileAccess; datum: Record<string, unknown> } {
  const bytes = readFileSync(join(FIXTURES, name));
  const datum = { value: name, size: bytes.length, mime_type: 'application/octet-stream', download_url: `/files/${name}` };
  const files: FileAccess = {
    open: async (_user, file) => {
      if (file.download_url !== datum.download_url) throw ApiError.notFound();
      return { stream: Readable.from([bytes]), size: bytes.length, mime_type: datum.mime_type, name };
    },
  };
  return { files, datum };
}

const one = (value: unknown): FrameItems => [{ value }];

describe('tabular imports on files written by real tools', () => {
  it('excel.import reads the workbook GDAL wrote: the sheet by its name, typed cells, an empty cell', async () => {
    const { files, datum } = fixture('staedte.xlsx');
    const out = await excelImport(files).run({ file: [datum], sheet: one('Städte') }, fakeRunContext());
    const rows = out.rows.map((r) => r.value as Record<string, unknown>);
    assert.equal(rows.length, 3);
    assert.deepEqual(
      rows.map((r) => [r.name, r.einwohner, r.flaeche_km2]),
      [
        ['Görlitz', 55784, 67.22],
        ['München', 1512491, 310.7],
        ['Köln', 1084831, 405.02],
      ],
    );
    assert.equal(new Date(String(rows[0].gegruendet)).getUTCFullYear(), 1071);
    assert.equal(rows[2].gegruendet ?? null, null);
  });

  it('csv.import reads a windows-1252 CSV as German spreadsheets save it (sep ;, decimal ,)', async () => {
    const { files, datum } = fixture('orte-cp1252.csv');
    const out = await csvImport(files).run({ file: [datum], encoding: one('windows-1252'), decimal: one(',') }, fakeRunContext());
    assert.deepEqual(
      out.rows.map((r) => r.value),
      [
        { Ort: 'Görlitz', Rechtswert: 498123.45, Hochwert: 5667890.12, Bemerkung: 'Neißeufer' },
        { Ort: 'München', Rechtswert: 691234.5, Hochwert: 5334567.25, Bemerkung: 'Maßstab 1:1000' },
      ],
    );
  });
});
